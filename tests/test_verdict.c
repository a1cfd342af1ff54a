// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_verdict.c - lib/judge/baseline.c and lib/judge/verdict.c on fake and recorded
 * trees: the baseline file round-trips and refuses files it must not
 * trust; each verdict rule fails the device it should (naming device,
 * driver and counts) and, as its negative control, passes the same device
 * when nothing is wrong.
 */
#include "devpm.h"
#include "judge/usage_cycle.h"
#include "rpm/autosuspend_timer.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define PCI0 "/sys/devices/pci0000:00"
#define GOOD PCI0 "/0000:00:02.0"	/* suspended, control auto */
#define FORB PCI0 "/0000:00:03.0"	/* control on, usage 1: could */
#define HELD PCI0 "/0000:00:04.0"	/* control on, usage 2: held */
#define ERR  PCI0 "/0000:00:05.0"	/* error at baseline */
#define KID  PCI0 "/0000:00:06.0"	/* its child is active */
#define TWIN GOOD "/misc/0000:00:02.0"	/* class device, GOOD's name */

FIXTURE(tree) {
	char *root;
	char jdir[PATH_MAX];
	struct devpm_baseline b;
};

FIXTURE_SETUP(tree)
{
	self->root = tree_new();
	tree_device(self->root, PCI0, NULL, NULL, NULL, "unsupported", 0, 0);
	tree_device(self->root, GOOD, "pci", "mockdrv", "auto", "suspended",
		    0, 0);
	tree_device(self->root, FORB, "pci", "mockdrv", "on", "active", 1, 0);
	tree_device(self->root, HELD, "pci", "e1000e", "on", "active", 2, 0);
	tree_device(self->root, ERR, "pci", "baddrv", "auto", "error", 0, 0);
	tree_device(self->root, KID, "pci", "mockdrv", "auto", "active", 0,
		    1);
	tree_device(self->root, KID "/child", NULL, NULL, "on", "active", 1,
		    0);
	tree_device(self->root, TWIN, NULL, NULL, NULL, "unsupported", 0, 0);
	ASSERT_EQ(0, tree_use(self->root, self->jdir, sizeof(self->jdir)));
	ASSERT_EQ(0, devpm_baseline_take(&self->b));
	EXPECT_EQ(1, self->b.passes);	/* a tree that stands still */
	devpm_verdict_forget();
}

FIXTURE_TEARDOWN(tree)
{
	devpm_baseline_free(&self->b);
	devpm_verdict_forget();
	tree_unuse(self->root);
}

static const struct devpm_base_dev *find(const struct devpm_baseline *b,
					 const char *path)
{
	return devpm_baseline_find(b, path);
}

TEST_F(tree, roles_at_baseline)
{
	const struct devpm_base_dev *d;

	d = find(&self->b, GOOD);
	ASSERT_NE(NULL, d);
	EXPECT_STREQ("suspended", d->role);
	EXPECT_TRUE(d->could_suspend);
	EXPECT_STREQ("mockdrv", d->driver);
	d = find(&self->b, FORB);
	EXPECT_STREQ("forbidden", d->role);
	EXPECT_TRUE(d->could_suspend);
	d = find(&self->b, HELD);
	EXPECT_STREQ("usage_held", d->role);
	EXPECT_FALSE(d->could_suspend);
	d = find(&self->b, ERR);
	EXPECT_STREQ("error", d->role);
	EXPECT_FALSE(d->could_suspend);
	d = find(&self->b, KID);
	EXPECT_STREQ("active_children", d->role);
	/* By name too. */
	EXPECT_EQ(find(&self->b, GOOD), find(&self->b, "0000:00:02.0"));
	EXPECT_TRUE(self->b.have_usage);
}

TEST_F(tree, file_round_trip)
{
	struct devpm_baseline r;
	char file[PATH_MAX];
	size_t i;

	snprintf(file, sizeof(file), "%s/baseline.tsv", self->root);
	ASSERT_EQ(0, devpm_baseline_write(&self->b, file));
	ASSERT_EQ(0, devpm_baseline_read(&r, file)) TH_LOG("%s", devpm_error());
	ASSERT_EQ(self->b.n, r.n);
	EXPECT_EQ(self->b.have_usage, r.have_usage);
	for (i = 0; i < r.n; i++) {
		EXPECT_STREQ(self->b.v[i].path, r.v[i].path);
		EXPECT_STREQ(self->b.v[i].driver, r.v[i].driver);
		EXPECT_STREQ(self->b.v[i].status, r.v[i].status);
		EXPECT_STREQ(self->b.v[i].control, r.v[i].control);
		EXPECT_EQ(self->b.v[i].usage, r.v[i].usage);
		EXPECT_EQ(self->b.v[i].could_suspend, r.v[i].could_suspend);
		EXPECT_STREQ(self->b.v[i].role, r.v[i].role);
	}
	devpm_baseline_free(&r);
}

