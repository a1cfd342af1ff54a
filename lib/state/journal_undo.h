/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal_undo.h - record the undo of something devpm instantiated (an
 * i2c client, a configfs gadget, a loaded module): U, D, L and M records
 * (journal.h), carried out by the restore.
 */
#ifndef DEVPM_JOURNAL_UNDO_H
#define DEVPM_JOURNAL_UNDO_H

int devpm_journal_undo_write(const char *kpath, const char *val);
int devpm_journal_undo_module(const char *module);
int devpm_journal_undo_rmdir(const char *kpath);
int devpm_journal_undo_unlink(const char *kpath);

#endif
