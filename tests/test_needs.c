// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_needs.c - a test program's needs turn into the right SKIP reason
 * (lib/harness/needs.c), against a fake tree with its own /proc/config.gz.
 */
#include <dirent.h>
#include <zlib.h>

#include "devpm.h"
#include "core/kconfig.h"
#include "core/module.h"
#include "harness/needs.h"
#include "kselftest_harness.h"
#include "unit.h"

#define CONFIG \
	"#\n# Linux/x86 6.1.0 Kernel Configuration\n#\n" \
	"CONFIG_PM=y\n" \
	"CONFIG_PM_ADVANCED_DEBUG=y\n" \
	"# CONFIG_PM_AUTOSLEEP is not set\n" \
	"CONFIG_SCSI_DEBUG=m\n" \
	"CONFIG_LOCALVERSION=\"-devpm\"\n" \
	"CONFIG_USB_AUTOSUSPEND_DELAY=2\n"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

FIXTURE(nd) {
	char root[UNIT_PATH_MAX];
	char why[512];
};

static int put_gz(const char *root, const char *rel, const char *text)
{
	char p[UNIT_PATH_MAX];
	gzFile f;

	if (unit_mkparent(root, rel))
		return -1;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = gzopen(p, "wb");
	if (!f)
		return -1;
	if (gzputs(f, text) != (int)strlen(text)) {
		gzclose(f);
		return -1;
	}
	return gzclose(f) == Z_OK ? 0 : -1;
}

FIXTURE_SETUP(nd)
{
	ASSERT_EQ(0, unit_mkdtemp(self->root, sizeof(self->root)));
	ASSERT_EQ(0, put_gz(self->root, "proc/config.gz", CONFIG));
	ASSERT_EQ(0, unit_mkdir(self->root, "sys/bus/pci/drivers/ahci"));
	ASSERT_EQ(0, unit_mkdir(self->root, "sys/module/scsi_debug"));
	ASSERT_EQ(0, unit_put(self->root, "sys/power/state", "freeze mem\n"));
	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	unsetenv("DEVPM_ALLOW_SLEEP");
	unsetenv("DEVPM_ALLOW_DISK");
}

FIXTURE_TEARDOWN(nd)
{
	unit_rm_rf(self->root);
}

TEST_F(nd, kconfig_values)
{
	char v[64];

	ASSERT_EQ(0, devpm_kconfig("CONFIG_PM", v, sizeof(v)));
	ASSERT_STREQ("y", v);
	ASSERT_EQ(0, devpm_kconfig("PM", v, sizeof(v)));
	ASSERT_STREQ("y", v);
	ASSERT_EQ(0, devpm_kconfig("CONFIG_SCSI_DEBUG", v, sizeof(v)));
	ASSERT_STREQ("m", v);
	ASSERT_EQ(0, devpm_kconfig("CONFIG_LOCALVERSION", v, sizeof(v)));
	ASSERT_STREQ("-devpm", v);
	ASSERT_EQ(0, devpm_kconfig("CONFIG_USB_AUTOSUSPEND_DELAY", v,
				   sizeof(v)));
	ASSERT_STREQ("2", v);
	/* "is not set", absent, and a prefix of a set option. */
	strcpy(v, "stale");
	ASSERT_EQ(0, devpm_kconfig("CONFIG_PM_AUTOSLEEP", v, sizeof(v)));
	ASSERT_STREQ("", v);
	ASSERT_EQ(0, devpm_kconfig("CONFIG_NOPE", v, sizeof(v)));
	ASSERT_STREQ("", v);
	ASSERT_EQ(0, devpm_kconfig("CONFIG_PM_ADV", v, sizeof(v)));
	ASSERT_STREQ("", v);
}

TEST_F(nd, kconfig_without_config_is_enoent)
{
	char p[UNIT_PATH_MAX], v[64];

	snprintf(p, sizeof(p), "%s/proc/config.gz", self->root);
	ASSERT_EQ(0, unlink(p));
	ASSERT_EQ(-ENOENT, devpm_kconfig("CONFIG_PM", v, sizeof(v)));
	ASSERT_HAS(devpm_error(), "no kernel config");
	/* Not enforced then: the need passes, stderr says why. */
	ASSERT_EQ(0, devpm_needs_check(&(struct devpm_needs){
		.kconfigs = L("CONFIG_NOPE") }, self->why, sizeof(self->why)));
}

