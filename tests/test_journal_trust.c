// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_journal_trust.c - the journal trusts nothing another user could
 * have written (lib/state/journal*.c, issue #12): a journal directory not
 * ours, symlinks in place of the journal or the lock, records that act outside
 * <root>/sys, a journal of garbage, a second run on the same sysfs root
 * through another journal directory, a dead run's programs still writing,
 * and the modules a modprobe pulled in.  The attacker is uid 12345
 * (fork + setuid), so these cases need root; each has its negative
 * control.
 */
#include <dirent.h>
#include <signal.h>

#include "devpm.h"
#include "core/module.h"
#include "kselftest_harness.h"
#include "unit.h"

#define ATTACKER 12345
#define CTL "/sys/devices/pci0000:00/0000:00:01.0/power/control"
#define DELAY "/sys/devices/pci0000:00/0000:00:01.0/power/autosuspend_delay_ms"

FIXTURE(tr) {
	char tmp[UNIT_PATH_MAX];
	char tree[UNIT_PATH_MAX];
	char dir[UNIT_PATH_MAX];	/* journal directory (root's) */
	char victim[UNIT_PATH_MAX];	/* a root-owned 0600 file */
	char err[UNIT_PATH_MAX];
	pid_t session;			/* of a dead run: killed at the end */
};

FIXTURE_SETUP(tr)
{
	if (!devpm_is_root())
		SKIP(return, "needs root: plays a uid-%d attacker with setuid",
		     ATTACKER);
	ASSERT_EQ(0, unit_mkdtemp(self->tmp, sizeof(self->tmp)));
	/* The attacker may walk through, as in a shared /tmp. */
	ASSERT_EQ(0, chmod(self->tmp, 0755));
	snprintf(self->tree, sizeof(self->tree), "%s/tree", self->tmp);
	snprintf(self->dir, sizeof(self->dir), "%s/j", self->tmp);
	snprintf(self->victim, sizeof(self->victim), "%s/victim", self->tmp);
	snprintf(self->err, sizeof(self->err), "%s/stderr", self->tmp);
	ASSERT_EQ(0, unit_put(self->tree, CTL + 1, "on\n"));
	ASSERT_EQ(0, unit_put(self->tree, DELAY + 1, "1000\n"));
	ASSERT_EQ(0, unit_put(self->tmp, "victim", "secret\n"));
	ASSERT_EQ(0, chmod(self->victim, 0600));
	ASSERT_EQ(0, devpm_set_sysfs_root(self->tree));
	setenv("DEVPM_JOURNAL_DIR", self->dir, 1);
	unsetenv("DEVPM_JOURNAL");
	unsetenv("DEVPM_ALLOW_DISK");
	devpm_safety_reset();
}

static void kill_session(pid_t sid);

FIXTURE_TEARDOWN(tr)
{
	if (self->session > 0)
		kill_session(self->session);
	devpm_journal_close();
	if (self->tmp[0])
		unit_rm_rf(self->tmp);
}

static const char *file_text(const char *path)
{
	static char buf[256];

	if (unit_get("", path, buf, sizeof(buf)))
		return "(missing)";
	return buf;
}

/* Run fn(arg) as the attacker in a child; true if it returned 0. */
static bool as_attacker(int (*fn)(const char *), const char *arg)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		if (setgid(ATTACKER) || setuid(ATTACKER))
			_exit(3);
		_exit(fn(arg) ? 1 : 0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && !WEXITSTATUS(status);
}

static char victim_path[UNIT_PATH_MAX];

/* tree + kpath, in a static buffer. */
static const char *tree_file(const char *tree, const char *kpath)
{
	static char buf[UNIT_PATH_MAX];

	snprintf(buf, sizeof(buf), "%s%s", tree, kpath);
	return buf;
}

/* The attack of issue #12: a journal the attacker wrote. */
static int plant_journal(const char *dir)
{
	char path[UNIT_PATH_MAX], rec[UNIT_PATH_MAX * 2];

	snprintf(rec, sizeof(rec), "W %s\tpwned\nL %s\n", victim_path,
		 victim_path);
	snprintf(path, sizeof(path), "%s/journal", dir);
	return unit_put("", path, rec);
}

TEST_F(tr, journal_dir_of_another_user_is_refused)
{
	char adir[UNIT_PATH_MAX], err[2048];
	int saved;

	snprintf(victim_path, sizeof(victim_path), "%s", self->victim);
	snprintf(adir, sizeof(adir), "%s/attacker", self->tmp);
	/* The attacker's own directory (e.g. in their home). */
	ASSERT_EQ(0, mkdir(adir, 0777));
	ASSERT_EQ(0, chmod(adir, 0777));
	ASSERT_EQ(0, chown(adir, ATTACKER, ATTACKER));
	ASSERT_TRUE(as_attacker(plant_journal, adir));
	ASSERT_EQ(-EPERM, devpm_journal_open_owner(adir));
	ASSERT_HAS(devpm_error(), adir);
	ASSERT_HAS(devpm_error(), "belongs to uid 12345");
	ASSERT_STREQ("secret\n", file_text(self->victim));
	/* As root the variable that names it is ignored, and said so. */
	setenv("DEVPM_JOURNAL_DIR", adir, 1);
	saved = unit_capture_begin(2, self->err);
	ASSERT_STREQ("/run/devpm", devpm_journal_dir());
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_HAS(err, "devpm: ignoring DEVPM_JOURNAL_DIR=");
	ASSERT_HAS(err, "belongs to uid 12345");

	/* Root's, but writable by others: refused as well. */
	ASSERT_EQ(0, chown(adir, 0, 0));
	ASSERT_EQ(-EPERM, devpm_journal_open_owner(adir));
	ASSERT_HAS(devpm_error(), "writable by others (mode 0777)");
	ASSERT_STREQ("secret\n", file_text(self->victim));

	/* A symlink to a good directory: refused, not followed. */
	ASSERT_EQ(0, unit_mkdir(self->dir, ""));
	ASSERT_EQ(0, chmod(self->dir, 0700));
	snprintf(adir, sizeof(adir), "%s/link", self->tmp);
	ASSERT_EQ(0, symlink(self->dir, adir));
	setenv("DEVPM_JOURNAL_DIR", adir, 1);
	ASSERT_EQ(-EPERM, devpm_journal_open_owner(NULL));
	ASSERT_HAS(devpm_error(), "is a symlink");

	/* Negative control: root's own 0700 directory is taken. */
	setenv("DEVPM_JOURNAL_DIR", self->dir, 1);
	ASSERT_EQ(0, devpm_journal_open_owner(NULL));
}

TEST_F(tr, symlinked_journal_or_lock_is_not_followed)
{
	char path[UNIT_PATH_MAX];
	const char *names[] = { "journal", "lock" };
	size_t i;

	for (i = 0; i < 2; i++) {
		unit_rm_rf(self->dir);
		ASSERT_EQ(0, mkdir(self->dir, 0700));
		snprintf(path, sizeof(path), "%s/%s", self->dir, names[i]);
		ASSERT_EQ(0, symlink(self->victim, path));
		ASSERT_EQ(-EPERM, devpm_journal_open_owner(self->dir));
		ASSERT_HAS(devpm_error(), "is a symlink; remove it");
		ASSERT_STREQ("secret\n", file_text(self->victim));
	}
	/* A hard link to the victim: not a file of ours with one link. */
	unit_rm_rf(self->dir);
	ASSERT_EQ(0, mkdir(self->dir, 0700));
	snprintf(path, sizeof(path), "%s/journal", self->dir);
	ASSERT_EQ(0, link(self->victim, path));
	ASSERT_EQ(-EPERM, devpm_journal_open_owner(self->dir));
	ASSERT_STREQ("secret\n", file_text(self->victim));
	/* Negative control: without them it opens. */
	ASSERT_EQ(0, unlink(path));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
}

TEST_F(tr, records_outside_sys_are_refused_one_line_each)
{
	char text[8192], err[8192], outside[UNIT_PATH_MAX], dir2[UNIT_PATH_MAX];
	char outdir[UNIT_PATH_MAX];
	int saved, r;

	snprintf(outside, sizeof(outside), "%s/sys/devices/evil", self->tree);
	/* A link inside the tree that leaves it (absolute). */
	ASSERT_EQ(0, symlink(self->victim, outside));
	snprintf(outdir, sizeof(outdir), "%s/sys/devices/evildir", self->tree);
	ASSERT_EQ(0, symlink(self->tmp, outdir));
	snprintf(dir2, sizeof(dir2), "%s/somedir", self->tmp);
	ASSERT_EQ(0, mkdir(dir2, 0755));
	snprintf(text, sizeof(text),
		 "%s"
		 "W %s\tpwned\n"			/* 2 outside */
		 "L %s\n"				/* 3 outside */
		 "D %s\n"				/* 4 outside */
		 "W %s/sys/../victim\tpwned\n"		/* 5 dot-dot */
		 "W %s\tpwned\n"			/* 6 a link */
		 "W %s/victim\tpwned\n"		/* 7 dir link out */
		 "W %s%s\ton\n"			/* 8 valid */
		 "M devpm_no_such_module\n",		/* 9 a module */
		 unit_journal_header(self->tree), self->victim, self->victim,
		 dir2, self->tree, outside, outdir, self->tree, CTL);
	ASSERT_EQ(0, mkdir(self->dir, 0700));
	ASSERT_EQ(0, unit_put(self->dir, "journal", text));
	ASSERT_EQ(0, unit_put(self->tree, CTL + 1, "auto\n"));

	saved = unit_capture_begin(2, self->err);
	r = devpm_journal_restore_all();
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_EQ(-EIO, r);
	ASSERT_HAS(devpm_error(), "4 refused");
	ASSERT_STREQ("secret\n", file_text(self->victim));
	ASSERT_TRUE(unit_exists(self->tmp, "somedir"));
	ASSERT_HAS(err, "journal line 2 refused");
	ASSERT_HAS(err, "journal line 3 refused");
	ASSERT_HAS(err, "journal line 4 refused");
	ASSERT_HAS(err, "journal line 5 refused");
	/* The last part a link: not followed (O_NOFOLLOW). */
	ASSERT_HAS(err, "journal line 6: cannot put back 'pwned'");
	ASSERT_HAS(err, strerror(ELOOP));
	/* Beneath /sys, but a directory link leads out: openat2 EXDEV. */
	ASSERT_HAS(err, "journal line 7: cannot put back 'pwned'");
	ASSERT_HAS(err, strerror(EXDEV));
	/* Negative control: the valid record in the same journal went back. */
	ASSERT_STREQ("on", file_text(strcat(strcpy(text, self->tree), CTL)));
}

/* dir/journal: the line that opens a journal of tree, then records. */
static int put_journal(const char *dir, const char *tree, const char *records)
{
	const char *hdr = unit_journal_header(tree);
	char *text = malloc(strlen(hdr) + strlen(records) + 1);
	int r;

	if (!text)
		return -ENOMEM;
	strcpy(text, hdr);
	strcat(text, records);
	r = unit_put(dir, "journal", text);
	free(text);
	return r;
}

TEST_F(tr, garbage_journal_is_summarised_and_fails)
{
	char err[8192], text[512];
	size_t n = 1000000, lines = 0, i;
	char *big = malloc(n + 1);
	int saved, r;

	ASSERT_NE(NULL, big);
	memset(big, '\n', n);
	big[n] = '\0';
	/* A name with terminal escapes: shown escaped, never raw. */
	{
		static const char esc[] = "X \x1b[31mred\x1b]0;title\x07";

		memcpy(big, esc, strlen(esc));
	}
	ASSERT_EQ(0, mkdir(self->dir, 0700));
	ASSERT_EQ(0, put_journal(self->dir, self->tree, big));
	saved = unit_capture_begin(2, self->err);
	r = devpm_journal_restore_all();
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_EQ(-EINVAL, r);
	/* 20 bytes of escapes took the place of 20 newlines. */
	ASSERT_HAS(devpm_error(), "none of its 999980 line(s) is a valid record");
	for (i = 0; err[i]; i++)
		lines += err[i] == '\n';
	ASSERT_GE(7, lines);
	ASSERT_HAS(err, "999975 more invalid journal line(s) not shown");
	ASSERT_HASNT(err, "\x1b");
	devpm_journal_close();

	/* The escapes of line 1 (only five lines are shown, walking back). */
	snprintf(text, sizeof(text), "X \x1b[31mred\n");
	ASSERT_EQ(0, put_journal(self->dir, self->tree, text));
	saved = unit_capture_begin(2, self->err);
	r = devpm_journal_restore_all();
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_EQ(-EINVAL, r);
	ASSERT_HAS(err, "invalid, not restored: X \\x1b[31mred");
	ASSERT_HASNT(err, "\x1b");
	devpm_journal_close();

	/* Negative control: one valid record among them is a success. */
	snprintf(text, sizeof(text), "\n\nM devpm_no_such_module\n\n");
	ASSERT_EQ(0, put_journal(self->dir, self->tree, text));
	ASSERT_EQ(1, devpm_journal_restore_all());
	free(big);
}

TEST_F(tr, one_run_per_sysfs_root_whatever_the_journal_dir)
{
	char other[UNIT_PATH_MAX], tree2[UNIT_PATH_MAX];
	int p[2], q[2], status;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(p[0]);
		close(q[1]);
		if (devpm_journal_open_owner(self->dir) ||
		    write(p[1], "r", 1) != 1)
			_exit(3);
		unit_wait_ready(q[0]);
		_exit(0);
	}
	close(p[1]);
	close(q[0]);
	ASSERT_TRUE(unit_wait_ready(p[0]));
	snprintf(other, sizeof(other), "%s/j2", self->tmp);
	ASSERT_EQ(-EBUSY, devpm_journal_open_owner(other));
	ASSERT_HAS(devpm_error(), "holds the lock on");
	ASSERT_HAS(devpm_error(), self->tree);
	/* Negative control: another tree, another journal dir: free. */
	snprintf(tree2, sizeof(tree2), "%s/tree2", self->tmp);
	ASSERT_EQ(0, unit_put(tree2, CTL + 1, "on\n"));
	ASSERT_EQ(0, devpm_set_sysfs_root(tree2));
	ASSERT_EQ(0, devpm_journal_open_owner(other));
	devpm_journal_close();
	close(q[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	close(p[0]);
}

/*
 * A run on self->tree killed with its knob changed: the journal in
 * self->dir records the tree and CTL's old value "on".
 */
static void killed_run(struct __test_metadata *_metadata, const char *tree,
		       const char *dir)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		if (devpm_set_sysfs_root(tree) ||
		    devpm_journal_open_owner(dir) ||
		    devpm_knob_write(CTL, "auto"))
			_exit(3);
		kill(getpid(), SIGKILL);
		_exit(4);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
}

/* Issue #35 item 2: the tree replaced by a link after the kill. */
TEST_F(tr, restore_refuses_a_replaced_root)
{
	char moved[UNIT_PATH_MAX], victim[UNIT_PATH_MAX], j[4096];

	killed_run(_metadata, self->tree, self->dir);
	ASSERT_STREQ("auto", file_text(tree_file(self->tree, CTL)));
	/* The attacker's tree in its place: another directory, a link. */
	snprintf(moved, sizeof(moved), "%s.moved", self->tree);
	ASSERT_EQ(0, rename(self->tree, moved));
	snprintf(victim, sizeof(victim), "%s/victimtree", self->tmp);
	ASSERT_EQ(0, unit_put(victim, CTL + 1, "keep\n"));
	ASSERT_EQ(0, symlink(victim, self->tree));
	ASSERT_EQ(0, lchown(self->tree, ATTACKER, ATTACKER));
	/* Restored from a tree of its own: /sys is not this test's to lock. */
	ASSERT_EQ(0, unit_put(self->tmp, "cur/sys/x", "x\n"));
	snprintf(j, sizeof(j), "%s/cur", self->tmp);
	ASSERT_EQ(0, devpm_set_sysfs_root(j));
	ASSERT_EQ(-EPERM, devpm_journal_open_owner(self->dir));
	ASSERT_HAS(devpm_error(), "is a symlink of uid 12345");
	/* A link of root's to another tree: not the directory recorded. */
	ASSERT_EQ(0, lchown(self->tree, 0, 0));
	ASSERT_EQ(-EPERM, devpm_journal_open_owner(self->dir));
	ASSERT_HAS(devpm_error(), "is not the directory the journal recorded");
	ASSERT_STREQ("keep\n", file_text(tree_file(victim, CTL)));
	/* Refused, not emptied: the record waits for its tree. */
	ASSERT_EQ(0, unit_get(self->dir, "journal", j, sizeof(j)));
	ASSERT_HAS(j, "\ton\n");
	/* Negative control: the tree back in its place is restored. */
	ASSERT_EQ(0, unlink(self->tree));
	ASSERT_EQ(0, rename(moved, self->tree));
	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_STREQ("on", file_text(tree_file(self->tree, CTL)));
	ASSERT_STREQ("keep\n", file_text(tree_file(victim, CTL)));
}

/*
 * Issue #35 item 7: a restore from another root takes the lock of the
 * root the journal records, which a run on it holds.
 */
TEST_F(tr, restore_locks_the_recorded_root)
{
	char other[UNIT_PATH_MAX], tree2[UNIT_PATH_MAX];
	int p[2], q[2], status;
	pid_t pid;

	killed_run(_metadata, self->tree, self->dir);
	/* A run on the tree, with a journal directory of its own. */
	snprintf(other, sizeof(other), "%s/j2", self->tmp);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(p[0]);
		close(q[1]);
		if (devpm_journal_open_owner(other) ||
		    write(p[1], "r", 1) != 1)
			_exit(3);
		unit_wait_ready(q[0]);
		_exit(0);
	}
	close(p[1]);
	close(q[0]);
	ASSERT_TRUE(unit_wait_ready(p[0]));
	/* The old journal restored from another tree: it waits. */
	snprintf(tree2, sizeof(tree2), "%s/tree2", self->tmp);
	ASSERT_EQ(0, unit_put(tree2, CTL + 1, "on\n"));
	ASSERT_EQ(0, devpm_set_sysfs_root(tree2));
	ASSERT_EQ(-EBUSY, devpm_journal_open_owner(self->dir));
	ASSERT_HAS(devpm_error(), "holds the lock on");
	ASSERT_HAS(devpm_error(), self->tree);
	ASSERT_STREQ("auto", file_text(tree_file(self->tree, CTL)));
	close(q[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	close(p[0]);
	/* Negative control: that run over, the same restore goes through. */
	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_STREQ("on", file_text(tree_file(self->tree, CTL)));
}

/*
 * Issue #35 item 6: files named lock and journal that are not devpm's,
 * in a directory of root's, are neither overwritten nor emptied; a
 * DEVPM_JOURNAL that is not a journal gets no record.
 */
TEST_F(tr, foreign_lock_or_journal_is_left_alone)
{
	char path[UNIT_PATH_MAX], buf[256];

	ASSERT_EQ(0, mkdir(self->dir, 0700));
	ASSERT_EQ(0, unit_put(self->dir, "lock", "do not touch\n"));
	ASSERT_EQ(-EPERM, devpm_journal_open_owner(self->dir));
	ASSERT_HAS(devpm_error(), "is not a devpm lock file");
	ASSERT_EQ(0, unit_get(self->dir, "lock", buf, sizeof(buf)));
	ASSERT_STREQ("do not touch\n", buf);
	ASSERT_EQ(0, unit_put(self->dir, "lock", "123\n"));
	ASSERT_EQ(0, unit_put(self->dir, "journal", "a file of root's\n"));
	ASSERT_EQ(-EPERM, devpm_journal_open_owner(self->dir));
	ASSERT_HAS(devpm_error(), "is not a devpm journal");
	ASSERT_EQ(0, unit_get(self->dir, "journal", buf, sizeof(buf)));
	ASSERT_STREQ("a file of root's\n", buf);
	/* DEVPM_JOURNAL naming it: no record appended. */
	snprintf(path, sizeof(path), "%s/journal", self->dir);
	setenv("DEVPM_JOURNAL", path, 1);
	ASSERT_EQ(-EPERM, devpm_journal_attach());
	ASSERT_HAS(devpm_error(), "is not a devpm journal");
	ASSERT_EQ(0, unit_get(self->dir, "journal", buf, sizeof(buf)));
	ASSERT_STREQ("a file of root's\n", buf);
	unsetenv("DEVPM_JOURNAL");
	/* Negative control: an empty journal and a pid's lock are taken. */
	ASSERT_EQ(0, unit_put(self->dir, "journal", ""));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
}

/* Issue #35 item 11: a NUL inside a value is not restored cut short. */
TEST_F(tr, nul_in_a_value_is_invalid)
{
	char text[UNIT_PATH_MAX * 2], err[4096];
	size_t n;
	int fd, saved, r;

	ASSERT_EQ(0, mkdir(self->dir, 0700));
	n = snprintf(text, sizeof(text), "%sW %s%s\tau", unit_journal_header(
		     self->tree), self->tree, CTL);
	text[n++] = '\0';
	n += snprintf(text + n, sizeof(text) - n, "to\n");
	snprintf(err, sizeof(err), "%s/journal", self->dir);
	fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)n, write(fd, text, n));
	close(fd);
	saved = unit_capture_begin(2, self->err);
	r = devpm_journal_restore_all();
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_EQ(-EINVAL, r);
	ASSERT_HAS(err, "journal line 2 invalid, not restored");
	ASSERT_HAS(err, "\\x09au\\x00to");
	ASSERT_STREQ("on\n", file_text(tree_file(self->tree, CTL)));
	devpm_journal_close();
	/* Negative control: the same record without the NUL is restored. */
	ASSERT_EQ(0, unit_put(self->tree, CTL + 1, "x\n"));
	n = snprintf(text, sizeof(text), "W %s%s\tauto\n", self->tree, CTL);
	ASSERT_EQ(0, put_journal(self->dir, self->tree, text));
	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_STREQ("auto", file_text(tree_file(self->tree, CTL)));
}

