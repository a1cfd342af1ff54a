// SPDX-License-Identifier: GPL-2.0-only
/*
 * request.c - the guest's request lines (protocol in lib/core/host.h) and the
 * QMP commands they become.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

#define USAGE "ping | key [--dev ID] QCODE... | link NETDEV on|off | " \
	      "wake [auto|mem|freeze] [TIMEOUT_MS] [delay MS] " \
	      "[key [--dev ID] QCODE...]"

static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* QOM ids, netdev ids and qcodes: no quoting needed in the JSON. */
static bool is_ident(const char *s, size_t max, bool plus)
{
	size_t n = strlen(s);

	if (!n || n >= max)
		return false;
	for (; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		    *s == '.' || (plus && *s == '+'))
			continue;
		return false;
	}
	return true;
}

static int chord_parts(const char *s)
{
	int n = 1;

	for (; *s; s++)
		n += *s == '+';
	return n;
}

/* "[--dev ID] QCODE..." from tok[i] on, into r's dev and keys. */
static int parse_keys(char **tok, int n, int i, struct request *r,
		      char *why, size_t len)
{
	if (n > i && !strcmp(tok[i], "--dev")) {
		if (n < i + 2 || !is_ident(tok[i + 1], sizeof(r->dev), false))
			return bad(why, len,
				   "err usage: key [--dev ID] QCODE...");
		strcpy(r->dev, tok[i + 1]);
		i += 2;
	}
	if (i == n)
		return bad(why, len, "err usage: key [--dev ID] QCODE...");
	for (; i < n; i++) {
		if (r->nkeys == REQ_MAX_KEYS)
			return bad(why, len, "err at most %d keys",
				   REQ_MAX_KEYS);
		if (!is_ident(tok[i], sizeof(r->keys[0]), true) ||
		    chord_parts(tok[i]) > 8 ||
		    tok[i][0] == '+' ||
		    tok[i][strlen(tok[i]) - 1] == '+' ||
		    strstr(tok[i], "++"))
			return bad(why, len,
				   "err bad qcode '%s' (QMP QKeyCode names: a, shift, ret, shift+a)",
				   tok[i]);
		strcpy(r->keys[r->nkeys++], tok[i]);
	}
	return 0;
}

int request_parse(const char *line, struct request *r, char *why,
		  size_t len)
{
	char buf[512], *tok[REQ_MAX_KEYS + 4], *save = NULL, *t;
	int n = 0, i = 1;

	memset(r, 0, sizeof(*r));
	if (strlen(line) >= sizeof(buf))
		return bad(why, len, "err request too long");
	strcpy(buf, line);
	for (t = strtok_r(buf, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == (int)(sizeof(tok) / sizeof(tok[0])))
			return bad(why, len, "err too many words (at most %d keys)",
				   REQ_MAX_KEYS);
		tok[n++] = t;
	}
	if (!n)
		return bad(why, len, "err empty request; usage: " USAGE);

	if (!strcmp(tok[0], "ping")) {
		if (n != 1)
			return bad(why, len, "err usage: ping");
		r->kind = REQ_PING;
		return 0;
	}
	if (!strcmp(tok[0], "key")) {
		r->kind = REQ_KEY;
		return parse_keys(tok, n, 1, r, why, len);
	}
	if (!strcmp(tok[0], "link")) {
		r->kind = REQ_LINK;
		if (n != 3 || !is_ident(tok[1], sizeof(r->netdev), false) ||
		    (strcmp(tok[2], "on") && strcmp(tok[2], "off")))
			return bad(why, len, "err usage: link NETDEV on|off");
		strcpy(r->netdev, tok[1]);
		r->up = !strcmp(tok[2], "on");
		return 0;
	}
	if (!strcmp(tok[0], "wake")) {
		r->kind = REQ_WAKE;
		r->wake = WAKE_AUTO;
		r->timeout_ms = 30000;
		for (i = 1; i < n && strcmp(tok[i], "key"); i++)
			;
		if (i < n) {
			r->wake_key = true;
			if (parse_keys(tok, n, i + 1, r, why, len))
				return -EINVAL;
			n = i;
		}
		for (i = 1; i + 1 < n && strcmp(tok[i], "delay"); i++)
			;
		if (i + 1 < n) {
			char *end;
			long v = strtol(tok[i + 1], &end, 10);

			if (*end || v < 0 || v > 60000 || i + 2 != n)
				return bad(why, len,
					   "err wake: delay takes 0..60000 ms, after the mode and timeout");
			r->delay_ms = v;
			n = i;
		}
		if (n > 3)
			return bad(why, len,
				   "err usage: wake [auto|mem|freeze] [TIMEOUT_MS] [delay MS] [key [--dev ID] QCODE...]");
		for (i = 1; i < n; i++) {
			char *end;
			long v;

			if (!strcmp(tok[i], "auto")) {
				r->wake = WAKE_AUTO;
				continue;
			}
			if (!strcmp(tok[i], "mem")) {
				r->wake = WAKE_MEM;
				continue;
			}
			if (!strcmp(tok[i], "freeze")) {
				r->wake = WAKE_FREEZE;
				continue;
			}
			v = strtol(tok[i], &end, 10);
			if (*end || v < 100 || v > 600000)
				return bad(why, len,
					   "err wake: '%s' is neither auto|mem|freeze nor a timeout of 100..600000 ms",
					   tok[i]);
			r->timeout_ms = v;
		}
		return 0;
	}
	return bad(why, len, "err unknown request '%s'; usage: " USAGE, tok[0]);
}

