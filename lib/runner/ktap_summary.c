// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktap_summary.c - KTAP of any runner as the summary `devpm compare`
 * reads (ktap_summary.h).  Lenient where other runners differ (TAP 13 or
 * KTAP v1, "ok N - name", plans anywhere or none), strict only in what
 * it takes as a result: "ok"/"not ok", a number, a name.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap_summary.h"
#include "output.h"
#include "util.h"

#define MAX_DEPTH 16

static bool version_line(const char *s)
{
	return rn_starts(s, "KTAP version ") || rn_starts(s, "TAP version ");
}

bool rn_ktap_input(const char *text)
{
	const char *s;

	for (s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (version_line(s))
			return true;
	return false;
}

struct metric {
	char *dev, *name;
	double value;
};

struct ks {
	struct rn_buf b;
	size_t n;			/* entries written */
	char *name[MAX_DEPTH + 1];	/* "# Subtest:" per depth */
	struct metric *m[MAX_DEPTH + 1];	/* pending per depth */
	size_t nm[MAX_DEPTH + 1], cm[MAX_DEPTH + 1];
};

static void drop_metrics(struct ks *k, int d)
{
	size_t i;

	for (i = 0; i < k->nm[d]; i++) {
		free(k->m[d][i].dev);
		free(k->m[d][i].name);
	}
	k->nm[d] = 0;
}

/*
 * "# METRIC dev name=value" with a finite number for value.  The number
 * is kept, not the text: strtod() takes "92.", ".5", "+5", "0x10", which
 * JSON does not, and "inf" or "nan", which it has no word for.  It goes
 * out as output_json.c writes a metric ("%.15g").
 */
static void metric_line(struct ks *k, int d, const char *s)
{
	char dev[256], name[256], value[64], *end;
	double v;

	if (sscanf(s, "# METRIC %255s %255[^= ]=%63s", dev, name, value) != 3)
		return;
	errno = 0;
	v = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(v))
		return;
	rn_grow(&k->m[d], &k->cm[d], k->nm[d], sizeof(k->m[d][0]));
	k->m[d][k->nm[d]].dev = rn_xstrdup(dev);
	k->m[d][k->nm[d]].name = rn_xstrdup(name);
	k->m[d][k->nm[d]].value = v;
	k->nm[d]++;
}

/* The result and reason of a result line's "# ..." part. */
static const char *verdict(bool ok, const char *comment, const char **why)
{
	*why = comment ? comment : "";
	if (comment && !strncasecmp(comment, "SKIP", 4)) {
		*why = comment + 4 + strspn(comment + 4, " ");
		if (!strncasecmp(*why, "XFAIL", 5)) {
			*why += 5 + strspn(*why + 5, " ");
			return "xfail";
		}
		return "skip";
	}
	if (comment && !strncasecmp(comment, "XFAIL", 5)) {
		*why = comment + 5 + strspn(comment + 5, " ");
		return "xfail";
	}
	if (comment && !strncasecmp(comment, "TODO", 4)) {
		*why = comment + 4 + strspn(comment + 4, " ");
		return "skip";
	}
	return ok ? "pass" : "fail";
}

