// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sysfs.c - typed reads and writes, errors that name the path, and the
 * sysfs root redirection (lib/core/sysfs.c), on a fake tree.
 */
#include <limits.h>
#include <pthread.h>

#include "devpm.h"
#include "kselftest_harness.h"
#include "unit.h"

#define DEV "/sys/devices/pci0000:00/0000:00:1f.2"
#define REL "sys/devices/pci0000:00/0000:00:1f.2"

FIXTURE(tree) {
	char root[UNIT_PATH_MAX];	/* as made */
	char real[PATH_MAX];		/* realpath: what the lib reports */
};

FIXTURE_SETUP(tree)
{
	ASSERT_EQ(0, unit_mkdtemp(self->root, sizeof(self->root)));
	ASSERT_NE(NULL, realpath(self->root, self->real));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/control", "auto\n"));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/runtime_status",
			      "suspended"));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/autosuspend_delay_ms",
			      "2000\n"));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/negative", "-1\n"));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/pm_qos_resume_latency_us",
			      "n/a\n"));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/garbage", "12abc\n"));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/empty", ""));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/huge",
			      "99999999999999999999999\n"));
	ASSERT_EQ(0, unit_put(self->root, REL "/power/two_newlines", "x\n\n"));
	ASSERT_EQ(0, unit_put(self->root, "proc/sys/kernel/tainted", "0\n"));
	ASSERT_EQ(0, unit_put(self->root, "dev/kmsg", ""));
	ASSERT_EQ(0, unit_put(self->root, "plainfile", "x"));
	unsetenv("DEVPM_SYSFS_ROOT");
}

FIXTURE_TEARDOWN(tree)
{
	devpm_set_sysfs_root(NULL);
	unit_rm_rf(self->root);
}

TEST_F(tree, read_str_strips_one_newline)
{
	char buf[64];

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	ASSERT_EQ(0, devpm_read_str(DEV "/power/control", buf, sizeof(buf)));
	ASSERT_STREQ("auto", buf);
	ASSERT_EQ(0, devpm_read_str(DEV "/power/runtime_status", buf,
				    sizeof(buf)));
	ASSERT_STREQ("suspended", buf);
	/* Only one newline goes. */
	ASSERT_EQ(0, devpm_read_str(DEV "/power/two_newlines", buf,
				    sizeof(buf)));
	ASSERT_STREQ("x\n", buf);
	ASSERT_EQ(0, devpm_read_str(DEV "/power/empty", buf, sizeof(buf)));
	ASSERT_STREQ("", buf);
}

TEST_F(tree, read_str_overflow_is_an_error)
{
	char small[5], exact[5];

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	/* "suspended" does not fit in 5 bytes: an error, not "susp". */
	ASSERT_EQ(-EOVERFLOW, devpm_read_str(DEV "/power/runtime_status",
					     small, sizeof(small)));
	ASSERT_HAS(devpm_error(), "runtime_status");
	/* "auto\n" fits once its newline is stripped. */
	ASSERT_EQ(0, devpm_read_str(DEV "/power/control", exact,
				    sizeof(exact)));
	ASSERT_STREQ("auto", exact);
}

TEST_F(tree, read_long_parses_and_names_bad_content)
{
	char path[UNIT_PATH_MAX];
	long v = 42;

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	ASSERT_EQ(0, devpm_read_long(DEV "/power/autosuspend_delay_ms", &v));
	ASSERT_EQ(2000, v);
	ASSERT_EQ(0, devpm_read_long(DEV "/power/negative", &v));
	ASSERT_EQ(-1, v);

	v = 42;
	ASSERT_EQ(-EINVAL, devpm_read_long(DEV "/power/garbage", &v));
	ASSERT_EQ(42, v);
	snprintf(path, sizeof(path), "%s%s", self->real, DEV "/power/garbage");
	ASSERT_HAS(devpm_error(), path);
	ASSERT_HAS(devpm_error(), "'12abc'");
	ASSERT_EQ(-EINVAL, devpm_read_long(DEV "/power/empty", &v));
	ASSERT_EQ(-EINVAL, devpm_read_long(DEV "/power/control", &v));
	ASSERT_HAS(devpm_error(), "'auto' is not a number");
	ASSERT_EQ(-ERANGE, devpm_read_long(DEV "/power/huge", &v));
	ASSERT_HAS(devpm_error(), "huge");
	ASSERT_EQ(42, v);
}

