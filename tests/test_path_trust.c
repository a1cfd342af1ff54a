// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_path_trust.c - the rule for paths devpm did not make
 * (lib/core/path_trust.c, issue #35): as root, a component another user
 * owns or can write, or a symlink of theirs, anywhere on the way is
 * refused; root's own links are followed; files are never opened through
 * a link, a FIFO never blocks, another user's file is never truncated.
 * Ownership is played with chown to uid 12345, so the refusals need root;
 * each case has its clean twin (the negative control).
 */
#include <limits.h>
#include <sys/sysmacros.h>

#include "core/path_trust.h"
#include "core/sysfs.h"
#include "kselftest_harness.h"
#include "unit.h"

#define OTHER 12345

FIXTURE(pt) {
	char tmp[UNIT_PATH_MAX];	/* root's, 0755 */
	char p[UNIT_PATH_MAX];
	char err[UNIT_PATH_MAX];
};

FIXTURE_SETUP(pt)
{
	if (geteuid())
		SKIP(return, "needs root: the rule refuses only as root");
	ASSERT_EQ(0, unit_mkdtemp(self->tmp, sizeof(self->tmp)));
	ASSERT_EQ(0, chmod(self->tmp, 0755));
	ASSERT_EQ(0, unit_mkdir(self->tmp, "a/b"));
	ASSERT_EQ(0, unit_put(self->tmp, "a/b/file", "data\n"));
	snprintf(self->err, sizeof(self->err), "%s/stderr", self->tmp);
}

FIXTURE_TEARDOWN(pt)
{
	if (self->tmp[0])
		unit_rm_rf(self->tmp);
}

static const char *at(char *buf, const char *tmp, const char *rel)
{
	snprintf(buf, UNIT_PATH_MAX, "%s/%s", tmp, rel);
	return buf;
}

static int dir_of(const char *path, int flags)
{
	int fd = devpm_path_trust_open(path, DEVPM_TRUST_DIR, flags, 0, NULL,
				       0);

	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : fd;
}

TEST_F(pt, clean_paths_pass)
{
	char base[256] = "", sub[UNIT_PATH_MAX];
	struct stat st;
	int fd;

	ASSERT_EQ(0, dir_of(at(self->p, self->tmp, "a/b"), 0));
	/* The parent of a file that is not there yet, and its name. */
	fd = devpm_path_trust_open(at(self->p, self->tmp, "a/b/new"),
				   DEVPM_TRUST_PARENT, 0, 0, base, sizeof(base));
	ASSERT_LE(0, fd);
	ASSERT_STREQ("new", base);
	ASSERT_EQ(0, fstat(fd, &st));
	ASSERT_TRUE(S_ISDIR(st.st_mode));
	close(fd);
	/* Made, with its parents. */
	fd = devpm_path_trust_open(at(self->p, self->tmp, "a/x/y"),
				   DEVPM_TRUST_MKDIR, 0, 0700, NULL, 0);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, stat(at(sub, self->tmp, "a/x/y"), &st));
	ASSERT_EQ(0700, st.st_mode & 07777);
	/* Only what exists is checked. */
	ASSERT_EQ(0, devpm_path_trust_open(at(self->p, self->tmp, "a/no/such"),
					   DEVPM_TRUST_CHECK, 0, 0, NULL, 0));
	/* Relative, from the working directory. */
	ASSERT_EQ(0, chdir(self->tmp));
	ASSERT_EQ(0, dir_of("a/./b/../b", 0));
	/* /tmp itself: sticky, others' entries cannot replace ours. */
	ASSERT_EQ(0, dir_of(at(self->p, self->tmp, "a"), 0));
}