static void entry(struct ks *k, int d, bool ok, char *desc, char *comment)
{
	const char *res, *why;
	char *parts[MAX_DEPTH + 2];
	struct rn_buf kase = { 0 };
	int i, n = 0;
	size_t j;

	for (i = 1; i <= d; i++)
		if (k->name[i] && k->name[i][0])
			parts[n++] = k->name[i];
	parts[n++] = desc;
	for (i = 2; i < n; i++) {
		if (i > 2)
			rn_buf_add(&kase, "/");
		rn_buf_add(&kase, parts[i]);
	}
	res = verdict(ok, comment, &why);
	rn_buf_add(&k->b, k->n++ ? ",\n" : "\n");
	rn_buf_add(&k->b, "{\"suite\": ");
	rn_json_escape(&k->b, parts[0]);
	rn_buf_add(&k->b, ", \"program\": ");
	rn_json_escape(&k->b, n > 1 ? parts[1] : "");
	rn_buf_add(&k->b, ", \"case\": ");
	rn_json_escape(&k->b, kase.s ? kase.s : "");
	rn_buf_printf(&k->b, ", \"result\": \"%s\", \"reason\": ", res);
	rn_json_escape(&k->b, why);
	rn_buf_add(&k->b, ", \"metrics\": [");
	for (j = 0; j < k->nm[d]; j++) {
		rn_buf_add(&k->b, j ? ", {\"device\": " : "{\"device\": ");
		rn_json_escape(&k->b, k->m[d][j].dev);
		rn_buf_add(&k->b, ", \"name\": ");
		rn_json_escape(&k->b, k->m[d][j].name);
		rn_buf_printf(&k->b, ", \"value\": %.15g}", k->m[d][j].value);
	}
	rn_buf_add(&k->b, "]}");
	rn_buf_free(&kase);
	drop_metrics(k, d);
}

/* "ok 3 - name # comment": true with desc and comment split out. */
static bool result_line(char *s, bool *ok, char **desc, char **comment)
{
	char *p, *hash;

	if (rn_starts(s, "ok ")) {
		*ok = true;
		p = s + 3;
	} else if (rn_starts(s, "not ok ")) {
		*ok = false;
		p = s + 7;
	} else {
		return false;
	}
	if (!isdigit((unsigned char)*p))
		return false;
	p += strspn(p, "0123456789");
	p += strspn(p, " ");
	if (rn_starts(p, "- "))
		p += 2;
	hash = strstr(p, " #");
	if (!hash && *p == '#')
		hash = p - 1;
	*comment = NULL;
	if (hash) {
		*hash = '\0';
		*comment = hash + 2 + strspn(hash + 2, " ");
	}
	while (*p && p[strlen(p) - 1] == ' ')
		p[strlen(p) - 1] = '\0';
	*desc = p;
	return *p != '\0';
}

static void line(struct ks *k, char *raw)
{
	size_t indent = strspn(raw, " ");
	int d = (int)(indent / 4), i;
	char *s = raw + indent, *desc, *comment;
	bool ok;

	if (d > MAX_DEPTH)
		return;
	if (rn_starts(s, "# Subtest: ")) {
		free(k->name[d]);
		k->name[d] = rn_xstrdup(s + 11);
		return;
	}
	if (rn_starts(s, "# METRIC ")) {
		metric_line(k, d, s);
		return;
	}
	if (!result_line(s, &ok, &desc, &comment))
		return;
	entry(k, d, ok, desc, comment);
	/* The subtests of this result are over. */
	for (i = d + 1; i <= MAX_DEPTH; i++) {
		free(k->name[i]);
		k->name[i] = NULL;
		drop_metrics(k, i);
	}
}

char *rn_ktap_summary(const char *text, char *err, size_t len)
{
	struct ks k = { 0 };
	char *copy, *s, *next, *clean;
	bool started = false;
	int i;

	copy = rn_xstrdup(text);
	rn_buf_add(&k.b, "{\"cases\": [");
	for (s = copy; s && *s; s = next) {
		next = strchr(s, '\n');
		if (next)
			*next++ = '\0';
		if (*s && s[strlen(s) - 1] == '\r')
			s[strlen(s) - 1] = '\0';
		/* Before the first version line: not KTAP (a log's head). */
		if (!started && !version_line(s))
			continue;
		started = true;
		clean = rn_clean_text(s);
		line(&k, clean);
		free(clean);
	}
	rn_buf_add(&k.b, "\n]}\n");
	for (i = 0; i <= MAX_DEPTH; i++) {
		free(k.name[i]);
		drop_metrics(&k, i);
		free(k.m[i]);
	}
	free(copy);
	if (!k.n) {
		snprintf(err, len, "no result line (\"ok N name\" or \"not ok N name\")");
		rn_buf_free(&k.b);
		return NULL;
	}
	return k.b.s;
}
