// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_diagnose.c - lib/rpm/diagnose.c: golden diagnoses of every device in
 * the recorded trees (fixtures/sysfs/<tree>.diag; DEVPM_REGEN_GOLDEN=1
 * rewrites them), and one negative control per reason on fake trees.
 */
#include "devpm.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define PCIDEV "/sys/devices/pci0000:00/0000:00:02.0"

/* The diagnosis of every device in the tree at dir, one line each. */
static char *diagnose_tree(const char *dir, size_t *len)
{
	struct devpm_dev *l;
	struct devpm_diag g;
	char line[2048], *out;
	size_t n, i;
	FILE *f;

	if (devpm_set_sysfs_root(dir) || devpm_dev_list(NULL, &l, &n))
		return NULL;
	f = open_memstream(&out, len);
	for (i = 0; i < n; i++) {
		devpm_diagnose(&l[i], &g);
		devpm_diag_line(&g, line, sizeof(line));
		fprintf(f, "%s\t%s\t%s\n", l[i].path,
			l[i].rpm.have_status ? l[i].rpm.status : "-",
			g.n ? line : "-");
	}
	fclose(f);
	free(l);
	return out;
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	FILE *f = fopen(path, "r");
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	*len = fread(buf, 1, n, f);
	fclose(f);
	return buf;
}

/* First line where a and b differ, for the log. */
static void first_diff(const char *a, const char *b, char *buf, size_t len)
{
	int line = 1;

	while (*a && *a == *b) {
		line += *a == '\n';
		a++;
		b++;
	}
	while (line > 1 && a[-1] != '\n') {
		a--;
		b--;
	}
	snprintf(buf, len, "line %d:\n  want: %.*s\n  got:  %.*s", line,
		 (int)strcspn(b, "\n"), b, (int)strcspn(a, "\n"), a);
}

TEST(golden_recorded_trees)
{
	char base[PATH_MAX], dir[PATH_MAX], golden[PATH_MAX], diff[4096];
	const char *regen = getenv("DEVPM_REGEN_GOLDEN");
	struct dirent *e;
	size_t glen, olen;
	int trees = 0;
	char *got, *want;
	DIR *dp;
	FILE *f;

	snprintf(base, sizeof(base), "%s/sysfs", fixtures_dir());
	dp = opendir(base);
	ASSERT_NE(NULL, dp);
	while ((e = readdir(dp))) {
		snprintf(dir, sizeof(dir), "%s/%s/sys/devices", base,
			 e->d_name);
		if (e->d_name[0] == '.' || access(dir, F_OK))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, e->d_name);
		snprintf(golden, sizeof(golden), "%s/%s.diag", base, e->d_name);
		trees++;
		got = diagnose_tree(dir, &olen);
		ASSERT_NE(NULL, got) {
			TH_LOG("%s: %s", dir, devpm_error());
		}
		EXPECT_LT(10, (int)olen);
		if (regen && !strcmp(regen, "1")) {
			f = fopen(golden, "w");
			ASSERT_NE(NULL, f);
			fputs(got, f);
			fclose(f);
			TH_LOG("rewrote %s", golden);
		}
		want = slurp(golden, &glen);
		EXPECT_NE(NULL, want) {
			TH_LOG("%s missing: run with DEVPM_REGEN_GOLDEN=1 and review it",
			       golden);
		}
		if (want && strcmp(want, got)) {
			first_diff(got, want, diff, sizeof(diff));
			EXPECT_STREQ(want, got) {
				TH_LOG("%s differs at %s", golden, diff);
			}
		}
		free(want);
		free(got);
	}
	closedir(dp);
	EXPECT_LE(2, trees);
}

/* Diagnose the device at kpath in root; returns reason count. */
static int diag_of(const char *root, const char *kpath,
		   struct devpm_diag *g, char *line, size_t len)
{
	struct devpm_dev d;
	int r;