TEST_F(pt, another_users_component_is_refused)
{
	ASSERT_EQ(0, chown(at(self->p, self->tmp, "a"), OTHER, OTHER));
	ASSERT_EQ(-EPERM, dir_of(at(self->p, self->tmp, "a/b"), 0));
	ASSERT_HAS(devpm_error(), "/a belongs to uid 12345");
	/* The last one too, and a file's directory. */
	ASSERT_EQ(-EPERM, dir_of(at(self->p, self->tmp, "a"), 0));
	ASSERT_GT(0, devpm_path_trust_open_file(at(self->p, self->tmp,
						   "a/b/file"), O_RDONLY, 0,
						0));
	/* Also when it is the working directory, and the path relative. */
	ASSERT_EQ(0, chdir(at(self->p, self->tmp, "a/b")));
	ASSERT_EQ(-EPERM, dir_of(".", 0));
	ASSERT_EQ(0, chdir("/"));
	/* Negative control: root's again, it passes. */
	ASSERT_EQ(0, chown(at(self->p, self->tmp, "a"), 0, 0));
	ASSERT_EQ(0, dir_of(at(self->p, self->tmp, "a/b"), 0));
}

TEST_F(pt, writable_by_others_is_refused_unless_sticky_on_the_way)
{
	const char *a = at(self->p, self->tmp, "a");
	char b[UNIT_PATH_MAX];

	at(b, self->tmp, "a/b");
	ASSERT_EQ(0, chmod(a, 0777));
	ASSERT_EQ(-EPERM, dir_of(b, 0));
	ASSERT_HAS(devpm_error(), "writable by others (mode 0777)");
	/* Sticky on the way: others cannot replace root's b. */
	ASSERT_EQ(0, chmod(a, 01777));
	ASSERT_EQ(0, dir_of(b, 0));
	/* Sticky as the last one: only where the caller allows it. */
	ASSERT_EQ(-EPERM, dir_of(a, 0));
	ASSERT_EQ(0, dir_of(a, DEVPM_TRUST_STICKY));
	/* A group that is not root's. */
	ASSERT_EQ(0, chmod(a, 0775));
	ASSERT_EQ(0, chown(a, 0, OTHER));
	ASSERT_EQ(-EPERM, dir_of(b, 0));
	ASSERT_HAS(devpm_error(), "writable by its group (mode 0775)");
	/* Negative control: root's group may write. */
	ASSERT_EQ(0, chown(a, 0, 0));
	ASSERT_EQ(0, dir_of(b, 0));
}

TEST_F(pt, another_users_symlink_is_refused_roots_is_followed)
{
	char link[UNIT_PATH_MAX], via[UNIT_PATH_MAX], base[256];
	int fd;

	/* Relative and absolute links of root's: followed, walked. */
	ASSERT_EQ(0, symlink("a/b", at(link, self->tmp, "rel")));
	ASSERT_EQ(0, dir_of(link, 0));
	ASSERT_EQ(0, symlink(at(self->p, self->tmp, "a"),
			     at(link, self->tmp, "abs")));
	ASSERT_EQ(0, dir_of(at(via, self->tmp, "abs/b"), 0));
	/* A link at a file's name: not followed, even root's. */
	ASSERT_EQ(0, symlink("b/file", at(link, self->tmp, "a/f")));
	fd = devpm_path_trust_open(link, DEVPM_TRUST_PARENT, 0, 0, base,
				   sizeof(base));
	ASSERT_LE(0, fd);
	ASSERT_STREQ("f", base);
	close(fd);
	ASSERT_EQ(-ELOOP, devpm_path_trust_open_file(link, O_RDONLY, 0, 0));
	/* Negative control: the file itself. */
	fd = devpm_path_trust_open_file(at(link, self->tmp, "a/b/file"),
					O_RDONLY, 0, 0);
	ASSERT_LE(0, fd);
	close(fd);
	/* Not a link at all, where the caller says so. */
	ASSERT_EQ(-ELOOP, dir_of(at(link, self->tmp, "rel"),
				 DEVPM_TRUST_NOLINK));
	/* The same link, the attacker's: refused. */
	ASSERT_EQ(0, lchown(at(link, self->tmp, "abs"), OTHER, OTHER));
	ASSERT_EQ(-EPERM, dir_of(via, 0));
	ASSERT_HAS(devpm_error(), "/abs is a symlink of uid 12345");
	/* Where it leads: refused there too (a link into another's dir). */
	ASSERT_EQ(0, chown(at(self->p, self->tmp, "a/b"), OTHER, OTHER));
	ASSERT_EQ(-EPERM, dir_of(at(link, self->tmp, "rel"), 0));
	ASSERT_HAS(devpm_error(), "/a/b belongs to uid 12345");
	/* A loop ends. */
	ASSERT_EQ(0, symlink("loop", at(link, self->tmp, "loop")));
	ASSERT_EQ(-ELOOP, dir_of(link, 0));
}

