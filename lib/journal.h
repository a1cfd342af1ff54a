/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal.h - every PM knob devpm writes is put back.
 *
 * Before a knob is first written, "W <path>\t<old value>" is appended to the
 * journal and fsync'd.  Things devpm instantiates (an i2c client, a loaded
 * module, a configfs gadget) are recorded as an undo action.  Restore walks
 * the journal backwards.  The journal survives SIGKILL: the next
 * `devpm run` or `devpm restore` replays it.
 *
 * Record format, one per line (no tabs or newlines inside fields):
 *   W <path>\t<old value>	write old value back to path
 *   U <path>\t<value>		write value to path (undo of an instantiation)
 *   M <module>			unload module (we loaded it)
 *   D <path>			rmdir path (configfs directory we created)
 * Paths are kernel paths (see sysfs.h); the sysfs root applies at restore.
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

/* Default directory: /run/devpm (DEVPM_JOURNAL_DIR overrides). */
const char *devpm_journal_dir(void);

/*
 * Open the journal as its owner: take the lock (-EBUSY with a message
 * naming the holder's pid when another run holds it), restore whatever a
 * crashed run left, and start an empty journal.  Installs SIGINT/SIGTERM/
 * SIGHUP handlers that restore and exit, and an atexit restore.
 */
int devpm_journal_open_owner(const char *dir);

/*
 * Attach to the journal named by DEVPM_JOURNAL (a test program under the
 * runner); when it is unset, behave as devpm_journal_open_owner().
 */
int devpm_journal_attach(void);

void devpm_journal_close(void);

/* Current end of the journal; restore_since() puts back what came after. */
off_t devpm_journal_mark(void);
int devpm_journal_restore_since(off_t mark);
/* Restore everything and empty the journal.  Returns the number of records
 * restored, or -errno.  Invalid or truncated lines are reported on stderr
 * and skipped; the valid ones are still restored. */
int devpm_journal_restore_all(void);

/*
 * Write a PM knob: journal its old value (first write only), then write.
 * Refuses (-EPERM, devpm_error() says why) a knob of a device on the path
 * of a mounted filesystem unless --allow-disk (safety.h).
 */
int devpm_knob_write(const char *kpath, const char *val);
int devpm_knob_write_long(const char *kpath, long val);

/* Record an undo action after instantiating something. */
int devpm_journal_undo_write(const char *kpath, const char *val);
int devpm_journal_undo_module(const char *module);
int devpm_journal_undo_rmdir(const char *kpath);

/* Load a module if not loaded (modprobe), journaling its removal. */
int devpm_module_load(const char *module, const char *params);

#endif