TEST_F(nd, kconfig_needs)
{
	struct devpm_needs n = { 0 };

	n.kconfigs = L("CONFIG_PM", "CONFIG_SCSI_DEBUG", "CONFIG_SCSI_DEBUG=m",
		       "CONFIG_PM_ADVANCED_DEBUG=y");
	ASSERT_EQ(0, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_STREQ("", self->why);

	n.kconfigs = L("CONFIG_PM", "CONFIG_PM_AUTOSLEEP");
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_STREQ("no CONFIG_PM_AUTOSLEEP", self->why);

	n.kconfigs = L("CONFIG_SCSI_DEBUG=y");
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_STREQ("CONFIG_SCSI_DEBUG=m, needs y", self->why);

	/* Without "=value" the option must be y or m. */
	n.kconfigs = L("CONFIG_LOCALVERSION");
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_STREQ("CONFIG_LOCALVERSION=-devpm, needs y or m", self->why);
	n.kconfigs = L("CONFIG_USB_AUTOSUSPEND_DELAY=2");
	ASSERT_EQ(0, devpm_needs_check(&n, self->why, sizeof(self->why)));
}

TEST_F(nd, privilege_and_opt_ins_come_first)
{
	struct devpm_needs n = { 0 };

	n.root = true;
	n.sleep = true;
	n.kconfigs = L("CONFIG_NOPE");
	if (!devpm_is_root()) {
		ASSERT_EQ(1, devpm_needs_check(&n, self->why,
					       sizeof(self->why)));
		ASSERT_STREQ("needs root: run as root (sudo)", self->why);
		n.root = false;
	}
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_STREQ("needs --allow-sleep: this test enters system sleep",
		     self->why);
	setenv("DEVPM_ALLOW_SLEEP", "1", 1);
	n.disk = true;
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_HAS(self->why, "needs --allow-disk");
	setenv("DEVPM_ALLOW_DISK", "1", 1);
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_STREQ("no CONFIG_NOPE", self->why);
}

TEST_F(nd, drivers)
{
	struct devpm_needs n = { 0 };

	n.drivers = L("pci:ahci");
	ASSERT_EQ(0, devpm_needs_check(&n, self->why, sizeof(self->why)));
	n.drivers = L("pci:ahci", "usb:nope");
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_HAS(self->why, "driver nope not available");
	n.drivers = L("ahci");
	ASSERT_EQ(-EINVAL, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_HAS(devpm_error(), "bus:driver");
}

TEST_F(nd, modules_in_a_tree)
{
	struct devpm_needs n = { 0 };

	n.modules = L("scsi_debug dev_size_mb=16", "scsi-debug");
	ASSERT_EQ(0, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_TRUE(devpm_module_loaded("scsi-debug"));
	ASSERT_FALSE(devpm_module_loaded("dummy_hcd"));
	n.modules = L("dummy_hcd");
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_HAS(self->why, "module dummy_hcd not available: ");
	ASSERT_HAS(self->why, "not loaded in the recorded tree");
}

TEST_F(nd, files_and_tracefs)
{
	struct devpm_needs n = { 0 };

	n.files = L("/sys/power/state");
	ASSERT_EQ(0, devpm_needs_check(&n, self->why, sizeof(self->why)));
	n.files = L("/sys/power/state", "/sys/power/nope");
	ASSERT_EQ(1, devpm_needs_check(&n, self->why, sizeof(self->why)));
	ASSERT_STREQ("no /sys/power/nope", self->why);

	n.files = NULL;
	n.tracefs = true;
	if (devpm_tracefs()[0]) {
		ASSERT_EQ(0, devpm_needs_check(&n, self->why,
					       sizeof(self->why)));
	} else {
		ASSERT_EQ(1, devpm_needs_check(&n, self->why,
					       sizeof(self->why)));
		ASSERT_HAS(self->why, "no tracefs");
	}
}

TEST(needs_print_one_line_each)
{
	struct devpm_needs n = {
		.root = true, .sleep = true, .tracefs = true,
		.kconfigs = L("CONFIG_PM", "CONFIG_SCSI_DEBUG=m"),
		.modules = L("scsi_debug dev_size_mb=16"),
		.drivers = L("pci:ahci"),
		.files = L("/sys/power/state"),
	};
	char tmp[UNIT_PATH_MAX], file[UNIT_PATH_MAX], out[2048];
	int saved;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	snprintf(file, sizeof(file), "%s/out", tmp);
	saved = unit_capture_begin(1, file);
	devpm_needs_print(&n);
	unit_capture_end(1, saved, file, out, sizeof(out));
	unit_rm_rf(tmp);
	ASSERT_STREQ("# NEEDS root: yes\n"
		     "# NEEDS allow-sleep: yes\n"
		     "# NEEDS kconfig: CONFIG_PM\n"
		     "# NEEDS kconfig: CONFIG_SCSI_DEBUG=m\n"
		     "# NEEDS driver: pci:ahci\n"
		     "# NEEDS module: scsi_debug dev_size_mb=16\n"
		     "# NEEDS file: /sys/power/state\n"
		     "# NEEDS tracefs: yes\n", out);
}

/* The real system: modprobe runs and its complaint is the reason. */
TEST(module_load_failure_names_modprobe_error)
{
	char tmp[UNIT_PATH_MAX], journal[UNIT_PATH_MAX], buf[64];
	struct dirent *de;
	DIR *d;
	int r;

	devpm_set_sysfs_root(NULL);
	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	setenv("DEVPM_JOURNAL_DIR", tmp, 1);
	unsetenv("DEVPM_JOURNAL");
	r = devpm_module_load("devpm_no_such_module", "x=1");
	ASSERT_EQ(-ENOENT, r);
	TH_LOG("%s", devpm_error());
	ASSERT_HAS(devpm_error(), "devpm_no_such_module");
	ASSERT_EQ(-EINVAL, devpm_module_load("bad name; rm", NULL));
	/* Nothing loaded: nothing journaled (the journal was not opened). */
	snprintf(journal, sizeof(journal), "%s/journal", tmp);
	ASSERT_NE(0, unit_get("", journal, buf, sizeof(buf)));
	unit_rm_rf(tmp);

	/* Loaded (or built in with parameters): no modprobe at all. */
	d = opendir("/sys/module");
	if (!d)
		SKIP(return, "no /sys/module");
	while ((de = readdir(d)) && de->d_name[0] == '.')
		;
	ASSERT_NE(NULL, de);
	ASSERT_TRUE(devpm_module_loaded(de->d_name));
	ASSERT_EQ(0, devpm_module_load(de->d_name, NULL));
	closedir(d);
}

TEST_HARNESS_MAIN
