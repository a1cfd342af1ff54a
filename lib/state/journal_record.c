// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal_record.c - the fields of journal records (journal_record.h).
 * escape() runs in the signal-safe restore: no malloc, no stdio.
 */
#include <errno.h>
#include <string.h>

#include "state/journal_record.h"
#include "core/sysfs.h"

void devpm_journal_record_escape(char *out, size_t len, const char *s,
				 size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c;
	size_t i, o = 0;

	if (n > 160)
		n = 160;
	for (i = 0; i < n && o + 5 < len; i++) {
		c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			out[o++] = c;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	out[o] = '\0';
}

bool devpm_journal_record_clean(const char *s)
{
	return !strchr(s, '\t') && !strchr(s, '\n');
}

bool devpm_journal_record_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0 && n < 20;
}

void devpm_journal_record_selected(char *v)
{
	char *open = strchr(v, '['), *close;

	if (!open)
		return;
	close = strchr(open, ']');
	if (!close || close == open + 1 || memchr(open, ' ', close - open) ||
	    strchr(close + 1, '[') || (open > v && open[-1] != ' ') ||
	    (close[1] != '\0' && close[1] != ' '))
		return;
	*close = '\0';
	memmove(v, open + 1, close - open);
}

bool devpm_journal_record_plain_rel(const char *rel)
{
	const char *c = rel;
	size_t n;

	for (;;) {
		n = strcspn(c, "/");
		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!c[n])
			return true;
		c += n + 1;
	}
}

/*
 * The restore follows no link that leaves <root>/sys, and a tree's links
 * may be absolute: the directory is recorded resolved.
 */
int devpm_journal_record_path(char *buf, size_t len, const char *kpath)
{
	char dir[DEVPM_PATH_MAX], res[DEVPM_PATH_MAX];
	const char *base = strrchr(kpath, '/');

	if (strncmp(kpath, "/sys/", 5) || !base || base == kpath ||
	    devpm_fmt(dir, sizeof(dir), "%.*s", (int)(base - kpath), kpath) ||
	    devpm_resolve(dir, res, sizeof(res)) || !strcmp(res, "/"))
		return devpm_real_path(buf, len, kpath);
	if (devpm_fmt(dir, sizeof(dir), "%s%s", res, base))
		return -ENAMETOOLONG;
	return devpm_real_path(buf, len, dir);
}