TEST_F(tree, file_refused)
{
	struct devpm_baseline r;
	char file[PATH_MAX], link[PATH_MAX + 8];

	snprintf(file, sizeof(file), "%s/baseline.tsv", self->root);
	ASSERT_EQ(0, devpm_baseline_write(&self->b, file));
	/* A symlink to it is not followed. */
	snprintf(link, sizeof(link), "%s.lnk", file);
	ASSERT_EQ(0, symlink(file, link));
	EXPECT_GT(0, devpm_baseline_read(&r, link));
	/* Writable by others: not trusted. */
	ASSERT_EQ(0, chmod(file, 0666));
	EXPECT_EQ(-EPERM, devpm_baseline_read(&r, file));
	ASSERT_EQ(0, chmod(file, 0644));
	/* Malformed: the line is named. */
	ASSERT_EQ(0, unit_put("", file, "# devpm baseline 1 usage=sysfs\n/sys/devices/x\tx\n"));
	EXPECT_EQ(-EINVAL, devpm_baseline_read(&r, file));
	EXPECT_NE(NULL, strstr(devpm_error(), "line 2"));
	ASSERT_EQ(0, unit_put("", file, "not a baseline\n"));
	EXPECT_EQ(-EINVAL, devpm_baseline_read(&r, file));
}

/* Rule 2, a leaked reference: counted against the baseline. */
TEST_F(tree, leak_fails_naming_counts)
{
	char why[768];

	/* Negative control: as at baseline. */
	EXPECT_EQ(0, devpm_verdict_device(&self->b, FORB, DEVPM_V_ALL, why,
					  sizeof(why))) TH_LOG("%s", why);
	/* control=auto drops control=on's reference: no leak. */
	tree_put(self->root, FORB "/power/control", "auto");
	tree_put(self->root, FORB "/power/runtime_usage", "0");
	tree_put(self->root, FORB "/power/runtime_status", "suspended");
	EXPECT_EQ(0, devpm_verdict_device(&self->b, FORB, DEVPM_V_LEAK, why,
					  sizeof(why))) TH_LOG("%s", why);
	/* The driver's runtime_resume took a reference it never drops. */
	tree_put(self->root, FORB "/power/control", "on");
	tree_put(self->root, FORB "/power/runtime_usage", "2");
	tree_put(self->root, FORB "/power/runtime_status", "active");
	EXPECT_EQ(1, devpm_verdict_device(&self->b, FORB, DEVPM_V_LEAK, why,
					  sizeof(why)));
	EXPECT_STREQ("0000:00:03.0 (driver mockdrv): usage count 2 (control=on) above its baseline 1 (control=on): 1 reference(s) leaked",
		     why);
	/* The whole tree finds it, and only it. */
	EXPECT_EQ(1, devpm_verdict_tree(&self->b, DEVPM_V_LEAK, NULL, NULL));
	/* A device held at baseline is judged by its own count. */
	EXPECT_EQ(0, devpm_verdict_device(&self->b, HELD, DEVPM_V_LEAK, why,
					  sizeof(why))) TH_LOG("%s", why);
	/* One count over a baseline of none (control=auto): a leak. */
	tree_put(self->root, GOOD "/power/runtime_usage", "1");
	EXPECT_EQ(1, devpm_verdict_device(&self->b, GOOD, DEVPM_V_LEAK, why,
					  sizeof(why)));
	EXPECT_STREQ("0000:00:02.0 (driver mockdrv): usage count 1 (control=auto) above its baseline 0 (control=auto): 1 reference(s) leaked",
		     why);
}