TEST_F(tree, read_long_or_na)
{
	long v = 42;
	int fd;

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	ASSERT_EQ(1, devpm_read_long_or_na(DEV "/power/pm_qos_resume_latency_us",
					   &v));
	ASSERT_EQ(42, v);
	ASSERT_EQ(0, devpm_read_long_or_na(DEV "/power/autosuspend_delay_ms",
					   &v));
	ASSERT_EQ(2000, v);
	/* "n/a" is not a number for the plain reader. */
	ASSERT_EQ(-EINVAL, devpm_read_long(DEV "/power/pm_qos_resume_latency_us",
					   &v));
	ASSERT_EQ(-EINVAL, devpm_read_long_or_na(DEV "/power/garbage", &v));
	/* The same through the directory's descriptor. */
	fd = devpm_open_dir(DEV "/power");
	ASSERT_LE(0, fd);
	v = 42;
	EXPECT_EQ(1, devpm_read_long_or_na_at(fd, "pm_qos_resume_latency_us",
					      DEV "/power/pm_qos_resume_latency_us",
					      &v));
	EXPECT_EQ(42, v);
	EXPECT_EQ(0, devpm_read_long_or_na_at(fd, "autosuspend_delay_ms",
					      DEV "/power/autosuspend_delay_ms",
					      &v));
	EXPECT_EQ(2000, v);
	EXPECT_EQ(-EINVAL, devpm_read_long_or_na_at(fd, "garbage",
						    DEV "/power/garbage", &v));
	close(fd);
}

