// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_journal.c - the journal puts every knob back (lib/state/journal*.c,
 * knob.c): in order, oldest value first, on exit, on SIGINT/SIGTERM,
 * after SIGKILL by the next owner; it refuses a second owner and survives
 * a torn journal.
 * Each case owns a journal in its own temp dir and a fake sysfs tree.
 */
#include <signal.h>

#include "devpm.h"
#include "kselftest_harness.h"
#include "unit.h"

#define DEVA "/sys/devices/pci0000:00/0000:00:01.0"
#define DEVB "/sys/devices/pci0000:00/0000:00:02.0"
#define CTL_A DEVA "/power/control"
#define CTL_B DEVB "/power/control"
#define DELAY_A DEVA "/power/autosuspend_delay_ms"

FIXTURE(jr) {
	char tmp[UNIT_PATH_MAX];	/* tree/ and j/ below */
	char tree[UNIT_PATH_MAX];
	char dir[UNIT_PATH_MAX];	/* journal directory */
	char journal[UNIT_PATH_MAX];
	char err[UNIT_PATH_MAX];	/* captured stderr */
};

FIXTURE_SETUP(jr)
{
	ASSERT_EQ(0, unit_mkdtemp(self->tmp, sizeof(self->tmp)));
	snprintf(self->tree, sizeof(self->tree), "%s/tree", self->tmp);
	snprintf(self->dir, sizeof(self->dir), "%s/j", self->tmp);
	snprintf(self->journal, sizeof(self->journal), "%s/j/journal",
		 self->tmp);
	snprintf(self->err, sizeof(self->err), "%s/stderr", self->tmp);
	ASSERT_EQ(0, unit_put(self->tree, CTL_A + 1, "on\n"));
	ASSERT_EQ(0, unit_put(self->tree, CTL_B + 1, "on\n"));
	ASSERT_EQ(0, unit_put(self->tree, DELAY_A + 1, "-1\n"));
	ASSERT_EQ(0, devpm_set_sysfs_root(self->tree));
	setenv("DEVPM_JOURNAL_DIR", self->dir, 1);
	unsetenv("DEVPM_JOURNAL");
	unsetenv("DEVPM_ALLOW_DISK");
	devpm_safety_reset();
}

FIXTURE_TEARDOWN(jr)
{
	unit_rm_rf(self->tmp);
}

/* Value of a kernel path in the fake tree, newline stripped. */
static const char *val(const char *tree, const char *kpath)
{
	static char buf[256];
	char rel[UNIT_PATH_MAX];

	snprintf(rel, sizeof(rel), "%s", kpath + 1);
	if (unit_get(tree, rel, buf, sizeof(buf)))
		return "(missing)";
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* The real path the journal records for a kernel path. */
static const char *real(const char *kpath)
{
	static char buf[UNIT_PATH_MAX];

	devpm_real_path(buf, sizeof(buf), kpath);
	return buf;
}

/* The records, after the "R <root>" line that opens the journal. */
static const char *journal_text(const char *journal)
{
	static char buf[8192];
	char *nl;

	if (unit_get("", journal, buf, sizeof(buf)))
		return "(no journal)";
	nl = strchr(buf, '\n');
	if (!strncmp(buf, "R /", 3) && nl)
		return nl + 1;
	return buf;
}

TEST_F(jr, first_write_is_recorded_once_and_restored)
{
	char want[2048];

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto"));
	ASSERT_EQ(0, devpm_knob_write(DELAY_A, "100"));
	ASSERT_EQ(0, devpm_knob_write_long(DELAY_A, 200));
	/* The writes happened ... */
	ASSERT_STREQ("auto", val(self->tree, CTL_A));
	ASSERT_STREQ("200", val(self->tree, DELAY_A));
	/* ... and the journal has each knob once, with its first value. */
	snprintf(want, sizeof(want), "W %s\ton\n", real(CTL_A));
	snprintf(want + strlen(want), sizeof(want) - strlen(want),
		 "W %s\t-1\n", real(DELAY_A));
	ASSERT_STREQ(want, journal_text(self->journal));

	ASSERT_EQ(2, devpm_journal_restore_all());
	ASSERT_STREQ("on", val(self->tree, CTL_A));
	ASSERT_STREQ("-1", val(self->tree, DELAY_A));
	ASSERT_STREQ("", journal_text(self->journal));
}

/* The built-path setter: the same record and write; a long path none. */
TEST_F(jr, knob_writef_builds_checks_and_records)
{
	char want[2048], longdir[DEVPM_PATH_MAX + 16];

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_knob_writef("auto", "%s/power/%s", DEVA,
				       "control"));
	ASSERT_STREQ("auto", val(self->tree, CTL_A));
	snprintf(want, sizeof(want), "W %s\ton\n", real(CTL_A));
	ASSERT_STREQ(want, journal_text(self->journal));

	memset(longdir, 'x', sizeof(longdir) - 1);
	longdir[0] = '/';
	longdir[sizeof(longdir) - 1] = '\0';
	ASSERT_EQ(-ENAMETOOLONG, devpm_knob_writef("on", "%s/power/control",
						   longdir));
	EXPECT_NE(NULL, strstr(devpm_error(), "longer than"));
	ASSERT_STREQ(want, journal_text(self->journal));

	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_STREQ("on", val(self->tree, CTL_A));
}

