// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_write_file.c - rn_write_file() (lib/runner/write_file.c), how `devpm
 * report` writes report.html: a symlink planted at the file or at its
 * .tmp name is refused and not followed, so is a file another user could
 * write; a .tmp of ours left by a killed writer is replaced; as root, a
 * directory others can write is refused.
 */
#include <sys/stat.h>

#include "devpm.h"
#include "kselftest_harness.h"
#include "test_runner.h"
#include "util.h"
#include "write_file.h"

FIXTURE(wf) {
	char tmp[PATH_MAX];
	char dir[PATH_MAX];
	char file[PATH_MAX];
};

FIXTURE_SETUP(wf)
{
	ASSERT_EQ(0, unit_mkdtemp(self->tmp, sizeof(self->tmp)));
	ASSERT_EQ(0, chmod(self->tmp, 0755));
	ASSERT_EQ(0, unit_mkdir(self->tmp, "run"));
	ASSERT_EQ(0, unit_put(self->tmp, "victim", "precious\n"));
	snprintf(self->dir, sizeof(self->dir), "%s/run", self->tmp);
	snprintf(self->file, sizeof(self->file), "%s/run/report.html",
		 self->tmp);
}

FIXTURE_TEARDOWN(wf)
{
	unit_rm_rf(self->tmp);
}

static const char *victim(const char *tmp)
{
	static char buf[64];

	if (unit_get(tmp, "victim", buf, sizeof(buf)))
		return "(gone)";
	return buf;
}

static bool is_link(const char *tmp, const char *rel)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	return !lstat(p, &st) && S_ISLNK(st.st_mode);
}

TEST_F(wf, writes_and_replaces)
{
	char buf[64];

	ASSERT_EQ(0, rn_write_file(self->file, "one\n", 4));
	ASSERT_EQ(0, unit_get(self->tmp, "run/report.html", buf,
			      sizeof(buf)));
	EXPECT_STREQ("one\n", buf);
	ASSERT_EQ(0, rn_write_file(self->file, "two\n", 4));
	ASSERT_EQ(0, unit_get(self->tmp, "run/report.html", buf,
			      sizeof(buf)));
	EXPECT_STREQ("two\n", buf);
	EXPECT_FALSE(unit_exists(self->tmp, "run/report.html.tmp"));
}

/* The attack: a link at the .tmp name to a file root must not touch. */
TEST_F(wf, tmp_symlink_not_followed)
{
	char target[PATH_MAX];

	snprintf(target, sizeof(target), "%s/victim", self->tmp);
	ASSERT_EQ(0, unit_link(self->tmp, "run/report.html.tmp", target));
	EXPECT_EQ(-ELOOP, rn_write_file(self->file, "evil\n", 5));
	EXPECT_NE(NULL, strstr(rn_write_file_why(), "report.html.tmp is a symlink"))
		TH_LOG("%s", rn_write_file_why());
	EXPECT_STREQ("precious\n", victim(self->tmp));
	EXPECT_TRUE(is_link(self->tmp, "run/report.html.tmp"));
	EXPECT_FALSE(unit_exists(self->tmp, "run/report.html"));
}

TEST_F(wf, file_symlink_refused)
{
	char target[PATH_MAX];

	snprintf(target, sizeof(target), "%s/victim", self->tmp);
	ASSERT_EQ(0, unit_link(self->tmp, "run/report.html", target));
	EXPECT_EQ(-ELOOP, rn_write_file(self->file, "evil\n", 5));
	EXPECT_STREQ("precious\n", victim(self->tmp));
	EXPECT_TRUE(is_link(self->tmp, "run/report.html"));
	EXPECT_FALSE(unit_exists(self->tmp, "run/report.html.tmp"));
}

TEST_F(wf, others_writable_refused)
{
	char p[PATH_MAX], buf[64];

	ASSERT_EQ(0, unit_put(self->tmp, "run/report.html", "old\n"));
	snprintf(p, sizeof(p), "%s/run/report.html", self->tmp);
	ASSERT_EQ(0, chmod(p, 0666));
	EXPECT_EQ(-EPERM, rn_write_file(self->file, "new\n", 4));
	ASSERT_EQ(0, unit_get(self->tmp, "run/report.html", buf,
			      sizeof(buf)));
	EXPECT_STREQ("old\n", buf);
	/* The same at the .tmp name: not ours to remove. */
	ASSERT_EQ(0, chmod(p, 0644));
	ASSERT_EQ(0, unit_put(self->tmp, "run/report.html.tmp", "x\n"));
	snprintf(p, sizeof(p), "%s/run/report.html.tmp", self->tmp);
	ASSERT_EQ(0, chmod(p, 0646));
	EXPECT_EQ(-EPERM, rn_write_file(self->file, "new\n", 4));
	ASSERT_EQ(0, unit_get(self->tmp, "run/report.html", buf,
			      sizeof(buf)));
	EXPECT_STREQ("old\n", buf);
}

TEST_F(wf, stale_tmp_of_ours_replaced)
{
	char buf[64];

	ASSERT_EQ(0, unit_put(self->tmp, "run/report.html.tmp", "stale\n"));
	ASSERT_EQ(0, rn_write_file(self->file, "fresh\n", 6));
	ASSERT_EQ(0, unit_get(self->tmp, "run/report.html", buf,
			      sizeof(buf)));
	EXPECT_STREQ("fresh\n", buf);
	EXPECT_FALSE(unit_exists(self->tmp, "run/report.html.tmp"));
}

TEST_F(wf, root_refuses_dir_others_write)
{
	if (geteuid() != 0)
		SKIP(return, "needs root: the directory check is root's");
	ASSERT_EQ(0, chmod(self->dir, 0777));
	EXPECT_EQ(-EPERM, rn_write_file(self->file, "x\n", 2));
	EXPECT_NE(NULL, strstr(rn_write_file_why(), "writable by others"));
	EXPECT_FALSE(unit_exists(self->tmp, "run/report.html.tmp"));
	/* Sticky (as /tmp): others cannot replace our names there. */
	ASSERT_EQ(0, chmod(self->dir, 01777));
	EXPECT_EQ(0, rn_write_file(self->file, "x\n", 2));
}

/* End to end: `devpm report` with the link planted exits 2, says why. */
TEST_F(wf, devpm_report_refuses_planted_link)
{
	static const char *const args[] = { "report", "run", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char target[PATH_MAX];
	char *text = rn_read_file("tests/report/stream.log", NULL);

	if (!text) {
		snprintf(target, sizeof(target),
			 "%s/../tests/report/stream.log", tr_build());
		text = rn_read_file(target, NULL);
	}
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, unit_put(self->tmp, "run/stream.log", text));
	free(text);
	snprintf(target, sizeof(target), "%s/victim", self->tmp);
	ASSERT_EQ(0, unit_link(self->tmp, "run/report.html.tmp", target));
	tr_devpm(o, self->tmp, NULL, args);
	EXPECT_EQ(2, o->code);
	EXPECT_NE(NULL, strstr(o->err, "report.html.tmp is a symlink; remove it"))
		TH_LOG("%s", o->err);
	EXPECT_STREQ("precious\n", victim(self->tmp));
	free(o);
}

TEST_HARNESS_MAIN
