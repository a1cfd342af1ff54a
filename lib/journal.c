// SPDX-License-Identifier: GPL-2.0-only
/* journal.c - STUB: to be implemented (journal.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

const char *devpm_journal_dir(void)
{
	return "";
}

int devpm_journal_open_owner(const char *dir)
{
	(void)dir;
	return -ENOSYS;
}

int devpm_journal_attach(void)
{
	return -ENOSYS;
}

void devpm_journal_close(void)
{
}

off_t devpm_journal_mark(void)
{
	return -ENOSYS;
}

int devpm_journal_restore_since(off_t mark)
{
	(void)mark;
	return -ENOSYS;
}

int devpm_journal_restore_all(void)
{
	return -ENOSYS;
}

int devpm_knob_write(const char *kpath, const char *val)
{
	(void)kpath;
	(void)val;
	return -ENOSYS;
}

int devpm_knob_write_long(const char *kpath, long val)
{
	(void)kpath;
	(void)val;
	return -ENOSYS;
}

int devpm_journal_undo_write(const char *kpath, const char *val)
{
	(void)kpath;
	(void)val;
	return -ENOSYS;
}

int devpm_journal_undo_module(const char *module)
{
	(void)module;
	return -ENOSYS;
}

int devpm_journal_undo_rmdir(const char *kpath)
{
	(void)kpath;
	return -ENOSYS;
}

int devpm_module_load(const char *module, const char *params)
{
	(void)module;
	(void)params;
	return -ENOSYS;
}
