// SPDX-License-Identifier: GPL-2.0-only
/* knob.c - journaled writes of PM knobs (knob.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "state/knob.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "state/journal.h"
#include "state/journal_record.h"

/*
 * The device a knob belongs to: the path before /power/, else the knob's
 * directory, links resolved (a /sys/bus/.../devices/X path is a device).
 */
static void knob_device(const char *kpath, char *dev, size_t len)
{
	char d[DEVPM_PATH_MAX];
	char *p;

	snprintf(d, sizeof(d), "%s", kpath);
	p = strstr(d, "/power/");
	if (!p)
		p = strrchr(d, '/');
	if (p && p != d)
		*p = '\0';
	if (devpm_resolve(d, dev, len))
		snprintf(dev, len, "%s", d);
}

int devpm_knob_write(const char *kpath, const char *val)
{
	char cur[DEVPM_JOURNAL_VAL_MAX], want[DEVPM_JOURNAL_VAL_MAX];
	char rec[DEVPM_PATH_MAX + DEVPM_JOURNAL_VAL_MAX + 8];
	char path[DEVPM_PATH_MAX], dev[DEVPM_PATH_MAX], why[300];
	const char *p;
	size_t n;
	int r;

	if (!kpath || kpath[0] != '/' || !devpm_journal_record_clean(kpath) ||
	    !val)
		return devpm_fail(EINVAL, "bad knob path '%s'",
				  kpath ? kpath : "(null)");
	if (devpm_fmt(want, sizeof(want), "%s", val))
		return devpm_fail(EINVAL, "%s: value too long", kpath);
	n = strlen(want);
	if (n && want[n - 1] == '\n')
		want[--n] = '\0';
	if (!devpm_journal_record_clean(want))
		return devpm_fail(EINVAL, "%s: value '%s' has a tab or newline",
				  kpath, val);
	if (!devpm_allow_disk()) {
		knob_device(kpath, dev, sizeof(dev));
		if (devpm_dev_protected(dev, why, sizeof(why)))
			return devpm_fail(EPERM, "refusing to write %s: %s; pass --allow-disk to allow it",
					  kpath, why);
	}
	r = devpm_read_str(kpath, cur, sizeof(cur));
	if (r)
		return r;
	devpm_journal_record_selected(cur);
	/* An unset driver_override reads "(null)"; written, it would stick. */
	p = strrchr(kpath, '/');
	if (!strcmp(p, "/driver_override") && !strcmp(cur, "(null)"))
		cur[0] = '\0';
	if (!strcmp(cur, want))
		return 0;
	if (!devpm_journal_record_clean(cur))
		return devpm_fail(EINVAL, "%s: cannot journal its value '%s' (tab or newline)",
				  kpath, cur);
	/* Record the path the restore must write: inside a tree, the tree. */
	r = devpm_journal_record_path(path, sizeof(path), kpath);
	if (r)
		return r;
	if (!devpm_journal_recorded(path)) {
		snprintf(rec, sizeof(rec), "W %s\t%s\n", path, cur);
		r = devpm_journal_append(rec);
		if (r)
			return r;
	}
	/* sysfs ignores an empty write: clear with a newline, as echo does. */
	return devpm_write_str(kpath, want[0] ? want : "\n");
}

int devpm_knob_write_long(const char *kpath, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", val);
	return devpm_knob_write(kpath, buf);
}

int devpm_knob_writef(const char *val, const char *fmt, ...)
{
	char kpath[DEVPM_PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(kpath, sizeof(kpath), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(kpath))
		return devpm_fail(ENAMETOOLONG, "knob path %.120s...: longer than %zu bytes",
				  kpath, sizeof(kpath) - 1);
	return devpm_knob_write(kpath, val);
}