/* Rule 3: runtime_status=error, and the callback's errno from the trace. */
TEST_F(tree, error_fails_naming_callback)
{
	struct devpm_event ev;
	char why[768], link[PATH_MAX];

	EXPECT_EQ(0, devpm_verdict_device(&self->b, GOOD, DEVPM_V_ERROR, why,
					  sizeof(why)));
	tree_put(self->root, GOOD "/power/runtime_status", "error");
	EXPECT_EQ(1, devpm_verdict_device(&self->b, GOOD, DEVPM_V_ERROR, why,
					  sizeof(why)));
	EXPECT_STREQ("0000:00:02.0 (driver mockdrv): runtime_status=error",
		     why);
	ASSERT_EQ(0, devpm_trace_parse_line("  kworker/0:1-12  [000] d..1.   5.000001: rpm_return_int: rpm_resume+0x1a0/0x5e0:0000:00:02.0 ret=-5",
					    &ev));
	devpm_verdict_event(&ev);
	EXPECT_EQ(1, devpm_verdict_device(&self->b, GOOD, DEVPM_V_ERROR, why,
					  sizeof(why)));
	EXPECT_STREQ("0000:00:02.0 (driver mockdrv): runtime_status=error: runtime_resume callback failed, rpm_resume returned -5 (EIO)",
		     why);
	/* Seen in the trace, cleared since: still a failure. */
	tree_put(self->root, GOOD "/power/runtime_status", "suspended");
	EXPECT_EQ(1, devpm_verdict_device(&self->b, GOOD, DEVPM_V_ERROR, why,
					  sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "was error: runtime_resume callback failed"));
	/* Bound to another driver since: named as it is now. */
	snprintf(link, sizeof(link), "%s%s/driver", self->root, GOOD);
	ASSERT_EQ(0, unlink(link));
	tree_link(self->root, GOOD "/driver",
		  "../../../bus/pci/drivers/otherdrv");
	EXPECT_EQ(1, devpm_verdict_device(&self->b, GOOD, DEVPM_V_ERROR, why,
					  sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "(driver otherdrv): runtime_status was error"))
		TH_LOG("%s", why);
	/* A class device of the same name without runtime PM: not it. */
	EXPECT_EQ(0, devpm_verdict_device(&self->b, TWIN, DEVPM_V_ERROR, why,
					  sizeof(why))) TH_LOG("%s", why);
	/* A case that caused it on purpose says so. */
	devpm_verdict_expect_error("0000:00:02.0");
	EXPECT_EQ(0, devpm_verdict_device(&self->b, GOOD, DEVPM_V_ERROR, why,
					  sizeof(why)));
	/* In error at baseline: classify's failure, not every case's. */
	EXPECT_EQ(0, devpm_verdict_device(&self->b, ERR, DEVPM_V_ERROR, why,
					  sizeof(why)));
}

/*
 * After a case: a leak already there when the case began is an earlier
 * case's (failed there and in the final re-check); a new one is this
 * case's.
 */
TEST_F(tree, case_blamed_only_for_its_own)
{
	devpm_verdict_watch();	/* no tracefs on a recorded tree: status only */
	ASSERT_NE(NULL, devpm_baseline());
	tree_put(self->root, FORB "/power/runtime_usage", "2");
	devpm_verdict_case_begin();
	EXPECT_EQ(0, devpm_verdict_case_end("second"));
	/* Negative control: the same leak, begun clean, is this case's. */
	tree_put(self->root, FORB "/power/runtime_usage", "1");
	devpm_verdict_case_begin();
	tree_put(self->root, FORB "/power/runtime_usage", "2");
	EXPECT_EQ(1, devpm_verdict_case_end("first"));
	EXPECT_STREQ("0000:00:03.0 (driver mockdrv): usage count 2 (control=on) above its baseline 1 (control=on): 1 reference(s) leaked",
		     devpm_verdict_first());
	/* And an error there at the start, likewise. */
	tree_put(self->root, FORB "/power/runtime_usage", "1");
	tree_put(self->root, GOOD "/power/runtime_status", "error");
	devpm_verdict_case_begin();
	EXPECT_EQ(0, devpm_verdict_case_end("third"));
	/* The final re-check (no case) sees both. */
	tree_put(self->root, FORB "/power/runtime_usage", "2");
	EXPECT_EQ(2, devpm_verdict_tree(devpm_baseline(), DEVPM_V_ERROR |
					DEVPM_V_LEAK, NULL, NULL));
}