TEST_F(tree, missing_file_error_names_path)
{
	char buf[64], want[UNIT_PATH_MAX];
	long v;

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	ASSERT_EQ(-ENOENT, devpm_read_str(DEV "/power/nope", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%s%s: %s", self->real,
		 DEV "/power/nope", strerror(ENOENT));
	ASSERT_STREQ(want, devpm_error());
	ASSERT_EQ(-ENOENT, devpm_read_long(DEV "/power/nope", &v));
	ASSERT_FALSE(devpm_exists(DEV "/power/nope"));
	ASSERT_TRUE(devpm_exists(DEV "/power/control"));
}

/* The reads through a directory fd read as the reads by path do. */
TEST_F(tree, reads_at_a_directory_fd_match_reads_by_path)
{
	char buf[64], small[5], want[UNIT_PATH_MAX], link[UNIT_PATH_MAX];
	long v = 42;
	int dfd;

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	dfd = devpm_open_dir(DEV "/power");
	ASSERT_LE(0, dfd) TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_read_str_at(dfd, "control", DEV "/power/control",
				       buf, sizeof(buf)));
	ASSERT_STREQ("auto", buf);
	ASSERT_EQ(0, devpm_read_long_at(dfd, "autosuspend_delay_ms",
					DEV "/power/autosuspend_delay_ms", &v));
	ASSERT_EQ(2000, v);
	/* Negative controls: the same errors, naming the same path. */
	ASSERT_EQ(-EOVERFLOW, devpm_read_str_at(dfd, "runtime_status",
						DEV "/power/runtime_status",
						small, sizeof(small)));
	ASSERT_EQ(-EINVAL, devpm_read_long_at(dfd, "garbage",
					      DEV "/power/garbage", &v));
	ASSERT_HAS(devpm_error(), "'12abc'");
	ASSERT_EQ(-ENOENT, devpm_read_str_at(dfd, "nope", DEV "/power/nope",
					     buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%s%s: %s", self->real,
		 DEV "/power/nope", strerror(ENOENT));
	ASSERT_STREQ(want, devpm_error());
	/* A symlink is not followed: ELOOP, where a read by path follows. */
	snprintf(link, sizeof(link), "%s/%s/power/link", self->root, REL);
	ASSERT_EQ(0, symlink("control", link));
	ASSERT_EQ(-ELOOP, devpm_read_str_at(dfd, "link", DEV "/power/link",
					    buf, sizeof(buf)));
	close(dfd);
	ASSERT_GT(0, devpm_open_dir(DEV "/nope"));
}

TEST_F(tree, opendir_under_root_and_errors_name_path)
{
	char want[UNIT_PATH_MAX];
	bool found = false;
	struct dirent *de;
	DIR *dir;

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	dir = devpm_opendir(DEV "/power");
	ASSERT_NE(NULL, dir);
	while ((de = readdir(dir)))
		found |= !strcmp(de->d_name, "control");
	closedir(dir);
	EXPECT_TRUE(found);
	/* Negative: a missing directory, and a file that is none. */
	errno = 0;
	ASSERT_EQ(NULL, devpm_opendir(DEV "/nope"));
	ASSERT_EQ(ENOENT, errno);
	snprintf(want, sizeof(want), "%s%s: %s", self->real, DEV "/nope",
		 strerror(ENOENT));
	ASSERT_STREQ(want, devpm_error());
	errno = 0;
	ASSERT_EQ(NULL, devpm_opendir(DEV "/power/control"));
	ASSERT_EQ(ENOTDIR, errno);
}

TEST_F(tree, write_str_replaces_whole_value)
{
	char buf[64];

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	ASSERT_EQ(0, devpm_write_str(DEV "/power/control", "on"));
	ASSERT_EQ(0, unit_get(self->root, REL "/power/control", buf,
			      sizeof(buf)));
	/* Not "onto\n": the file holds exactly what was written. */
	ASSERT_STREQ("on", buf);
	ASSERT_EQ(0, devpm_write_str(DEV "/power/autosuspend_delay_ms",
				     "100\n"));
	ASSERT_EQ(0, devpm_read_str(DEV "/power/autosuspend_delay_ms", buf,
				    sizeof(buf)));
	ASSERT_STREQ("100", buf);
}

TEST_F(tree, write_str_errors_name_path_and_create_nothing)
{
	char want[UNIT_PATH_MAX];

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	ASSERT_EQ(-ENOENT, devpm_write_str(DEV "/power/nope", "on"));
	snprintf(want, sizeof(want), "%s%s", self->real, DEV "/power/nope");
	ASSERT_HAS(devpm_error(), want);
	ASSERT_FALSE(unit_exists(self->root, REL "/power/nope"));
	/* A directory cannot take a value. */
	ASSERT_EQ(-EISDIR, devpm_write_str(DEV "/power", "on"));
	ASSERT_HAS(devpm_error(), strerror(EISDIR));
}

TEST_F(tree, root_redirects_sys_proc_dev_only)
{
	char buf[UNIT_PATH_MAX], want[UNIT_PATH_MAX];

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	ASSERT_STREQ(self->real, devpm_sysfs_root());
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), DEV "/power/control"));
	snprintf(want, sizeof(want), "%s%s", self->real, DEV "/power/control");
	ASSERT_STREQ(want, buf);
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), "/proc/config.gz"));
	snprintf(want, sizeof(want), "%s/proc/config.gz", self->real);
	ASSERT_STREQ(want, buf);
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), "/dev/kmsg"));
	snprintf(want, sizeof(want), "%s/dev/kmsg", self->real);
	ASSERT_STREQ(want, buf);
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), "/sys"));
	snprintf(want, sizeof(want), "%s/sys", self->real);
	ASSERT_STREQ(want, buf);
	/* Not redirected: other trees, look-alike prefixes, the root itself. */
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), "/run/devpm/journal"));
	ASSERT_STREQ("/run/devpm/journal", buf);
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), "/system/x"));
	ASSERT_STREQ("/system/x", buf);
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), "/devices"));
	ASSERT_STREQ("/devices", buf);
	snprintf(want, sizeof(want), "%s/sys/x", self->real);
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), want));
	ASSERT_STREQ(want, buf);

	/* Back to the real system. */
	ASSERT_EQ(0, devpm_set_sysfs_root(""));
	ASSERT_STREQ("", devpm_sysfs_root());
	ASSERT_EQ(0, devpm_real_path(buf, sizeof(buf), DEV "/power/control"));
	ASSERT_STREQ(DEV "/power/control", buf);
}

