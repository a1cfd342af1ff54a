// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pci_sleep_state.c - the D-state system sleep left a PCI device in,
 * read from the kernel log's dynamic debug lines, against what
 * pci_prepare_to_sleep() promised (lib/sleep/pci_sleep_state.c).  The
 * lines are a QEMU 7.2 guest's (Debian 6.1, the s2idle cycle of
 * real_device_timing, pm_print_times on); the D0 line of a device that
 * should reach D3hot is the check's negative control.
 */
#include "devpm.h"
#include "kselftest_harness.h"
#include "sleep/pci_sleep_state.h"

/* Recorded: e1000e reached D3hot, ahci (no PM capability) stayed in D0. */
static const char *const cycle[] = {
	"e1000e 0000:00:04.0: PM: calling pci_pm_suspend+0x0/0x170 @ 24, parent: pci0000:00",
	"e1000e 0000:00:04.0: PM: pci_pm_suspend+0x0/0x170 returned 0 after 9504 usecs",
	"ahci 0000:01:00.0: PM: calling pci_pm_suspend_noirq+0x0/0x280 @ 95, parent: 0000:00:03.0",
	"ahci 0000:01:00.0: saving config space at offset 0x0 (reading 0x29228086)",
	"ahci 0000:01:00.0: saving config space at offset 0x4 (reading 0x100507)",
	"ahci 0000:01:00.0: PCI PM: Suspend power state: D0",
	"ahci 0000:01:00.0: PM: pci_pm_suspend_noirq+0x0/0x280 returned 0 after 659 usecs",
	"e1000e 0000:00:04.0: PM: calling pci_pm_suspend_noirq+0x0/0x280 @ 95, parent: pci0000:00",
	"e1000e 0000:00:04.0: saving config space at offset 0x0 (reading 0x10d38086)",
	"e1000e 0000:00:04.0: saving config space at offset 0x4 (reading 0x100103)",
	"e1000e 0000:00:04.0: PCI PM: Suspend power state: D3hot",
	"e1000e 0000:00:04.0: PM: pci_pm_suspend_noirq+0x0/0x280 returned 0 after 13323 usecs",
	"e1000e 0000:00:04.0: PM: calling pci_pm_resume_noirq+0x0/0x150 @ 110, parent: pci0000:00",
};

/* The same e1000e left in D0: pci_set_power_state() refused. */
static const char *const refused[] = {
	"e1000e 0000:00:04.0: PM: calling pci_pm_suspend_noirq+0x0/0x280 @ 95, parent: pci0000:00",
	"e1000e 0000:00:04.0: saving config space at offset 0x0 (reading 0x10d38086)",
	"e1000e 0000:00:04.0: Refused to change power state from D0 to D3hot",
	"e1000e 0000:00:04.0: PCI PM: Suspend power state: D0",
};

/* A driver that saved its state in its own suspend (nvme_suspend()). */
static const char *const driver_saved[] = {
	"nvme 0000:00:05.0: PM: calling pci_pm_suspend+0x0/0x170 @ 24, parent: pci0000:00",
	"nvme 0000:00:05.0: saving config space at offset 0x0 (reading 0x101b36)",
	"nvme 0000:00:05.0: PM: calling pci_pm_suspend_noirq+0x0/0x280 @ 95, parent: pci0000:00",
	"nvme 0000:00:05.0: PCI PM: Suspend power state: D0",
};

static void feed(struct devpm_pci_sleep_log *l, const char *const *v,
		 size_t n)
{
	size_t i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i++)
		devpm_pci_sleep_line(v[i], l);
}

#define FEED(l, v)	feed(l, v, sizeof(v) / sizeof(v[0]))

/* e1000e in QEMU: PM capability version 3, no PME#, no platform. */
static const struct devpm_pci_sleep_facts endpoint = {
	.pm_cap = 0xc8, .pmc = 0x0003,
};

static int expect_of(struct devpm_pci_sleep_seen *s,
		     const struct devpm_pci_sleep_facts *base)
{
	struct devpm_pci_sleep_facts f = *base;

	f.saved_early = s->saved_early;
	s->expect = devpm_pci_sleep_expect(&f, s->why_not,
					   sizeof(s->why_not));
	return s->expect;
}

