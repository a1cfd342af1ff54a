// SPDX-License-Identifier: GPL-2.0-only
/* journal_undo.c - undo records of what devpm instantiated (journal_undo.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "state/journal_undo.h"
#include "core/module.h"
#include "core/sysfs.h"
#include "state/journal.h"
#include "state/journal_record.h"

static int undo_path(char type, const char *kpath, const char *val)
{
	char path[DEVPM_PATH_MAX];
	char rec[DEVPM_PATH_MAX + DEVPM_JOURNAL_VAL_MAX + 8];
	int r;

	if (!kpath || kpath[0] != '/' || !devpm_journal_record_clean(kpath) ||
	    (val && !devpm_journal_record_clean(val)))
		return devpm_fail(EINVAL, "cannot journal '%s' (%s)",
				  kpath ? kpath : "(null)",
				  "absolute path and value without tab or newline");
	r = devpm_journal_record_path(path, sizeof(path), kpath);
	if (r)
		return r;
	if (val)
		r = devpm_fmt(rec, sizeof(rec), "%c %s\t%s\n", type, path, val);
	else
		r = devpm_fmt(rec, sizeof(rec), "%c %s\n", type, path);
	return r ? r : devpm_journal_append(rec);
}

int devpm_journal_undo_write(const char *kpath, const char *val)
{
	if (!val)
		return devpm_fail(EINVAL, "%s: no value to put back",
				  kpath ? kpath : "(null)");
	return undo_path('U', kpath, val);
}

int devpm_journal_undo_rmdir(const char *kpath)
{
	return undo_path('D', kpath, NULL);
}

int devpm_journal_undo_unlink(const char *kpath)
{
	return undo_path('L', kpath, NULL);
}

int devpm_journal_undo_module(const char *module)
{
	char rec[128];

	if (!module || !devpm_module_name_ok(module) || strlen(module) > 60)
		return devpm_fail(EINVAL, "bad module name '%s'",
				  module ? module : "(null)");
	snprintf(rec, sizeof(rec), "M %s\n", module);
	return devpm_journal_append(rec);
}