/* Pid, state and session of a process ('?' when gone). */
static char state_of(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (unit_get("", path, buf, sizeof(buf)))
		return '?';
	p = strrchr(buf, ')');
	return p ? p[2] : '?';
}

/*
 * A run SIGKILLed while its program's case writes in a loop: the runner
 * (A) records the program's session (B); B forks a case (C) in its own
 * process group, as the kselftest harness does, that writes DELAY
 * through the journal forever.  Nothing asks B or C to die with A.
 */
static pid_t dead_run(bool record, pid_t *b_out, int *pipe_b)
{
	int p[2];
	pid_t a;

	if (pipe(p))
		return -1;
	a = fork();
	if (a)
		goto parent;
	close(p[0]);
	if (devpm_journal_open_owner(NULL))
		_exit(3);
	{
		int go[2];
		pid_t b;
		char c;

		if (pipe(go))
			_exit(3);
		b = fork();
		if (!b) {
			char j[UNIT_PATH_MAX];

			/*
			 * As after exec: no lock of the runner's, the
			 * journal attached through DEVPM_JOURNAL.
			 */
			snprintf(j, sizeof(j), "%s", getenv("DEVPM_JOURNAL"));
			devpm_journal_close();
			setenv("DEVPM_JOURNAL", j, 1);
			setsid();
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(3);
			if (!fork()) {
				long v = 0;

				setpgid(0, 0);
				for (;;) {
					devpm_knob_write_long(DELAY, 20 + v);
					v = (v + 1) % 100;
					usleep(500);
				}
			}
			for (;;)
				pause();
		}
		if (record && devpm_journal_record_session(b))
			_exit(3);
		if (write(go[1], "g", 1) != 1 ||
		    write(p[1], &b, sizeof(b)) != sizeof(b))
			_exit(3);
		for (;;)
			pause();
	}
parent:
	close(p[1]);
	*pipe_b = p[0];
	if (read(p[0], b_out, sizeof(*b_out)) != sizeof(*b_out))
		return -1;
	return a;
}