/* A case of its own process, as the harness forks it: exit code 10 + n. */
static int forked_case(const char *root, const char *usage_before,
		       const char *usage_during, bool verdict)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (!pid) {
		if (usage_before)
			tree_put(root, FORB "/power/runtime_usage",
				 usage_before);
		devpm_verdict_case_begin();
		tree_put(root, FORB "/power/runtime_usage", usage_during);
		_exit(verdict ? 10 + devpm_verdict_case_end("forked") : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * A case begins where the last one's verdict left the devices (shared by
 * the forked cases), not by reading them all again; a case that died
 * before its verdict makes the next one read.
 */
TEST_F(tree, next_case_begins_where_the_last_left)
{
	devpm_verdict_watch();
	ASSERT_NE(NULL, devpm_baseline());
	/* Begun clean, leaked: fails, and leaves the count at 2. */
	EXPECT_EQ(11, forked_case(self->root, "1", "2", true));
	/* Put back behind the verdict's back: the next case begins at 2 all
	 * the same (it did not read), so its 2 is no leak of its own. */
	tree_put(self->root, FORB "/power/runtime_usage", "1");
	EXPECT_EQ(10, forked_case(self->root, NULL, "2", true));
	/* A case that dies before its verdict leaves nothing to trust. */
	EXPECT_EQ(0, forked_case(self->root, NULL, "1", false));
	/* Negative control: this one reads (1 at its begin) and fails. */
	EXPECT_EQ(11, forked_case(self->root, NULL, "2", true));
}

/* Ordinary returns (-EAGAIN, -EBUSY, -EACCES, ...) are no errors. */
TEST_F(tree, ordinary_returns_are_no_error)
{
	static const char *const lines[] = {
		"rpm_return_int: rpm_suspend+0x185/0x5e0:0000:00:02.0 ret=-11",
		"rpm_return_int: rpm_idle+0x136/0x2f0:0000:00:02.0 ret=-16",
		"rpm_return_int: rpm_resume+0x1a0/0x5e0:0000:00:02.0 ret=-13",
		"rpm_return_int: rpm_idle+0x136/0x2f0:0000:00:02.0 ret=-115",
		"rpm_return_int: rpm_suspend+0x185/0x5e0:0000:00:02.0 ret=-1",
		NULL,
	};
	struct devpm_event ev;
	char line[256], why[768];
	int i;

	for (i = 0; lines[i]; i++) {
		snprintf(line, sizeof(line), "  x-1  [000] d..1.   5.0: %s",
			 lines[i]);
		ASSERT_EQ(0, devpm_trace_parse_line(line, &ev));
		devpm_verdict_event(&ev);
	}
	EXPECT_EQ(0, devpm_verdict_device(&self->b, GOOD, DEVPM_V_ERROR, why,
					  sizeof(why))) TH_LOG("%s", why);
}

/* Rule 2, could suspend at baseline and no longer does when allowed. */
TEST_F(tree, no_longer_suspends)
{
	char why[768], want[320];

	/* Active child: a reason the kernel honours. */
	tree_put(self->root, GOOD "/power/runtime_status", "active");
	tree_put(self->root, GOOD "/power/runtime_active_kids", "1");
	EXPECT_EQ(0, devpm_verdict_device(&self->b, GOOD, DEVPM_V_SUSPEND,
					  why, sizeof(why))) TH_LOG("%s", why);
	/* Nothing the diagnosis can name holds it. */
	tree_put(self->root, GOOD "/power/runtime_active_kids", "0");
	EXPECT_EQ(1, devpm_verdict_device(&self->b, GOOD, DEVPM_V_SUSPEND,
					  why, sizeof(why)));
	snprintf(want, sizeof(want),
		 "0000:00:02.0 (driver mockdrv): could suspend at baseline (suspended, control=auto) but is still active %d ms after the case let go (limit: autosuspend_delay_ms 0 + 25 %% + %d ms, + %d ms for work in flight)",
		 devpm_verdict_suspend_ms(0), DEVPM_AUTOSUSPEND_ALLOW_MS,
		 DEVPM_VERDICT_SETTLE_MS);
	EXPECT_NE(NULL, strstr(why, want)) TH_LOG("%s", why);
	/* The limit's edges: delay + 25 %, the lag, what is in flight. */
	EXPECT_EQ(DEVPM_AUTOSUSPEND_ALLOW_MS + DEVPM_VERDICT_SETTLE_MS,
		  devpm_verdict_suspend_ms(-1));
	EXPECT_EQ(125 + DEVPM_AUTOSUSPEND_ALLOW_MS + DEVPM_VERDICT_SETTLE_MS,
		  devpm_verdict_suspend_ms(100));
	/* control=on at the time: not allowed, not judged. */
	tree_put(self->root, GOOD "/power/control", "on");
	tree_put(self->root, GOOD "/power/runtime_usage", "1");
	EXPECT_EQ(0, devpm_verdict_device(&self->b, GOOD, DEVPM_V_SUSPEND,
					  why, sizeof(why))) TH_LOG("%s", why);
}

/* Another driver now (a case bound vfio-pci): counts are not compared. */
TEST_F(tree, other_driver_not_compared)
{
	char why[768], link[PATH_MAX];

	tree_put(self->root, FORB "/power/runtime_usage", "3");
	EXPECT_EQ(1, devpm_verdict_device(&self->b, FORB, DEVPM_V_LEAK, why,
					  sizeof(why)));
	snprintf(link, sizeof(link), "%s%s/driver", self->root, FORB);
	ASSERT_EQ(0, unlink(link));
	tree_link(self->root, FORB "/driver",
		  "../../../bus/pci/drivers/vfio-pci");
	EXPECT_EQ(0, devpm_verdict_device(&self->b, FORB, DEVPM_V_LEAK, why,
					  sizeof(why))) TH_LOG("%s", why);
}

/* Rule 4: control cycles balance, and a drift names its cycle. */
TEST_F(tree, control_cycles)
{
	struct devpm_usage_cycle c;
	struct devpm_dev d;

	ASSERT_EQ(0, devpm_journal_open_owner(self->jdir));
	ASSERT_NE(NULL, devpm_baseline());
	ASSERT_EQ(0, devpm_dev_open(&d, GOOD));
	EXPECT_EQ(0, devpm_usage_cycle_control(&d, NULL, DEVPM_CYCLES_MIN, 50, &c))
		TH_LOG("%s", c.why);
	EXPECT_EQ(DEVPM_CYCLES_MIN, c.done);
	EXPECT_EQ(0, c.drift);
	EXPECT_STREQ("runtime_usage", c.usage_src);
	/* Its runtime_resume took a reference it never drops. */
	tree_put(self->root, GOOD "/power/runtime_usage", "1");
	EXPECT_EQ(1, devpm_usage_cycle_control(&d, NULL, DEVPM_CYCLES_MIN, 50, &c));
	EXPECT_EQ(1, c.drift);
	EXPECT_STREQ("cycle 1 of 10: usage count 1 (runtime_usage, control=on's not counted) after suspending again, baseline 0",
		     c.why);
	/* It never suspends again: the cycle and the diagnosis. */
	tree_put(self->root, GOOD "/power/runtime_usage", "0");
	tree_put(self->root, GOOD "/power/runtime_status", "active");
	EXPECT_EQ(1, devpm_usage_cycle_control(&d, NULL, DEVPM_CYCLES_MIN, 50, &c));
	EXPECT_EQ(1, c.drift);
	EXPECT_NE(NULL, strstr(c.why, "cycle 1 of 10: not suspended 50 ms after control=auto"))
		TH_LOG("%s", c.why);
	devpm_journal_restore_all();
	devpm_journal_close();
}

/* A recorded tree judged against itself: no false failure. */
TEST(recorded_trees_against_themselves)
{
	static const char *const trees[] = { "qemu-q35", "qemu-q35-idle",
					     "host-vm", NULL };
	struct devpm_baseline b;
	char dir[PATH_MAX];
	int i;

	for (i = 0; trees[i]; i++) {
		snprintf(dir, sizeof(dir), "%s/sysfs/%s", fixtures_dir(),
			 trees[i]);
		ASSERT_EQ(0, devpm_set_sysfs_root(dir));
		ASSERT_EQ(0, devpm_baseline_take(&b));
		EXPECT_LT(10, b.n);
		EXPECT_EQ(1, b.passes);
		EXPECT_EQ(0, devpm_verdict_tree(&b, DEVPM_V_ERROR |
						DEVPM_V_LEAK, NULL, NULL))
			TH_LOG("%s", trees[i]);
		devpm_baseline_free(&b);
	}
	devpm_set_sysfs_root(NULL);
}

TEST_HARNESS_MAIN