TEST_F(tree, bad_root_is_refused_and_kept)
{
	char file[UNIT_PATH_MAX], want[UNIT_PATH_MAX], gone[UNIT_PATH_MAX];

	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	snprintf(file, sizeof(file), "%s/plainfile", self->root);
	ASSERT_EQ(-ENOTDIR, devpm_set_sysfs_root(file));
	snprintf(want, sizeof(want), "sysfs root %s is not a directory", file);
	ASSERT_STREQ(want, devpm_error());
	snprintf(gone, sizeof(gone), "%s/nope", self->root);
	ASSERT_EQ(-ENOENT, devpm_set_sysfs_root(gone));
	ASSERT_HAS(devpm_error(), gone);
	/* A refused root leaves the previous one in place. */
	ASSERT_STREQ(self->real, devpm_sysfs_root());
}

TEST_F(tree, root_from_env)
{
	char file[UNIT_PATH_MAX];

	ASSERT_EQ(0, devpm_sysfs_root_from_env());
	ASSERT_STREQ("", devpm_sysfs_root());
	setenv("DEVPM_SYSFS_ROOT", self->root, 1);
	ASSERT_EQ(0, devpm_sysfs_root_from_env());
	ASSERT_STREQ(self->real, devpm_sysfs_root());
	snprintf(file, sizeof(file), "%s/plainfile", self->root);
	setenv("DEVPM_SYSFS_ROOT", file, 1);
	ASSERT_EQ(-ENOTDIR, devpm_sysfs_root_from_env());
	ASSERT_HAS(devpm_error(), "is not a directory");
	unsetenv("DEVPM_SYSFS_ROOT");
}

TEST_F(tree, resolve_follows_links_inside_root)
{
	char buf[UNIT_PATH_MAX];

	ASSERT_EQ(0, unit_link(self->root, "sys/bus/pci/devices/0000:00:1f.2",
			       "../../../devices/pci0000:00/0000:00:1f.2"));
	ASSERT_EQ(0, unit_link(self->root, "sys/bus/pci/devices/escape",
			       "/tmp"));
	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	ASSERT_EQ(0, devpm_resolve("/sys/bus/pci/devices/0000:00:1f.2/power",
				   buf, sizeof(buf)));
	ASSERT_STREQ(DEV "/power", buf);
	ASSERT_EQ(-EXDEV, devpm_resolve("/sys/bus/pci/devices/escape", buf,
					sizeof(buf)));
	ASSERT_HAS(devpm_error(), "outside the sysfs root");
	ASSERT_EQ(-ENOENT, devpm_resolve("/sys/bus/pci/devices/nope", buf,
					 sizeof(buf)));
}

TEST(fmt_reports_truncation)
{
	char buf[8];

	ASSERT_EQ(0, devpm_fmt(buf, sizeof(buf), "%s", "1234567"));
	ASSERT_STREQ("1234567", buf);
	ASSERT_EQ(-ENAMETOOLONG, devpm_fmt(buf, sizeof(buf), "%s", "12345678"));
	ASSERT_STREQ("", buf);
}

TEST(fail_sets_message_and_returns_negative)
{
	ASSERT_EQ(-EINVAL, devpm_fail(EINVAL, "x %d", 1));
	ASSERT_STREQ("x 1", devpm_error());
	ASSERT_EQ(-EIO, devpm_fail(-EIO, "y"));
	ASSERT_STREQ("y", devpm_error());
}

static void *other_thread(void *arg)
{
	(void)arg;
	devpm_fail(EIO, "from the other thread");
	return NULL;
}

TEST(error_is_per_thread)
{
	pthread_t t;

	devpm_fail(EINVAL, "from this thread");
	ASSERT_EQ(0, pthread_create(&t, NULL, other_thread, NULL));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_STREQ("from this thread", devpm_error());
}

TEST_HARNESS_MAIN
