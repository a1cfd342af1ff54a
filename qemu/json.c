// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - key lookups in one JSON text, enough for QMP replies and
 * events and for our own summary.json: no general parser is needed for
 * documents whose shape we know.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

const char *json_key(const char *p, const char *key)
{
	size_t n = strlen(key);
	const char *q;

	for (q = p; (q = strchr(q, '"')); q++) {
		if (strncmp(q + 1, key, n) || q[n + 1] != '"')
			continue;
		/* A key, not a string value that happens to match. */
		q += n + 2;
		while (isspace((unsigned char)*q))
			q++;
		if (*q != ':')
			continue;
		q++;
		while (isspace((unsigned char)*q))
			q++;
		return q;
	}
	return NULL;
}

int json_str(const char *p, const char *key, char *out, size_t len)
{
	const char *q = json_key(p, key);
	size_t o = 0;

	if (!q)
		return -ENOENT;
	if (*q != '"')
		return -EINVAL;
	for (q++; *q && *q != '"'; q++) {
		char c = *q;

		if (c == '\\') {
			q++;
			switch (*q) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'u':
				/* Our texts are ASCII: keep a marker. */
				c = '?';
				if (strlen(q) >= 5)
					q += 4;
				break;
			case '\0':
				return -EINVAL;
			default:
				c = *q;
			}
		}
		if (o + 1 < len)
			out[o++] = c;
	}
	if (*q != '"')
		return -EINVAL;
	if (len)
		out[o] = '\0';
	return 0;
}

int json_bool(const char *p, const char *key, bool *val)
{
	const char *q = json_key(p, key);

	if (!q)
		return -ENOENT;
	if (!strncmp(q, "true", 4))
		*val = true;
	else if (!strncmp(q, "false", 5))
		*val = false;
	else
		return -EINVAL;
	return 0;
}

int json_int(const char *p, const char *key, long *val)
{
	const char *q = json_key(p, key);
	char *end;

	if (!q)
		return -ENOENT;
	errno = 0;
	*val = strtol(q, &end, 10);
	if (end == q || errno)
		return -EINVAL;
	return 0;
}