TEST_F(jr, restore_walks_backwards)
{
	/* U f first, U f second: backwards ends at "first". */
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_journal_undo_write(CTL_B, "first"));
	ASSERT_EQ(0, devpm_journal_undo_write(CTL_B, "second"));
	/* W: on -> auto, then after a mark auto -> on is recorded again. */
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto"));
	devpm_journal_mark();
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "on"));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto"));
	ASSERT_EQ(4, devpm_journal_restore_all());
	ASSERT_STREQ("first", val(self->tree, CTL_B));
	ASSERT_STREQ("on", val(self->tree, CTL_A));
}

TEST_F(jr, unchanged_value_is_not_written_nor_recorded)
{
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "on"));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "on\n"));
	ASSERT_STREQ("", journal_text(self->journal));
	/* The fake file keeps its newline: it was not rewritten. */
	ASSERT_EQ(0, unit_get(self->tree, CTL_A + 1, self->err,
			      sizeof(self->err)));
	ASSERT_STREQ("on\n", self->err);
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto\n"));
	ASSERT_STREQ("auto", val(self->tree, CTL_A));
	ASSERT_HAS(journal_text(self->journal), "\ton\n");
}

TEST_F(jr, restore_since_mark_puts_back_only_later_writes)
{
	off_t mark, size;

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto"));
	mark = devpm_journal_mark();
	ASSERT_LT(0, mark);
	ASSERT_EQ(0, devpm_knob_write(CTL_B, "auto"));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "on"));
	ASSERT_EQ(2, devpm_journal_restore_since(mark));
	ASSERT_STREQ("on", val(self->tree, CTL_B));
	/* Back to its value at the mark, not to its first one. */
	ASSERT_STREQ("auto", val(self->tree, CTL_A));
	/* Cut at the mark: the R line and the first record remain. */
	size = strlen(journal_text(self->journal));
	ASSERT_EQ(mark, size + (off_t)strlen(unit_journal_header(devpm_sysfs_root())));
	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_STREQ("on", val(self->tree, CTL_A));
}

TEST_F(jr, choice_list_is_journaled_as_the_choice)
{
	const char *kp = "/sys/power/mem_sleep";

	ASSERT_EQ(0, unit_put(self->tree, "sys/power/mem_sleep",
			      "s2idle [deep]\n"));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	/* The current choice is no change. */
	ASSERT_EQ(0, devpm_knob_write(kp, "deep"));
	ASSERT_STREQ("", journal_text(self->journal));
	ASSERT_EQ(0, devpm_knob_write(kp, "s2idle"));
	ASSERT_HAS(journal_text(self->journal), "mem_sleep\tdeep\n");
	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_STREQ("deep", val(self->tree, kp));
}