TEST(d3hot_line_passes)
{
	static struct devpm_pci_sleep_log l;
	struct devpm_pci_sleep_seen *s;
	char why[256] = "";

	FEED(&l, cycle);
	ASSERT_EQ(2, l.n);
	s = (struct devpm_pci_sleep_seen *)devpm_pci_sleep_find(&l, "0000:00:04.0");
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("e1000e", s->driver);
	EXPECT_EQ(3, s->state);
	EXPECT_TRUE(s->noirq);
	EXPECT_FALSE(s->saved_early);
	EXPECT_EQ(3, expect_of(s, &endpoint));
	EXPECT_EQ(0, devpm_pci_sleep_judge(s, why, sizeof(why)));
	/* ahci's D0 is not judged: no PM capability. */
	s = (struct devpm_pci_sleep_seen *)devpm_pci_sleep_find(&l, "0000:01:00.0");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(0, s->state);
	EXPECT_FALSE(s->saved_early);
	{
		struct devpm_pci_sleep_facts none = { 0 };

		EXPECT_EQ(-1, expect_of(s, &none));
		EXPECT_STREQ("no PM capability the kernel uses", s->why_not);
	}
	EXPECT_EQ(0, devpm_pci_sleep_judge(s, why, sizeof(why)));
}

/* The negative control: D0 where D3hot was promised fails, naming it. */
TEST(d0_line_fails)
{
	static struct devpm_pci_sleep_log l;
	struct devpm_pci_sleep_seen *s;
	char why[256] = "";

	FEED(&l, refused);
	ASSERT_EQ(1, l.n);
	s = &l.v[0];
	EXPECT_EQ(0, s->state);
	EXPECT_EQ(3, expect_of(s, &endpoint));
	ASSERT_EQ(1, devpm_pci_sleep_judge(s, why, sizeof(why)));
	EXPECT_STREQ("0000:00:04.0 (e1000e): left in D0 by system sleep (pci_prepare_to_sleep()), expected D3hot",
		     why);
}

TEST(driver_saved_state_not_judged)
{
	static struct devpm_pci_sleep_log l;
	char why[256] = "";

	FEED(&l, driver_saved);
	ASSERT_EQ(1, l.n);
	EXPECT_TRUE(l.v[0].saved_early);
	EXPECT_EQ(-1, expect_of(&l.v[0], &endpoint));
	EXPECT_EQ(0, devpm_pci_sleep_judge(&l.v[0], why, sizeof(why)));
}

/* drivers/pci/pci.c: pci_target_state() without a platform. */
TEST(target_state)
{
	struct devpm_pci_sleep_facts f = endpoint;
	char why[96];

	EXPECT_EQ(3, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f.pmc = 0xc803;		/* PME# from D0, D3hot, D3cold */
	EXPECT_EQ(3, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f.wakeup = true;
	EXPECT_EQ(3, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f.pmc = 0x0803;		/* PME# from D0 only */
	EXPECT_EQ(0, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f.pmc = 0x1803;		/* from D0 and D1 */
	EXPECT_EQ(1, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f.pmc = 0x8003;		/* from D3cold only: D3hot */
	EXPECT_EQ(3, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f.wakeup = false;
	f.pmc = 0x0803;
	EXPECT_EQ(3, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f.pmc = 0x0004;		/* a PM capability version the kernel refuses */
	EXPECT_EQ(-1, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f = endpoint;
	f.bridge = true;
	EXPECT_EQ(-1, devpm_pci_sleep_expect(&f, why, sizeof(why)));
	f = endpoint;
	f.platform = true;
	EXPECT_EQ(-1, devpm_pci_sleep_expect(&f, why, sizeof(why)));
}

/* Other lines, and lines cut short, are nobody's. */
TEST(other_lines_ignored)
{
	static struct devpm_pci_sleep_log l;
	static const char *const v[] = {
		"PM: suspend entry (s2idle)",
		"PCI PM: Suspend power state: D0",
		": PCI PM: Suspend power state: D3hot",
		"e1000e 0000:00:04.0: PCI PM: Suspend power state: D9",
		"e1000e 0000:00:04.0: PCI PM: Skipped",
	};
	size_t i;

	memset(&l, 0, sizeof(l));
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		devpm_pci_sleep_line(v[i], &l);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(-1, l.v[0].state);
	EXPECT_STREQ("none", devpm_pci_sleep_state_name(l.v[0].state));
}

TEST_HARNESS_MAIN
