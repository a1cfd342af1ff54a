/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob.h - write a PM knob so that it is put back (journal.h): its old
 * value journaled first, then the write.
 */
#ifndef DEVPM_KNOB_H
#define DEVPM_KNOB_H

/*
 * Write a PM knob: journal its old value (first write only), then write.
 * Writing the value it already has does nothing (no record, no write).
 * A choice list ("s2idle [deep]") is journaled as the chosen word, an
 * unset driver_override ("(null)") as empty.  An empty value is written as
 * "\n" (sysfs ignores an empty write).
 * Refuses (-EPERM, devpm_error() says why) a knob of a device on the path
 * of a mounted filesystem unless --allow-disk (safety.h); the device is the
 * path before /power/, else the knob's directory.
 */
int devpm_knob_write(const char *kpath, const char *val);
int devpm_knob_write_long(const char *kpath, long val);

/*
 * The same for a knob whose path is built first, checked for length:
 * devpm_knob_writef("auto", "%s/power/control", d->path).  -ENAMETOOLONG
 * (devpm_error() names the start of the path) when it does not fit.
 */
int devpm_knob_writef(const char *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