TEST_F(jr, unset_driver_override_is_cleared_not_set_to_null)
{
	const char *ovr = DEVB "/driver_override";
	char raw[64];

	ASSERT_EQ(0, unit_put(self->tree, ovr + 1, "(null)\n"));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_knob_write(ovr, "vfio-pci"));
	ASSERT_STREQ("vfio-pci", val(self->tree, ovr));
	ASSERT_HAS(journal_text(self->journal), "driver_override\t\n");
	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_EQ(0, unit_get(self->tree, ovr + 1, raw, sizeof(raw)));
	ASSERT_STREQ("\n", raw);
	/* Writing "" (clear) to an unset override is no change. */
	ASSERT_EQ(0, unit_put(self->tree, ovr + 1, "(null)\n"));
	ASSERT_EQ(0, devpm_knob_write(ovr, ""));
	ASSERT_STREQ("", journal_text(self->journal));
	ASSERT_STREQ("(null)", val(self->tree, ovr));
}

TEST_F(jr, bad_knob_writes_are_refused_unrecorded)
{
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(-EINVAL, devpm_knob_write(CTL_A, "a\nb"));
	ASSERT_EQ(-EINVAL, devpm_knob_write(CTL_A, "a\tb"));
	ASSERT_EQ(-EINVAL, devpm_knob_write("power/control", "on"));
	ASSERT_EQ(-ENOENT, devpm_knob_write(DEVA "/power/nope", "on"));
	ASSERT_HAS(devpm_error(), "/power/nope");
	ASSERT_STREQ("", journal_text(self->journal));
	ASSERT_STREQ("on", val(self->tree, CTL_A));
}

/* Child: own the journal, change two knobs, say ready, wait. */
static void owner_child(const char *dir, int ready)
{
	if (devpm_journal_open_owner(dir) ||
	    devpm_knob_write(CTL_A, "auto") ||
	    devpm_knob_write(DELAY_A, "100"))
		_exit(3);
	if (write(ready, "r", 1) != 1)
		_exit(3);
	for (;;)
		pause();
}

static pid_t start_owner(const char *dir)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		owner_child(dir, p[1]);
	}
	close(p[1]);
	if (pid > 0 && !unit_wait_ready(p[0])) {
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

TEST_F(jr, signals_restore_and_kill)
{
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	int status;
	size_t i;
	pid_t pid;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		pid = start_owner(self->dir);
		ASSERT_LT(0, pid);
		ASSERT_STREQ("auto", val(self->tree, CTL_A));
		ASSERT_STREQ("100", val(self->tree, DELAY_A));
		ASSERT_EQ(0, kill(pid, sigs[i]));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		/* Re-raised: it died of the signal, after putting back. */
		ASSERT_TRUE(WIFSIGNALED(status));
		ASSERT_EQ(sigs[i], WTERMSIG(status));
		ASSERT_STREQ("on", val(self->tree, CTL_A));
		ASSERT_STREQ("-1", val(self->tree, DELAY_A));
		ASSERT_STREQ("", journal_text(self->journal));
	}
}

TEST_F(jr, sigkill_is_restored_by_the_next_owner)
{
	int status;
	pid_t pid;

	pid = start_owner(self->dir);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(SIGKILL, WTERMSIG(status));
	/* Nothing ran in the killed process: the knobs stay changed. */
	ASSERT_STREQ("auto", val(self->tree, CTL_A));
	ASSERT_STREQ("100", val(self->tree, DELAY_A));
	ASSERT_HAS(journal_text(self->journal), "\t-1\n");

	/* A fresh process, on the real system: the journal has real paths. */
	devpm_set_sysfs_root(NULL);
	ASSERT_EQ(2, devpm_journal_restore_all());
	ASSERT_STREQ("on", val(self->tree, CTL_A));
	ASSERT_STREQ("-1", val(self->tree, DELAY_A));
	ASSERT_STREQ("", journal_text(self->journal));
}