/* Append to buf at *o; -ENOSPC when it does not fit. */
static int put(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *o)
		return -ENOSPC;
	*o += n;
	return 0;
}

static int key_event(char *buf, size_t len, size_t *o, bool *first,
		     const char *qcode, size_t n, bool down)
{
	int r = put(buf, len, o,
		    "%s{\"type\":\"key\",\"data\":{\"down\":%s,"
		    "\"key\":{\"type\":\"qcode\",\"data\":\"%.*s\"}}}",
		    *first ? "" : ",", down ? "true" : "false", (int)n, qcode);

	*first = false;
	return r;
}

/*
 * Each key pressed and released in turn; a chord "a+b+c" presses a, b,
 * c and releases them in reverse.
 */
static int key_command(const struct request *r, const char *console,
		       int head, char *buf, size_t len)
{
	const char *part[8];
	size_t plen[8], o = 0;
	bool first = true;
	int i, j, np;

	if (put(buf, len, &o, "{\"execute\":\"input-send-event\","
		"\"arguments\":{") ||
	    (console && console[0] &&
	     put(buf, len, &o, "\"device\":\"%s\",\"head\":%d,", console,
		 head)) ||
	    put(buf, len, &o, "\"events\":["))
		return -ENOSPC;
	for (i = 0; i < r->nkeys; i++) {
		const char *s = r->keys[i], *plus;

		for (np = 0; np < 8; np++) {
			plus = strchr(s, '+');
			part[np] = s;
			plen[np] = plus ? (size_t)(plus - s) : strlen(s);
			if (!plus) {
				np++;
				break;
			}
			s = plus + 1;
		}
		for (j = 0; j < np; j++)
			if (key_event(buf, len, &o, &first, part[j], plen[j],
				      true))
				return -ENOSPC;
		for (j = np - 1; j >= 0; j--)
			if (key_event(buf, len, &o, &first, part[j], plen[j],
				      false))
				return -ENOSPC;
	}
	return put(buf, len, &o, "]}}");
}

int request_qmp(const struct request *r, const char *console, int head,
		char *buf, size_t len)
{
	size_t o = 0;

	switch (r->kind) {
	case REQ_KEY:
		return key_command(r, console, head, buf, len);
	case REQ_LINK:
		return put(buf, len, &o,
			   "{\"execute\":\"set_link\",\"arguments\":"
			   "{\"name\":\"%s\",\"up\":%s}}",
			   r->netdev, r->up ? "true" : "false");
	default:
		return -EINVAL;
	}
}