	if (devpm_set_sysfs_root(root) || devpm_dev_open(&d, kpath))
		return -1;
	r = devpm_diagnose(&d, g);
	devpm_diag_line(g, line, len);
	return r;
}

static bool has_code(const struct devpm_diag *g, enum devpm_reason_code c)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (g->r[i].code == c)
			return true;
	return false;
}

static void put_attr(const char *root, const char *dev, const char *attr,
		     const char *val)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/power/%s", dev, attr);
	tree_put(root, p, val);
}

static void rm_attr(const char *root, const char *dev, const char *attr)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s%s/power/%s", root, dev, attr);
	unlink(p);
}

TEST(suspended_has_no_reason)
{
	char *root = tree_new(), line[1024] = "x";
	struct devpm_diag g;

	tree_device(root, PCIDEV, "pci", "e1000e", "auto", "suspended", 0, 0);
	EXPECT_EQ(0, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_STREQ("", line);
	/* Negative control: the same device active gets a reason. */
	put_attr(root, PCIDEV, "runtime_status", "active");
	EXPECT_LT(0, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	tree_rm(root);
}

TEST(control_on_and_probe_usage)
{
	char *root = tree_new(), line[1024];
	struct devpm_diag g;

	/* Bound PCI driver without runtime PM: forbid + probe = 2. */
	tree_device(root, PCIDEV, "pci", "e1000e", "on", "active", 2, 0);
	ASSERT_EQ(2, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_CONTROL_ON, g.r[0].code);
	EXPECT_STREQ("control=on: user space forbids runtime PM (write auto to allow)",
		     g.r[0].text);
	EXPECT_EQ(DEVPM_R_PROBE_USAGE, g.r[1].code);
	EXPECT_STREQ("usage 1 held since probe: driver e1000e does not support runtime PM on this device (pci local_pci_probe keeps the reference)",
		     g.r[1].text);
	/* control=auto drops forbid's reference: only the probe's is left. */
	put_attr(root, PCIDEV, "control", "auto");
	put_attr(root, PCIDEV, "runtime_usage", "1");
	ASSERT_EQ(1, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_PROBE_USAGE, g.r[0].code);
	EXPECT_FALSE(has_code(&g, DEVPM_R_CONTROL_ON));
	/* Two more gets: named apart from the probe's. */
	put_attr(root, PCIDEV, "runtime_usage", "3");
	ASSERT_EQ(2, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_STREQ("usage 2 more held by pm_runtime_get() callers (runtime_usage=3: 1 probe)",
		     g.r[1].text);
	tree_rm(root);
}

TEST(unbound_pci_is_not_a_reason)
{
	char *root = tree_new(), line[1024];
	struct devpm_diag g;

	/* Unbound PCI: control=on holds the only reference. */
	tree_device(root, PCIDEV, "pci", NULL, "on", "active", 1, 0);
	ASSERT_EQ(1, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_CONTROL_ON, g.r[0].code);
	EXPECT_FALSE(has_code(&g, DEVPM_R_NO_DRIVER));
	EXPECT_FALSE(has_code(&g, DEVPM_R_PROBE_USAGE));
	/* Negative control: a usage held on an unbound device is blamed. */
	put_attr(root, PCIDEV, "runtime_usage", "2");
	ASSERT_EQ(2, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_USAGE_HELD, g.r[1].code);
	EXPECT_STREQ("usage 1 held by pm_runtime_get() callers, driver or kernel (runtime_usage=2: 1 control=on)",
		     g.r[1].text);
	tree_rm(root);
}

TEST(driver_that_releases_the_probe_reference)
{
	char *root = tree_new(), line[1024];
	struct devpm_diag g;

	/*
	 * ahci drops local_pci_probe's reference; each ata port not
	 * suspended holds one (the recorded qemu-q35: runtime_usage=7).
	 */
	tree_device(root, PCIDEV, "pci", "ahci", "on", "active", 7, 0);
	ASSERT_EQ(2, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_CONTROL_ON, g.r[0].code);
	EXPECT_EQ(DEVPM_R_USAGE_HELD, g.r[1].code);
	EXPECT_STREQ("usage 6 held by driver ahci or kernel (runtime_usage=7: 1 control=on): ahci released local_pci_probe's reference, ahci_port_resume() holds one per ata port not suspended",
		     g.r[1].text);
	EXPECT_FALSE(has_code(&g, DEVPM_R_PROBE_USAGE));
	/* control=auto, one port left: its reference, not the probe's. */
	put_attr(root, PCIDEV, "control", "auto");
	put_attr(root, PCIDEV, "runtime_usage", "1");
	ASSERT_EQ(1, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_USAGE_HELD, g.r[0].code);
	EXPECT_STREQ("usage 1 held by driver ahci or kernel: ahci released local_pci_probe's reference, ahci_port_resume() holds one per ata port not suspended",
		     line);
	/* Negative control: a driver not known to release it keeps it. */
	tree_link(root, PCIDEV "/driver", "../../../bus/pci/drivers/e1000e");
	ASSERT_EQ(1, diag_of(root, PCIDEV, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_PROBE_USAGE, g.r[0].code);
	EXPECT_FALSE(has_code(&g, DEVPM_R_USAGE_HELD));
	tree_rm(root);
}

TEST(flipping_control_in_a_recorded_copy)
{
	const char *dev = "/sys/devices/pci0000:00/0000:00:03.0";
	char *root = tree_new(), cmd[PATH_MAX * 3], line[1024];
	struct devpm_diag g;

	snprintf(cmd, sizeof(cmd), "cp -a '%s/sysfs/host-vm/.' '%s'",
		 fixtures_dir(), root);
	ASSERT_EQ(0, system(cmd));
	ASSERT_LT(0, diag_of(root, dev, &g, line, sizeof(line)));
	EXPECT_TRUE(has_code(&g, DEVPM_R_CONTROL_ON)) {
		TH_LOG("%s", line);
	}
	/* No ADVANCED_DEBUG on the recording host: said, with why. */
	EXPECT_TRUE(has_code(&g, DEVPM_R_UNKNOWN));
	EXPECT_NE(NULL, strstr(line, "usage count and active children cannot be read: kernel lacks CONFIG_PM_ADVANCED_DEBUG"));
	put_attr(root, dev, "control", "auto");
	ASSERT_LT(0, diag_of(root, dev, &g, line, sizeof(line)));
	EXPECT_FALSE(has_code(&g, DEVPM_R_CONTROL_ON)) {
		TH_LOG("%s", line);
	}
	EXPECT_EQ(NULL, strstr(line, "control=on"));
	tree_rm(root);
}

TEST(active_children_are_named)
{
	char *root = tree_new(), line[1024];
	struct devpm_diag g;
	const char *p = "/sys/devices/platform/hc";

	tree_device(root, p, "platform", "hc", "auto", "active", 0, 2);
	tree_device(root, "/sys/devices/platform/hc/a", "platform", "x",
		    "auto", "active", 1, 0);
	tree_device(root, "/sys/devices/platform/hc/b", "platform", "x",
		    "auto", "suspended", 0, 0);
	/* A grandchild behind a glue directory is a direct child. */
	tree_device(root, "/sys/devices/platform/hc/glue/c", "platform", "x",
		    "auto", "active", 1, 0);
	ASSERT_EQ(1, diag_of(root, p, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_ACTIVE_CHILDREN, g.r[0].code);
	EXPECT_STREQ("2 active children: a, c", g.r[0].text);
	/* The count rules: 0 active kids is no reason, whatever children say. */
	put_attr(root, p, "runtime_active_kids", "0");
	ASSERT_EQ(1, diag_of(root, p, &g, line, sizeof(line)));
	EXPECT_FALSE(has_code(&g, DEVPM_R_ACTIVE_CHILDREN));
	/* Without the count (no ADVANCED_DEBUG) the children still hint. */
	rm_attr(root, p, "runtime_active_kids");
	rm_attr(root, p, "runtime_usage");
	ASSERT_EQ(2, diag_of(root, p, &g, line, sizeof(line)));
	EXPECT_STREQ("active children keep it active unless it ignores them: a, c",
		     g.r[0].text);
	EXPECT_EQ(DEVPM_R_UNKNOWN, g.r[1].code);
	tree_rm(root);
}

TEST(qos_latency_na)
{
	char *root = tree_new(), line[1024];
	struct devpm_diag g;
	const char *p = "/sys/devices/platform/q";

	tree_device(root, p, "platform", "q", "auto", "active", 0, 0);
	put_attr(root, p, "pm_qos_resume_latency_us", "n/a");
	ASSERT_EQ(1, diag_of(root, p, &g, line, sizeof(line)));
	EXPECT_STREQ("resume latency limit 0 (n/a): suspend is never allowed",
		     line);
	/* "0" is no constraint: the inversion. */
	put_attr(root, p, "pm_qos_resume_latency_us", "0");
	ASSERT_EQ(1, diag_of(root, p, &g, line, sizeof(line)));
	EXPECT_FALSE(has_code(&g, DEVPM_R_QOS_NO_SUSPEND));
	tree_rm(root);
}

TEST(disabled_error_and_no_driver)
{
	char *root = tree_new(), line[1024];
	struct devpm_diag g;
	const char *intf = "/sys/devices/pci0000:00/usb1/1-1/1-1:1.1";
	const char *pl = "/sys/devices/platform/nodrv";

	tree_device(root, intf, "usb", NULL, NULL, "unsupported", 0, 0);
	ASSERT_EQ(2, diag_of(root, intf, &g, line, sizeof(line)));
	EXPECT_STREQ("runtime PM disabled (runtime_status=unsupported, runtime_enabled=disabled)",
		     g.r[0].text);
	EXPECT_EQ(DEVPM_R_NO_DRIVER, g.r[1].code);
	EXPECT_NE(NULL, strstr(g.r[1].text, "unbound interface"));
	/* Negative control: bound, only the disabled reason is left. */
	tree_link(root, "/sys/devices/pci0000:00/usb1/1-1/1-1:1.1/driver",
		  "../../../../../bus/usb/drivers/usbhid");
	ASSERT_EQ(1, diag_of(root, intf, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_DISABLED, g.r[0].code);

	tree_device(root, pl, "platform", NULL, "auto", "unsupported", 0, 0);
	ASSERT_EQ(2, diag_of(root, pl, &g, line, sizeof(line)));
	EXPECT_STREQ("no driver bound: on the platform bus only a driver's probe enables runtime PM",
		     g.r[1].text);
	/* A class device has no driver by nature: not a reason. */
	tree_device(root, "/sys/devices/virtual/net/lo", "net", NULL, "auto",
		    "unsupported", 0, 0);
	tree_link(root, "/sys/devices/virtual/net/lo/subsystem",
		  "../../../../class/net");
	ASSERT_EQ(1, diag_of(root, "/sys/devices/virtual/net/lo", &g, line,
			     sizeof(line)));

	put_attr(root, pl, "runtime_status", "error");
	ASSERT_EQ(1, diag_of(root, pl, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_ERROR, g.r[0].code);
	tree_rm(root);
}

TEST(autosuspend_delay)
{
	char *root = tree_new(), line[1024];
	struct devpm_diag g;
	const char *sd = "/sys/devices/pseudo_0/adapter0/host2/target2:0:0/2:0:0:0";

	/* sd's start: forbid and the -1 delay hold one reference each. */
	tree_device(root, sd, "scsi", "sd", "on", "active", 2, 0);
	put_attr(root, sd, "autosuspend_delay_ms", "-1");
	ASSERT_EQ(2, diag_of(root, sd, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_CONTROL_ON, g.r[0].code);
	EXPECT_EQ(DEVPM_R_AUTOSUSPEND_NEGATIVE, g.r[1].code);
	EXPECT_STREQ("autosuspend_delay_ms=-1: never autosuspends (sd default) (write a delay >= 0 to allow)",
		     g.r[1].text);
	EXPECT_FALSE(has_code(&g, DEVPM_R_USAGE_HELD));
	/* Negative control: a third reference is someone else's. */
	put_attr(root, sd, "runtime_usage", "3");
	ASSERT_EQ(3, diag_of(root, sd, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_USAGE_HELD, g.r[1].code);
	EXPECT_STREQ("usage 1 held by pm_runtime_get() callers, driver or kernel (runtime_usage=3: 1 control=on, 1 delay -1)",
		     g.r[1].text);

	/* Delay >= 0 and nothing holding it: it may just be waiting. */
	put_attr(root, sd, "control", "auto");
	put_attr(root, sd, "runtime_usage", "0");
	put_attr(root, sd, "autosuspend_delay_ms", "2000");
	ASSERT_EQ(1, diag_of(root, sd, &g, line, sizeof(line)));
	EXPECT_STREQ("may still be within its autosuspend delay of 2000 ms",
		     line);
	/* Without a delay nothing in sysfs explains it: said so. */
	put_attr(root, sd, "autosuspend_delay_ms", "0");
	ASSERT_EQ(1, diag_of(root, sd, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_UNKNOWN, g.r[0].code);
	EXPECT_NE(NULL, strstr(line, "nothing in sysfs holds it"));
	tree_rm(root);
}

TEST(no_callbacks_and_no_status)
{
	char *root = tree_new(), line[1024];
	struct devpm_diag g;
	const char *a = "/sys/devices/pci0000:00/0000:00:1f.3/i2c-0";

	/*
	 * ADVANCED_DEBUG: status readable without control.  Allowed
	 * (runtime_enabled=enabled): the missing control file holds nothing.
	 */
	tree_device(root, a, "i2c", NULL, NULL, "active", 1, 0);
	ASSERT_EQ(1, diag_of(root, a, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_USAGE_HELD, g.r[0].code);
	/* Forbidden by the kernel: no control file to allow it with. */
	put_attr(root, a, "runtime_enabled", "forbidden");
	ASSERT_EQ(2, diag_of(root, a, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_USAGE_HELD, g.r[0].code);
	EXPECT_EQ(DEVPM_R_NO_CALLBACKS, g.r[1].code);
	rm_attr(root, a, "runtime_enabled");
	/* Without it, no runtime_status at all. */
	rm_attr(root, a, "runtime_status");
	rm_attr(root, a, "runtime_usage");
	ASSERT_EQ(1, diag_of(root, a, &g, line, sizeof(line)));
	EXPECT_EQ(DEVPM_R_NO_CALLBACKS, g.r[0].code);
	EXPECT_NE(NULL, strstr(line, "without CONFIG_PM_ADVANCED_DEBUG"));
	tree_rm(root);
}

TEST(reason_names_and_line)
{
	struct devpm_diag g = { .n = 2 };
	char small[12], big[600];

	EXPECT_STREQ("control_on", devpm_reason_name(DEVPM_R_CONTROL_ON));
	EXPECT_STREQ("unknown", devpm_reason_name(DEVPM_R_UNKNOWN));
	EXPECT_STREQ("invalid", devpm_reason_name((enum devpm_reason_code)99));
	strcpy(g.r[0].text, "first reason");
	strcpy(g.r[1].text, "second");
	devpm_diag_line(&g, big, sizeof(big));
	EXPECT_STREQ("first reason; second", big);
	/* Truncated, never overrun (ASan watches). */
	devpm_diag_line(&g, small, sizeof(small));
	EXPECT_STREQ("first reaso", small);
	g.n = 0;
	devpm_diag_line(&g, big, sizeof(big));
	EXPECT_STREQ("", big);
}

TEST_HARNESS_MAIN