TEST_F(jr, second_owner_is_refused_with_holder_pid)
{
	char want[UNIT_PATH_MAX];
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
		unit_wait_ready(q[0]);	/* until the parent closes q */
		_exit(0);
	}
	close(p[1]);
	close(q[0]);
	ASSERT_TRUE(unit_wait_ready(p[0]));
	ASSERT_EQ(-EBUSY, devpm_journal_open_owner(self->dir));
	/* One run per sysfs root: its directory is flock'd. */
	snprintf(want, sizeof(want),
		 "another devpm run (pid %d) holds the lock on %s; wait for it to end",
		 pid, self->tree);
	ASSERT_STREQ(want, devpm_error());
	/* The refused attempt changed nothing. */
	ASSERT_EQ(-EINVAL, devpm_knob_write(CTL_A, "a\nb"));

	/* Holder gone (its pid still in the lock file): taken over. */
	close(q[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	close(p[0]);
}

TEST_F(jr, torn_journal_restores_valid_lines_reports_bad)
{
	char text[4096], err[4096], a[UNIT_PATH_MAX], b[UNIT_PATH_MAX];
	int saved, r;

	ASSERT_EQ(0, unit_put(self->tree, CTL_A + 1, "auto\n"));
	ASSERT_EQ(0, unit_put(self->tree, CTL_B + 1, "auto\n"));
	ASSERT_EQ(0, unit_put(self->tree, DELAY_A + 1, "5\n"));
	snprintf(a, sizeof(a), "%s", real(CTL_A));
	snprintf(b, sizeof(b), "%s", real(CTL_B));
	snprintf(text, sizeof(text),
		 "%s"				/* 1 the root */
		 "W %s\ton\n"			/* 2 valid */
		 "garbage line\n"		/* 3 */
		 "X /sys/x\tv\n"		/* 4 unknown type */
		 "W /sys/no-tab\n"		/* 5 no value */
		 "W relative\tv\n"		/* 6 not a path */
		 "M bad name!\n"		/* 7 */
		 "W %s\ton\n"			/* 8 valid */
		 "W %s\t-",			/* 9 torn by a crash */
		 unit_journal_header(devpm_sysfs_root()), a, b,
		 real(DELAY_A));
	ASSERT_EQ(0, unit_mkdir(self->dir, ""));
	ASSERT_EQ(0, unit_put(self->dir, "journal", text));

	saved = unit_capture_begin(2, self->err);
	r = devpm_journal_restore_all();
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_EQ(2, r);
	ASSERT_STREQ("on", val(self->tree, CTL_A));
	ASSERT_STREQ("on", val(self->tree, CTL_B));
	/* The torn record is not applied ("-" would be written). */
	ASSERT_STREQ("5", val(self->tree, DELAY_A));
	/* Walked backwards, the first five invalid shown, then a count. */
	ASSERT_HASNT(err, "garbage line");
	ASSERT_HAS(err, "devpm: 1 more invalid journal line(s) not shown");
	ASSERT_HAS(err, "journal line 4 invalid, not restored: X /sys/x\\x09v");
	ASSERT_HAS(err, "journal line 5 invalid");
	ASSERT_HAS(err, "journal line 6 invalid");
	ASSERT_HAS(err, "journal line 7 invalid");
	ASSERT_HASNT(err, "journal line 2 ");
	ASSERT_HASNT(err, "journal line 8 ");
	ASSERT_HAS(err, "devpm: journal line 9 truncated, not restored: W ");
	ASSERT_STREQ("", journal_text(self->journal));
}

TEST_F(jr, undo_records_write_rmdir_unlink_in_reverse)
{
	const char *g = "/sys/kernel/config/usb_gadget/g1";
	const char *gs = "/sys/kernel/config/usb_gadget/g1/configs";
	const char *gl = "/sys/kernel/config/usb_gadget/g1/configs/f1";
	const char *del = "/sys/bus/i2c/devices/i2c-0/delete_device";
	const char *ovr = DEVB "/driver_override";
	char raw[64];

	ASSERT_EQ(0, unit_put(self->tree, "sys/bus/i2c/devices/i2c-0/delete_device",
			      ""));
	ASSERT_EQ(0, unit_put(self->tree, ovr + 1, "vfio-pci\n"));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, unit_mkdir(self->tree, g + 1));
	ASSERT_EQ(0, devpm_journal_undo_rmdir(g));
	ASSERT_EQ(0, unit_mkdir(self->tree, gs + 1));
	ASSERT_EQ(0, devpm_journal_undo_rmdir(gs));
	ASSERT_EQ(0, unit_link(self->tree, gl + 1, "../../functions/f1"));
	ASSERT_EQ(0, devpm_journal_undo_unlink(gl));
	ASSERT_EQ(0, devpm_journal_undo_write(del, "0x50"));
	ASSERT_EQ(0, devpm_journal_undo_write(ovr, ""));
	ASSERT_EQ(-EINVAL, devpm_journal_undo_rmdir("relative/dir"));
	ASSERT_EQ(-EINVAL, devpm_journal_undo_unlink(NULL));
	ASSERT_EQ(-EINVAL, devpm_journal_undo_write(del, "a\tb"));
	ASSERT_STREQ("", val(self->tree, del));

	/*
	 * Forward order would fail: rmdir of a directory that still holds
	 * the link or the subdirectory is ENOTEMPTY, and restore says -EIO.
	 */
	ASSERT_EQ(5, devpm_journal_restore_all());
	ASSERT_STREQ("0x50", val(self->tree, del));
	/* An empty value goes back as the newline of `echo > file`. */
	ASSERT_EQ(0, unit_get(self->tree, ovr + 1, raw, sizeof(raw)));
	ASSERT_STREQ("\n", raw);
	ASSERT_FALSE(unit_exists(self->tree, g + 1));
	ASSERT_TRUE(unit_exists(self->tree, "sys/kernel/config/usb_gadget"));
}

