/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal_say.h - one line on stderr from the journal's restore, which
 * also runs in a signal handler: vsnprintf and write(2), no stdio lock.
 */
#ifndef DEVPM_JOURNAL_SAY_H
#define DEVPM_JOURNAL_SAY_H

void devpm_journal_say(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
