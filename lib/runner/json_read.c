// SPDX-License-Identifier: GPL-2.0-only
/* json_read.c - a minimal recursive-descent JSON reader (json.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

#define MAX_DEPTH 64

struct jp {
	const char *s, *start;
	char *err;
	size_t len;
	bool failed;
};

static struct rn_json *value(struct jp *p, int depth);

static void fail(struct jp *p, const char *what)
{
	if (!p->failed && p->err)
		snprintf(p->err, p->len, "%s at offset %zu", what,
			 (size_t)(p->s - p->start));
	p->failed = true;
}

static void ws(struct jp *p)
{
	while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' ||
	       *p->s == '\r')
		p->s++;
}

/* Append code point c as UTF-8 at *o. */
static void put_utf8(char **o, unsigned long c)
{
	char *u = *o;

	if (c < 0x80) {
		*u++ = c;
	} else if (c < 0x800) {
		*u++ = 0xc0 | (c >> 6);
		*u++ = 0x80 | (c & 0x3f);
	} else if (c < 0x10000) {
		*u++ = 0xe0 | (c >> 12);
		*u++ = 0x80 | ((c >> 6) & 0x3f);
		*u++ = 0x80 | (c & 0x3f);
	} else {
		*u++ = 0xf0 | (c >> 18);
		*u++ = 0x80 | ((c >> 12) & 0x3f);
		*u++ = 0x80 | ((c >> 6) & 0x3f);
		*u++ = 0x80 | (c & 0x3f);
	}
	*o = u;
}

static bool hex4(struct jp *p, unsigned long *c)
{
	int i;

	*c = 0;
	for (i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)p->s[i]))
			return false;
		*c = *c * 16 + (isdigit((unsigned char)p->s[i]) ?
				p->s[i] - '0' : (tolower(p->s[i]) - 'a' + 10));
	}
	p->s += 4;
	return true;
}

/*
 * The raw length of the string at s (after its opening quote) up to the
 * closing quote: a bound of what it decodes to (an escape is never
 * shorter in the text than its UTF-8).  Stops at the NUL of an
 * unterminated string, never past it.
 */
static size_t raw_len(const char *s)
{
	const char *q = s;

	while (*q && *q != '"')
		q += q[0] == '\\' && q[1] ? 2 : 1;
	return q - s;
}

static char *parse_string(struct jp *p)
{
	static const char esc_from[] = "\"\\/bfnrt";
	static const char esc_to[] = "\"\\/\b\f\n\r\t";
	unsigned long c, lo;
	const char *e;
	char *str, *o;

	p->s++;		/* opening quote */
	/* Sized once: a buffer per string that grows would cost far more. */
	str = rn_xmalloc(raw_len(p->s) + 1);
	o = str;
	while (*p->s != '"') {
		if (!*p->s || (unsigned char)*p->s < 0x20) {
			fail(p, "unterminated string");
			free(str);
			return NULL;
		}
		if (*p->s != '\\') {
			*o++ = *p->s++;
			continue;
		}
		p->s++;
		/* A backslash at the very end: do not step over the NUL. */
		if (!*p->s)
			goto bad;
		e = strchr(esc_from, *p->s);
		if (e) {
			*o++ = esc_to[e - esc_from];
			p->s++;
			continue;
		}
		if (*p->s++ != 'u' || !hex4(p, &c))
			goto bad;
		/* A surrogate pair makes one code point. */
		if (c >= 0xd800 && c < 0xdc00 && p->s[0] == '\\' &&
		    p->s[1] == 'u') {
			p->s += 2;
			if (!hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff)
				goto bad;
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
		} else if (c >= 0xd800 && c < 0xe000) {
			goto bad;
		}
		if (!c)
			goto bad;
		put_utf8(&o, c);
	}
	*o = '\0';
	p->s++;
	return str;
bad:
	fail(p, "bad escape in string");
	free(str);
	return NULL;
}

static struct rn_json *node(enum rn_jtype t)
{
	struct rn_json *j = rn_xmalloc(sizeof(*j));

	j->type = t;
	return j;
}