TEST_F(jr, failed_restore_is_reported_others_still_restored)
{
	char err[4096];
	int saved, r;

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto"));
	ASSERT_EQ(0, devpm_journal_undo_write(DEVB "/power", "x"));
	ASSERT_EQ(0, devpm_knob_write(CTL_B, "auto"));
	saved = unit_capture_begin(2, self->err);
	r = devpm_journal_restore_all();
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_EQ(-EIO, r);
	ASSERT_HAS(devpm_error(), "1 of 3 journal records not restored");
	/* Line 1 is the R line. */
	ASSERT_HAS(err, "journal line 3: cannot put back 'x'");
	ASSERT_HAS(err, strerror(EISDIR));
	ASSERT_STREQ("on", val(self->tree, CTL_A));
	ASSERT_STREQ("on", val(self->tree, CTL_B));
}

/*
 * Nothing left to put back: a knob whose device went away (a USB port
 * gone with its unbound controller), a bind whose device is bound again.
 * A knob missing from a directory that is still there is a failure.
 */
TEST_F(jr, gone_knob_and_bound_device_need_nothing)
{
	const char *port = "/sys/devices/pci0000:00/0000:00:03.0/usb1";
	const char *pctl = "/sys/devices/pci0000:00/0000:00:03.0/usb1/usb1-port1/power/control";
	const char *bind = "/sys/bus/pci/drivers/xhci_hcd/bind";
	char err[4096], p[UNIT_PATH_MAX];
	int saved, r;

	ASSERT_EQ(0, unit_put(self->tree, pctl + 1, "auto\n"));
	ASSERT_EQ(0, unit_put(self->tree, bind + 1, ""));
	ASSERT_EQ(0, unit_link(self->tree,
			       "sys/bus/pci/drivers/xhci_hcd/0000:00:03.0",
			       "../../../../devices/pci0000:00/0000:00:03.0"));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_journal_undo_write(bind, "0000:00:03.0"));
	ASSERT_EQ(0, devpm_knob_write(pctl, "on"));
	snprintf(p, sizeof(p), "%s%s", self->tree, port);
	unit_rm_rf(p);
	ASSERT_EQ(2, devpm_journal_restore_all());
	/* Not written: bind would fail with -EBUSY in sysfs. */
	ASSERT_STREQ("", val(self->tree, bind));

	/* A bind of a device not bound is written, a lost knob fails. */
	ASSERT_EQ(0, devpm_journal_undo_write(bind, "0000:00:04.0"));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto"));
	snprintf(p, sizeof(p), "%s%s", self->tree, CTL_A);
	ASSERT_EQ(0, unlink(p));
	saved = unit_capture_begin(2, self->err);
	r = devpm_journal_restore_all();
	unit_capture_end(2, saved, self->err, err, sizeof(err));
	ASSERT_EQ(-EIO, r);
	ASSERT_HAS(err, "cannot put back 'on'");
	ASSERT_STREQ("0000:00:04.0", val(self->tree, bind));
}

