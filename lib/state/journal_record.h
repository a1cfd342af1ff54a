/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal_record.h - the fields of a journal record (journal.h has the
 * format): what may go into one, how a path is recorded, and how a line
 * read back is shown when it is refused.  No state, no I/O but the
 * resolution of a knob's directory.
 */
#ifndef DEVPM_JOURNAL_RECORD_H
#define DEVPM_JOURNAL_RECORD_H

#include <stdbool.h>
#include <stddef.h>

/* Largest value a record holds (a sysfs attribute is at most a page). */
#define DEVPM_JOURNAL_VAL_MAX	4096

/* Bytes escape() needs for its at most 160 bytes of input. */
#define DEVPM_JOURNAL_ESC_MAX	(4 * 160 + 1)

/*
 * Untrusted bytes for a message: \xNN for a control byte, a backslash or
 * anything not ASCII, at most 160 bytes of input.
 */
void devpm_journal_record_escape(char *out, size_t len, const char *s,
				 size_t n);

/* No tab or newline: s fits in one field of one record. */
bool devpm_journal_record_clean(const char *s);

/* n decimal digits, 1 to 19 of them (a pid, a start time). */
bool devpm_journal_record_digits(const char *s, size_t n);

/*
 * "s2idle [deep]", "[none] core processor": the kernel shows a choice
 * list with the current one in brackets; only that word can be written
 * back, so v becomes that word.  Anything else is left as it is.
 */
void devpm_journal_record_selected(char *v);

/* rel names something below a directory: no empty, "." or ".." part. */
bool devpm_journal_record_plain_rel(const char *rel);

/*
 * The path a record names for kpath: the real path (under a sysfs root,
 * inside the tree), its directory's links resolved, the last part as it
 * is (a configfs link is removed, not followed).  0 or -errno.
 */
int devpm_journal_record_path(char *buf, size_t len, const char *kpath);

#endif