/* Items grow by doubling: a long array must not cost n² copies. */
static void push(struct rn_json *j, char *key, struct rn_json *item)
{
	if (j->n == j->cap) {
		j->cap = j->cap ? j->cap * 2 : 4;
		j->items = rn_xrealloc(j->items, j->cap * sizeof(*j->items));
		if (j->type == RN_J_OBJ)
			j->keys = rn_xrealloc(j->keys,
					      j->cap * sizeof(*j->keys));
	}
	if (j->type == RN_J_OBJ)
		j->keys[j->n] = key;
	j->items[j->n++] = item;
}

static struct rn_json *container(struct jp *p, int depth, bool obj)
{
	struct rn_json *j = node(obj ? RN_J_OBJ : RN_J_ARR), *item;
	char close = obj ? '}' : ']', *key = NULL;

	if (depth > MAX_DEPTH) {
		fail(p, "nested too deep");
		return j;
	}
	p->s++;
	ws(p);
	if (*p->s == close) {
		p->s++;
		return j;
	}
	for (;;) {
		ws(p);
		if (obj) {
			if (*p->s != '"') {
				fail(p, "expected a key");
				return j;
			}
			key = parse_string(p);
			if (!key)
				return j;
			ws(p);
			if (*p->s != ':') {
				free(key);
				fail(p, "expected ':'");
				return j;
			}
			p->s++;
		}
		item = value(p, depth + 1);
		push(j, key, item);
		key = NULL;
		if (p->failed)
			return j;
		ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == close) {
			p->s++;
			return j;
		}
		fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		return j;
	}
}

static const char *digits(const char *s)
{
	while (isdigit((unsigned char)*s))
		s++;
	return s;
}

/* End of a JSON number (RFC 8259 section 6) at s, or NULL. */
static char *number_end(const char *s)
{
	const char *d;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (isdigit((unsigned char)*s))
		s = digits(s);
	else
		return NULL;
	if (*s == '.') {
		d = digits(s + 1);
		if (d == s + 1)
			return NULL;
		s = d;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		d = digits(s);
		if (d == s)
			return NULL;
		s = d;
	}
	return (char *)s;
}

static struct rn_json *value(struct jp *p, int depth)
{
	struct rn_json *j;
	char *end;

	ws(p);
	if (*p->s == '{' || *p->s == '[')
		return container(p, depth, *p->s == '{');
	if (*p->s == '"') {
		j = node(RN_J_STR);
		j->str = parse_string(p);
		return j;
	}
	if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
		j = node(RN_J_BOOL);
		j->b = *p->s == 't';
		p->s += j->b ? 4 : 5;
		return j;
	}
	if (!strncmp(p->s, "null", 4)) {
		p->s += 4;
		return node(RN_J_NULL);
	}
	if (*p->s == '-' || isdigit((unsigned char)*p->s)) {
		j = node(RN_J_NUM);
		end = number_end(p->s);
		if (!end) {
			fail(p, "bad number");
			return j;
		}
		/* The grammar is checked: strtod() reads no "inf" or hex. */
		j->num = strtod(p->s, NULL);
		p->s = end;
		return j;
	}
	fail(p, *p->s ? "unexpected character" : "unexpected end");
	return node(RN_J_NULL);
}

struct rn_json *rn_json_parse(const char *text, char *err, size_t len)
{
	struct jp p = { .s = text, .start = text, .err = err, .len = len };
	struct rn_json *j;

	if (err && len)
		err[0] = '\0';
	j = value(&p, 0);
	ws(&p);
	if (!p.failed && *p.s)
		fail(&p, "trailing text");
	if (p.failed) {
		rn_json_free(j);
		return NULL;
	}
	return j;
}

void rn_json_free(struct rn_json *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; i < j->n; i++) {
		rn_json_free(j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->str);
	free(j);
}

const struct rn_json *rn_json_get(const struct rn_json *j, const char *key)
{
	size_t i;

	if (!j || j->type != RN_J_OBJ)
		return NULL;
	for (i = 0; i < j->n; i++)
		if (!strcmp(j->keys[i], key))
			return j->items[i];
	return NULL;
}

const char *rn_json_str(const struct rn_json *j, const char *key)
{
	const struct rn_json *v = rn_json_get(j, key);

	return v && v->type == RN_J_STR ? v->str : NULL;
}

bool rn_json_num(const struct rn_json *j, const char *key, double *v)
{
	const struct rn_json *n = rn_json_get(j, key);

	if (!n || n->type != RN_J_NUM)
		return false;
	*v = n->num;
	return true;
}
