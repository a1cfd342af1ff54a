/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal_restore.h - put back what an open journal holds (journal.h has
 * the format and what may be acted on), also from a signal handler.
 */
#ifndef DEVPM_JOURNAL_RESTORE_H
#define DEVPM_JOURNAL_RESTORE_H

#include <sys/types.h>

#include "state/journal_state.h"

/*
 * Put back the records in [from, end) last first, then cut the journal at
 * from (never before the header).  Returns the number restored; -EIO when
 * some could not be or were refused; -EINVAL when the range held lines but
 * not one valid record.  Each problem is said on stderr.
 */
int devpm_journal_restore_range(struct devpm_journal_state *j, off_t from);

/*
 * End every process of the sessions the journal's P records name (a
 * crashed run's test programs), never this process's own session.
 */
void devpm_journal_restore_sessions(const struct devpm_journal_state *j);

#endif
