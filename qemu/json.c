// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - lookups in one JSON text (QMP replies and events): the text is
 * parsed whole by the runner's reader (lib/runner/json_read.c), so a key is
 * found only where the path says, never inside a string or another object.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "agent.h"
#include "runner/json.h"

/* The value at a dotted path ("return.status") of text's top object. */
static const struct rn_json *lookup(const struct rn_json *j,
				    const char *path)
{
	char part[128];
	const char *dot;
	size_t n;

	while (j && *path) {
		dot = strchr(path, '.');
		n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		j = rn_json_get(j, part);
		path += n + !!dot;
	}
	return j;
}

/* Parse text and find path: 0, -ENOENT, or -EINVAL (not JSON). */
static int find(const char *text, const char *path, struct rn_json **doc,
		const struct rn_json **v)
{
	*doc = rn_json_parse(text, NULL, 0);
	if (!*doc)
		return -EINVAL;
	*v = lookup(*doc, path);
	if (!*v) {
		rn_json_free(*doc);
		return -ENOENT;
	}
	return 0;
}

bool json_has(const char *text, const char *path)
{
	const struct rn_json *v;
	struct rn_json *doc;

	if (find(text, path, &doc, &v))
		return false;
	rn_json_free(doc);
	return true;
}

int json_str(const char *text, const char *path, char *out, size_t len)
{
	const struct rn_json *v;
	struct rn_json *doc;
	int r = find(text, path, &doc, &v);

	if (r)
		return r;
	if (v->type != RN_J_STR) {
		r = -EINVAL;
	} else if (len) {
		/* Cut at a whole UTF-8 character. */
		size_t n = strlen(v->str);

		if (n >= len) {
			n = len - 1;
			while (n && ((unsigned char)v->str[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(out, v->str, n);
		out[n] = '\0';
	}
	rn_json_free(doc);
	return r;
}

int json_bool(const char *text, const char *path, bool *val)
{
	const struct rn_json *v;
	struct rn_json *doc;
	int r = find(text, path, &doc, &v);

	if (r)
		return r;
	if (v->type == RN_J_BOOL)
		*val = v->b;
	else
		r = -EINVAL;
	rn_json_free(doc);
	return r;
}

int json_int(const char *text, const char *path, long *val)
{
	const struct rn_json *v;
	struct rn_json *doc;
	int r = find(text, path, &doc, &v);

	if (r)
		return r;
	if (v->type == RN_J_NUM && v->num == floor(v->num) &&
	    fabs(v->num) < 9e15)
		*val = (long)v->num;
	else
		r = -EINVAL;
	rn_json_free(doc);
	return r;
}