TEST_F(jr, module_record_unloads_by_name)
{
	if (!devpm_is_root())
		SKIP(return, "needs root: delete_module(2)");
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(-EINVAL, devpm_journal_undo_module("bad name"));
	ASSERT_EQ(-EINVAL, devpm_journal_undo_module(""));
	/* Not loaded (any more): nothing to do, not a failure. */
	ASSERT_EQ(0, devpm_journal_undo_module("devpm-no-such-module"));
	ASSERT_HAS(journal_text(self->journal), "M devpm-no-such-module\n");
	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_STREQ("", journal_text(self->journal));
}

TEST_F(jr, attached_process_restores_its_own_at_exit)
{
	int status, p[2];
	pid_t pid;
	off_t before;

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_knob_write(CTL_B, "auto"));	/* the owner's */
	before = strlen(journal_text(self->journal));
	ASSERT_STREQ(self->journal, getenv("DEVPM_JOURNAL"));

	/* A test program under the runner: exits normally. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		devpm_journal_close();		/* forget the owner's state */
		setenv("DEVPM_JOURNAL", self->journal, 1);
		if (devpm_journal_attach() || devpm_knob_write(CTL_A, "auto") ||
		    strcmp(val(self->tree, CTL_A), "auto"))
			_exit(3);
		/* A mark from before the attach: still only its own. */
		if (devpm_journal_restore_since(0) != 1 ||
		    strcmp(val(self->tree, CTL_B), "auto"))
			_exit(4);
		if (devpm_knob_write(CTL_A, "auto"))
			_exit(5);
		exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_STREQ("on", val(self->tree, CTL_A));
	/* Only its own: the owner's record and knob are untouched. */
	ASSERT_STREQ("auto", val(self->tree, CTL_B));
	ASSERT_EQ(before, (off_t)strlen(journal_text(self->journal)));

	/* Killed instead: its record stays for the owner to restore. */
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		devpm_journal_close();
		setenv("DEVPM_JOURNAL", self->journal, 1);
		if (devpm_journal_attach() || devpm_knob_write(CTL_A, "auto") ||
		    write(p[1], "r", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	close(p[1]);
	ASSERT_TRUE(unit_wait_ready(p[0]));
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	ASSERT_STREQ("auto", val(self->tree, CTL_A));
	ASSERT_EQ(2, devpm_journal_restore_all());
	ASSERT_STREQ("on", val(self->tree, CTL_A));
	ASSERT_STREQ("on", val(self->tree, CTL_B));
	close(p[0]);
}

TEST_F(jr, forked_child_of_owner_does_not_restore)
{
	int status;
	pid_t pid;

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		exit(0);	/* runs atexit handlers */
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_STREQ("auto", val(self->tree, CTL_A));
	ASSERT_EQ(1, devpm_journal_restore_all());
	ASSERT_STREQ("on", val(self->tree, CTL_A));
}

TEST_F(jr, owner_exit_restores_everything)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (devpm_journal_open_owner(self->dir) ||
		    devpm_knob_write(CTL_A, "auto") ||
		    devpm_knob_write(CTL_B, "auto"))
			_exit(3);
		exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_STREQ("on", val(self->tree, CTL_A));
	ASSERT_STREQ("on", val(self->tree, CTL_B));
	ASSERT_STREQ("", journal_text(self->journal));
}

TEST_F(jr, attach_to_missing_journal_names_it)
{
	setenv("DEVPM_JOURNAL", "/nonexistent/devpm/journal", 1);
	ASSERT_EQ(-ENOENT, devpm_journal_attach());
	ASSERT_HAS(devpm_error(), "DEVPM_JOURNAL=/nonexistent/devpm/journal");
	unsetenv("DEVPM_JOURNAL");
	/* Unset: it becomes the owner (lazily, as knob_write does). */
	ASSERT_EQ(0, devpm_knob_write(CTL_A, "auto"));
	ASSERT_HAS(journal_text(self->journal), "\ton\n");
	ASSERT_STREQ(self->journal, getenv("DEVPM_JOURNAL"));
}

TEST_F(jr, journal_dir_default_and_env)
{
	ASSERT_STREQ(self->dir, devpm_journal_dir());
	unsetenv("DEVPM_JOURNAL_DIR");
	ASSERT_STREQ("/run/devpm", devpm_journal_dir());
}

TEST_HARNESS_MAIN
