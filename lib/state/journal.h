/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal.h - every PM knob devpm writes is put back.
 *
 * Before a knob is first written, "W <path>\t<old value>" is appended to the
 * journal and fsync'd.  "First" counts from the last devpm_journal_mark(),
 * so a case's restore_since() always has what it needs; an older record of
 * the same knob stays and puts back the older value after it.  Things devpm
 * instantiates (an i2c client, a loaded module, a configfs gadget) are
 * recorded as an undo action.  Restore walks the journal backwards.  The
 * journal survives SIGKILL: the next `devpm run` or `devpm restore` replays
 * it.  A W or U record with an empty value is written back as "\n" (sysfs
 * ignores an empty write; "\n" clears e.g. a driver_override).  Nothing
 * is left to put back, and the record counts as restored, when a W
 * record's knob has lost its directory (its device went away: unbound,
 * unplugged) or a U record binds a device (".../drivers/<driver>/bind")
 * that is bound to that driver again already.
 *
 * Record format, one per line (no tabs or newlines inside fields):
 *   R <root>[\t<dev>:<ino>]	first line: the sysfs root ("/": the real
 *				system) the records lie below; a tree's
 *				with its device and inode
 *   W <path>\t<old value>	write old value back to path
 *   U <path>\t<value>		write value to path (undo of an instantiation)
 *   M <module>			unload module (we loaded it, or it came in
 *				with one we loaded; module.h)
 *   D <path>			rmdir path (configfs directory we created)
 *   L <path>			unlink path (a configfs link or file we created)
 *   P <pid> <start>		a test program the runner started, in a
 *				session of its own (start: /proc/PID/stat
 *				starttime, against pid reuse; session.h)
 * Paths are the files really written: the kernel path, or under a sysfs
 * root the path inside the tree, the directory's links resolved, so that
 * a journal left by a run on a recorded tree never writes its values to
 * the real system, nor the reverse.  Restore acts only below <root>/sys of
 * the R line (configfs is below /sys/kernel/config) and on a file in the
 * journal directory itself (L of a gadget's backing image): every path is
 * opened with openat2 RESOLVE_BENEATH from there, the last part not
 * followed.  The root is opened again by path_trust.h's rule and must be
 * the very directory recorded (device and inode), else nothing is
 * restored and the journal is kept (-EPERM).  Anything else is refused
 * with a line on stderr.  A journal that is not empty and does not start
 * with the R line is not a journal: refused, never emptied.  A line with
 * a NUL byte is invalid.  Before it restores, the owner ends
 * every process of the sessions the P records name.  Invalid lines and a
 * last line without '\n' (a record cut by a crash) are reported on stderr
 * ("devpm: journal line N invalid, not restored: ...", untrusted bytes as
 * \xNN, the first 5 then a count) and skipped.
 *
 * The journal directory must belong to the user running devpm and not be
 * group- or world-writable, on a path that passes path_trust.h's rule (as
 * root DEVPM_JOURNAL_DIR and DEVPM_JOURNAL are ignored, with a line, when
 * they do not); it, the journal and the lock are opened without following
 * a symlink (else -EPERM naming it).  A lock file holding anything but a
 * pid is refused, not overwritten.  One run per sysfs root: the owner
 * flocks the root directory itself (/sys for the real system), whatever
 * its journal directory, and, while it restores, the root the journal
 * recorded too (a restore from another root waits for a run on that
 * one); also <dir>/lock (holder's pid inside) so that two roots never
 * share a journal.
 *
 * The runner holds the lock; test programs it starts append to the same file
 * (DEVPM_JOURNAL in their environment).  A test program started by hand takes
 * the lock itself.
 */
#ifndef DEVPM_JOURNAL_H
#define DEVPM_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "state/journal_undo.h"
#include "state/knob.h"

/*
 * Default directory: /run/devpm as root, else $XDG_RUNTIME_DIR/devpm or
 * /tmp/devpm-<uid> (DEVPM_JOURNAL_DIR overrides).
 */
const char *devpm_journal_dir(void);

/*
 * Open the journal (<dir>/journal; dir NULL: devpm_journal_dir(), created
 * 0700) as its owner: take <dir>/lock (-EBUSY with a message naming the
 * holder's pid when another run holds it; a lock left by a dead process is
 * taken over), restore whatever a crashed run left, and start an empty
 * journal.  Exports DEVPM_JOURNAL=<dir>/journal for child processes.
 * Installs SIGINT/SIGTERM/SIGHUP handlers that restore and re-raise, and
 * an atexit restore (only in this process, not in forked children).
 */
int devpm_journal_open_owner(const char *dir);

/*
 * Attach to the journal named by DEVPM_JOURNAL (a test program under the
 * runner); when it is unset, behave as devpm_journal_open_owner(NULL).
 * An attached process restores what it appended since attaching at exit
 * and on SIGINT/SIGTERM/SIGHUP; it takes no lock.  A process that appends
 * for an owner in another process (a test program, a harness case) asks
 * for SIGKILL when its parent dies (PR_SET_PDEATHSIG).  Returns 0 at once when
 * the journal is already open.  knob_write/undo_* attach on first use.
 */
int devpm_journal_attach(void);

/*
 * Attach as a helper the caller started for itself (a test case's
 * environment request, lib/harness/environment.h): what it appends is
 * restored by the caller's restore (its records lie after the caller's
 * mark), not at this process's exit.  It dies with its parent, as every
 * attached process.  -ENOENT when DEVPM_JOURNAL is unset.
 */
int devpm_journal_attach_for_caller(void);

/* Restore what this process answers for (above), then close and unlock. */
void devpm_journal_close(void);

/*
 * Current end of the journal (0 when not open); restore_since() puts back
 * what came after, never what came before this process attached, and cuts
 * the journal there.  Returns as restore_all().
 */
off_t devpm_journal_mark(void);
int devpm_journal_restore_since(off_t mark);
/*
 * Restore everything and empty the journal (not open: open it as owner,
 * which restores).  Returns the number of records restored, or -errno;
 * -EIO when some valid record could not be put back (each is reported on
 * stderr, the others are still restored, the journal is emptied anyway).
 * Invalid or truncated lines are reported on stderr and skipped.
 */
int devpm_journal_restore_all(void);

/*
 * Append one record (a whole line, '\n' included) and fsync, attaching
 * first when no journal is open: for knob.c and journal_undo.c.
 */
int devpm_journal_append(const char *rec);

/* Is there a "W <path>\t" record since the last mark? */
bool devpm_journal_recorded(const char *path);

/*
 * Runner: record a test program it started as the leader of a session of
 * its own ("P" record), so that `devpm restore` ends it and every process
 * of its session if the runner dies.  0 when no journal is open.
 */
int devpm_journal_record_session(pid_t sid);

#endif