/* SIGKILL every process of session sid (test cleanup). */
static void kill_session(pid_t sid)
{
	char path[64], buf[512], *p;
	struct dirent *de;
	long s;
	DIR *d = opendir("/proc");

	while (d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (atoi(de->d_name) <= 0 || unit_get("", path, buf, sizeof(buf)))
			continue;
		p = strrchr(buf, ')');
		if (p && sscanf(p + 1, " %*c %*d %*d %ld", &s) == 1 && s == sid)
			kill(atoi(de->d_name), SIGKILL);
	}
	if (d)
		closedir(d);
}

static const char *delay_val(const char *tree)
{
	static char buf[64];

	if (unit_get(tree, DELAY + 1, buf, sizeof(buf)))
		return "(missing)";
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* Wait until the case has written (DELAY no longer 1000), bounded. */
static bool written(const char *tree)
{
	int i;

	for (i = 0; i < 2000; i++) {
		if (strcmp(delay_val(tree), "1000") &&
		    strcmp(delay_val(tree), "(missing)"))
			return true;
		usleep(1000);
	}
	return false;
}

TEST_F(tr, restore_ends_the_dead_runs_programs_first)
{
	char after[64];
	int status, fd, i;
	pid_t a, b;

	a = dead_run(true, &b, &fd);
	ASSERT_LT(0, a);
	self->session = b;
	ASSERT_TRUE(written(self->tree));
	ASSERT_EQ(0, kill(a, SIGKILL));
	ASSERT_EQ(a, waitpid(a, &status, 0));
	close(fd);
	/* The program and its case outlive the runner... */
	ASSERT_NE('?', state_of(b));
	ASSERT_TRUE(written(self->tree));
	/* ... until restore ends them, then puts the knob back. */
	ASSERT_LT(0, devpm_journal_restore_all());
	devpm_journal_close();
	ASSERT_STREQ("1000", delay_val(self->tree));
	for (i = 0; i < 100 && state_of(b) != '?' && state_of(b) != 'Z'; i++)
		usleep(1000);
	ASSERT_TRUE(state_of(b) == '?' || state_of(b) == 'Z');
	waitpid(b, NULL, WNOHANG);
	usleep(20000);
	snprintf(after, sizeof(after), "%s", delay_val(self->tree));
	ASSERT_STREQ("1000", after);
}

TEST_F(tr, without_the_session_record_the_case_writes_on)
{
	bool changed = false;
	int status, fd, i;
	pid_t a, b;

	/* Negative control of the case above: no P record. */
	a = dead_run(false, &b, &fd);
	ASSERT_LT(0, a);
	self->session = b;
	ASSERT_TRUE(written(self->tree));
	ASSERT_EQ(0, kill(a, SIGKILL));
	ASSERT_EQ(a, waitpid(a, &status, 0));
	close(fd);
	devpm_journal_restore_all();
	devpm_journal_close();
	for (i = 0; i < 2000 && !changed; i++) {
		changed = strcmp(delay_val(self->tree), "1000") != 0;
		usleep(1000);
	}
	/* The orphans are ended by the teardown. */
	ASSERT_TRUE(changed);
}

TEST_F(tr, a_reused_pid_is_not_killed)
{
	char text[UNIT_PATH_MAX];
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		setsid();
		for (;;)
			pause();
	}
	/* The P record names pid with another start time: not ours. */
	snprintf(text, sizeof(text), "%sP %d 1\n",
		 unit_journal_header(self->tree), (int)pid);
	ASSERT_EQ(0, mkdir(self->dir, 0700));
	ASSERT_EQ(0, unit_put(self->dir, "journal", text));
	ASSERT_EQ(0, devpm_journal_restore_all());
	usleep(10000);
	ASSERT_EQ(0, waitpid(pid, &status, WNOHANG));
	ASSERT_NE('?', state_of(pid));
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

TEST(module_diff_journals_dependencies_newest_unloaded_first)
{
	static const char before[] =
		"usb_f_ss_lb 28672 0 - Live 0x0\n"
		"libcomposite 94208 1 usb_f_ss_lb, Live 0x0\n";
	/* /proc/modules: newest first; vfio_pci pulled in four. */
	static const char after[] =
		"vfio_pci 16384 0 - Live 0x0\n"
		"vfio_pci_core 94208 1 vfio_pci, Live 0x0\n"
		"vfio_virqfd 16384 1 vfio_pci_core, Live 0x0\n"
		"irqbypass 16384 1 vfio_pci_core, Live 0x0\n"
		"vfio 45056 2 vfio_pci_core, Live 0x0\n"
		"usb_f_ss_lb 28672 0 - Live 0x0\n"
		"libcomposite 94208 1 usb_f_ss_lb, Live 0x0\n";
	char names[8][64], tmp[UNIT_PATH_MAX], j[2048];

	ASSERT_EQ(5, devpm_module_diff(before, after, names, 8));
	ASSERT_STREQ("vfio_pci", names[0]);
	ASSERT_STREQ("vfio", names[4]);
	/* Negative control: nothing new, nothing listed. */
	ASSERT_EQ(0, devpm_module_diff(after, after, names, 8));

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	ASSERT_EQ(0, unit_mkdir(tmp, "tree/sys"));
	ASSERT_EQ(0, devpm_set_sysfs_root(strcat(strcpy(j, tmp), "/tree")));
	ASSERT_EQ(0, devpm_journal_open_owner(strcat(strcpy(j, tmp), "/j")));
	ASSERT_EQ(0, devpm_journal_loaded_modules("vfio_pci", before, after));
	ASSERT_EQ(0, unit_get(tmp, "j/journal", j, sizeof(j)));
	/* Journaled oldest first: restore walks back, vfio_pci goes first. */
	ASSERT_HAS(j, "\nM vfio\nM irqbypass\nM vfio_virqfd\nM vfio_pci_core\nM vfio_pci\n");
	devpm_journal_close();
	/* Loaded meanwhile by someone else: still the named one only. */
	ASSERT_EQ(0, devpm_journal_open_owner(strcat(strcpy(j, tmp), "/j")));
	ASSERT_EQ(0, devpm_journal_loaded_modules("vfio_pci", after, after));
	ASSERT_EQ(0, unit_get(tmp, "j/journal", j, sizeof(j)));
	ASSERT_HAS(j, "\nM vfio_pci\n");
	ASSERT_HASNT(j, "M vfio\n");
	devpm_journal_close();
	unit_rm_rf(tmp);
}

TEST_HARNESS_MAIN