TEST_F(pt, bad_shapes_are_named)
{
	char *huge = malloc(100001);

	ASSERT_NE(NULL, huge);
	memset(huge, 'x', 100000);
	huge[0] = '/';
	huge[100000] = '\0';
	ASSERT_EQ(-ENAMETOOLONG, dir_of(huge, 0));
	ASSERT_HAS(devpm_error(), "longer than 4095 bytes");
	free(huge);
	ASSERT_EQ(-ENOTDIR, dir_of("/etc/passwd/x", 0));
	ASSERT_HAS(devpm_error(), "/etc/passwd is not a directory");
	ASSERT_EQ(-ENOENT, dir_of(at(self->p, self->tmp, "nope"), 0));
	ASSERT_HAS(devpm_error(), "/nope: No such file or directory");
	ASSERT_EQ(-ENOENT, dir_of("", 0));
}

TEST_F(pt, files_never_through_a_link_nor_a_fifo_nor_anothers)
{
	char path[UNIT_PATH_MAX], buf[UNIT_PATH_MAX];
	int dfd, fd;

	dfd = devpm_path_trust_open(at(self->p, self->tmp, "a/b"),
				    DEVPM_TRUST_DIR, 0, 0, NULL, 0);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, symlink("file", at(path, self->tmp, "a/b/link")));
	ASSERT_EQ(-ELOOP, devpm_path_trust_file(dfd, "link", O_RDONLY, 0, 0));
	/* A FIFO: refused at once, no reader or writer needed. */
	ASSERT_EQ(0, mkfifo(at(path, self->tmp, "a/b/fifo"), 0600));
	ASSERT_EQ(-EINVAL, devpm_path_trust_file(dfd, "fifo", O_RDONLY, 0, 0));
	ASSERT_HAS(devpm_error(), "is not a regular file (a FIFO)");
	ASSERT_EQ(-EISDIR, devpm_path_trust_file(dfd, ".", O_RDONLY, 0, 0));
	/* Another user's: refused and, asked to truncate, left whole. */
	ASSERT_EQ(0, chown(at(path, self->tmp, "a/b/file"), OTHER, OTHER));
	ASSERT_EQ(-EPERM, devpm_path_trust_file(dfd, "file",
						O_WRONLY | O_TRUNC, 0, 0));
	ASSERT_EQ(0, unit_get(self->tmp, "a/b/file", buf, sizeof(buf)));
	ASSERT_STREQ("data\n", buf);
	/* Root's with a second name: not written. */
	ASSERT_EQ(0, chown(path, 0, 0));
	ASSERT_EQ(0, link(path, at(buf, self->tmp, "a/b/hard")));
	ASSERT_EQ(-EPERM, devpm_path_trust_file(dfd, "file", O_WRONLY, 0, 0));
	ASSERT_HAS(devpm_error(), "has 2 hard links");
	/* Negative controls: read, it passes; one name, written. */
	fd = devpm_path_trust_file(dfd, "file", O_RDONLY, 0, 0);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, unlink(buf));
	fd = devpm_path_trust_file(dfd, "file", O_WRONLY | O_TRUNC, 0, 0);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, unit_get(self->tmp, "a/b/file", buf, sizeof(buf)));
	ASSERT_STREQ("", buf);
	close(dfd);
	/* A character device only where the caller takes one. */
	ASSERT_EQ(-EINVAL, devpm_path_trust_open_file("/dev/null", O_WRONLY,
						      0, 0));
	fd = devpm_path_trust_open_file("/dev/null", O_WRONLY, 0,
					DEVPM_TRUST_CHARDEV);
	ASSERT_LE(0, fd);
	close(fd);
}

TEST_F(pt, env_path_of_another_user_is_ignored_with_a_line)
{
	char err[1024];
	const char *v;
	int saved;

	setenv("DEVPM_TEST_TRUST_DIR", at(self->p, self->tmp, "a/b"), 1);
	ASSERT_STREQ(self->p, devpm_path_trust_env("DEVPM_TEST_TRUST_DIR"));
	ASSERT_EQ(0, chown(at(self->p, self->tmp, "a"), OTHER, OTHER));
	saved = unit_capture_begin(2, self->err);
	v = devpm_path_trust_env("DEVPM_TEST_TRUST_DIR");
	/* Once per variable. */
	devpm_path_trust_env("DEVPM_TEST_TRUST_DIR");
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_EQ(NULL, v);
	ASSERT_HAS(err, "devpm: ignoring DEVPM_TEST_TRUST_DIR=");
	ASSERT_HAS(err, "belongs to uid 12345");
	ASSERT_EQ(strlen(err), (size_t)(strchr(err, '\n') - err + 1));
	unsetenv("DEVPM_TEST_TRUST_DIR");
	ASSERT_EQ(NULL, devpm_path_trust_env("DEVPM_TEST_TRUST_DIR"));
}

/*
 * Issue #35 item 1: a tree the user owns is refused as a sysfs root; in
 * a tree of root's, a link planted at a knob is neither written through
 * nor read out of the tree.
 */
TEST_F(pt, knob_link_in_a_tree_is_not_followed)
{
	const char *knob = "/sys/devices/d/power/autosuspend_delay_ms";
	char tree[UNIT_PATH_MAX], victim[UNIT_PATH_MAX], buf[UNIT_PATH_MAX];

	at(tree, self->tmp, "tree");
	ASSERT_EQ(0, unit_put(tree, "sys/devices/d/power/control", "on\n"));
	ASSERT_EQ(0, unit_put(self->tmp, "victim", "secret\n"));
	ASSERT_EQ(0, chmod(at(victim, self->tmp, "victim"), 0600));
	ASSERT_EQ(0, unit_link(tree, knob + 1, victim));
	ASSERT_EQ(0, chown(tree, OTHER, OTHER));
	ASSERT_EQ(-EPERM, devpm_set_sysfs_root(tree));
	ASSERT_HAS(devpm_error(), "belongs to uid 12345");
	ASSERT_EQ(0, chown(tree, 0, 0));
	ASSERT_EQ(0, devpm_set_sysfs_root(tree));
	ASSERT_GT(0, devpm_write_str(knob, "5"));
	ASSERT_GT(0, devpm_read_str(knob, buf, sizeof(buf)));
	/* A relative link out of the tree: the same. */
	ASSERT_EQ(0, unlink(at(buf, tree, knob + 1)));
	ASSERT_EQ(0, unit_link(tree, knob + 1, "../../../../../victim"));
	ASSERT_EQ(-ELOOP, devpm_write_str(knob, "5"));
	ASSERT_EQ(-EXDEV, devpm_read_str(knob, buf, sizeof(buf)));
	ASSERT_EQ(0, unit_get(self->tmp, "victim", buf, sizeof(buf)));
	ASSERT_STREQ("secret\n", buf);
	/* A link to another knob inside: read through, never written. */
	ASSERT_EQ(0, unlink(at(buf, tree, knob + 1)));
	ASSERT_EQ(0, unit_link(tree, knob + 1, "control"));
	ASSERT_EQ(0, devpm_read_str(knob, buf, sizeof(buf)));
	ASSERT_STREQ("on", buf);
	ASSERT_EQ(-ELOOP, devpm_write_str(knob, "5"));
	/* Negative control: a plain knob is written. */
	ASSERT_EQ(0, devpm_write_str("/sys/devices/d/power/control", "auto"));
	ASSERT_EQ(0, unit_get(tree, "sys/devices/d/power/control", buf,
			      sizeof(buf)));
	ASSERT_STREQ("auto", buf);
	devpm_set_sysfs_root(NULL);
}

TEST_HARNESS_MAIN
