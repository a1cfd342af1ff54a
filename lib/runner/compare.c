// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - `devpm compare OLD NEW`: regressions between two runs'
 * summary.json (or KTAP files of any runner: ktap_summary.h), one line
 * each, exit 1 if any.
 *
 * A regression is: a case that passed and now fails; a failure that is new
 * (the case was absent, skipped or an expected failure before); a metric
 * whose name ends in _us or _ms (larger is worse) that grew by more than
 * 20%, unless both values are under 1 ms (1000 µs): differences that small
 * are scheduling noise, not power management.  Metrics of other names have
 * no known direction and are not judged.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "json.h"
#include "ktap_summary.h"
#include "util.h"

#define WORSE_RATIO 1.20
#define NOISE_US 1000.0

static struct rn_json *load(const char *arg, char *path, size_t len)
{
	char err[256], *text;
	struct rn_json *j;
	struct stat st;

	if (!stat(arg, &st) && S_ISDIR(st.st_mode))
		snprintf(path, len, "%s/summary.json", arg);
	else
		snprintf(path, len, "%s", arg);
	text = rn_read_file(path, NULL);
	if (!text) {
		rn_usage_error("compare: %s: %s; give two run directories (results/<run-id>) or KTAP files",
			       path, strerror(errno));
		return NULL;
	}
	/* KTAP of any runner: its summary (ktap_summary.h). */
	if (rn_ktap_input(text)) {
		char *json = rn_ktap_summary(text, err, sizeof(err));

		free(text);
		if (!json) {
			rn_usage_error("compare: %s is KTAP with %s", path,
				       err);
			return NULL;
		}
		text = json;
	}
	j = rn_json_parse(text, err, sizeof(err));
	free(text);
	if (!j) {
		rn_usage_error("compare: %s is not valid JSON (%s); was the run interrupted? use 'devpm collect'",
			       path, err);
		return NULL;
	}
	if (!rn_json_get(j, "cases") ||
	    rn_json_get(j, "cases")->type != RN_J_ARR) {
		rn_usage_error("compare: %s is not a devpm summary (no \"cases\" list)",
			       path);
		rn_json_free(j);
		return NULL;
	}
	return j;
}

static void key_of(const struct rn_json *c, char *buf, size_t len)
{
	const char *cs = rn_json_str(c, "case");

	snprintf(buf, len, "%s/%s%s%s", rn_json_str(c, "suite") ?: "?",
		 rn_json_str(c, "program") ?: "?", cs && cs[0] ? "/" : "",
		 cs ? cs : "");
}

static const struct rn_json *find(const struct rn_json *cases,
				  const char *key)
{
	char k[1024];
	size_t i;

	for (i = 0; i < cases->n; i++) {
		key_of(cases->items[i], k, sizeof(k));
		if (!strcmp(k, key))
			return cases->items[i];
	}
	return NULL;
}

static const char *result(const struct rn_json *c)
{
	const char *r = c ? rn_json_str(c, "result") : NULL;

	return r ? r : "absent";
}

/* The metric (device, name) of a case entry. */
static bool metric(const struct rn_json *c, const char *dev,
		   const char *name, double *v)
{
	const struct rn_json *m = rn_json_get(c, "metrics");
	size_t i;

	for (i = 0; m && m->type == RN_J_ARR && i < m->n; i++) {
		const char *d = rn_json_str(m->items[i], "device");
		const char *n = rn_json_str(m->items[i], "name");

		if (d && n && !strcmp(d, dev) && !strcmp(n, name))
			return rn_json_num(m->items[i], "value", v);
	}
	return false;
}

static bool ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Metrics of c that got worse than in old; prints each.  Returns count. */
static int slower(const char *key, const struct rn_json *old,
		  const struct rn_json *c)
{
	const struct rn_json *m = rn_json_get(c, "metrics");
	double was, now, scale;
	int n = 0;
	size_t i;

	for (i = 0; old && m && m->type == RN_J_ARR && i < m->n; i++) {
		const char *d = rn_json_str(m->items[i], "device");
		const char *name = rn_json_str(m->items[i], "name");

		if (!d || !name || !rn_json_num(m->items[i], "value", &now))
			continue;
		if (ends(name, "_us"))
			scale = 1;
		else if (ends(name, "_ms"))
			scale = 1000;
		else
			continue;
		if (!metric(old, d, name, &was) || !isfinite(was) ||
		    !isfinite(now))
			continue;
		if (now <= was * WORSE_RATIO ||
		    (was > now ? was : now) * scale < NOISE_US)
			continue;
		printf("SLOWER %s %s %s: %g -> %g", key, d, name, was, now);
		if (was > 0)
			printf(" (+%.0f%%)", (now / was - 1) * 100);
		printf("\n");
		n++;
	}
	return n;
}

int rn_cmd_compare(int argc, char **argv)
{
	struct rn_json *old = NULL, *new = NULL;
	const struct rn_json *oc, *nc, *prev;
	char po[PATH_MAX], pn[PATH_MAX], key[1024];
	const char *was, *now, *reason;
	int bad = 0;
	size_t i;

	if (argc != 3)
		return rn_usage_error("compare needs two run directories: devpm compare OLD NEW");
	old = load(argv[1], po, sizeof(po));
	if (old)
		new = load(argv[2], pn, sizeof(pn));
	if (!old || !new) {
		rn_json_free(old);
		return RN_EXIT_USAGE;
	}
	oc = rn_json_get(old, "cases");
	nc = rn_json_get(new, "cases");
	for (i = 0; i < nc->n; i++) {
		key_of(nc->items[i], key, sizeof(key));
		prev = find(oc, key);
		was = result(prev);
		now = result(nc->items[i]);
		reason = rn_json_str(nc->items[i], "reason") ?: "";
		if (!strcmp(now, "fail") && !strcmp(was, "pass")) {
			printf("REGRESSION %s: pass -> fail: %s\n", key, reason);
			bad++;
		} else if (!strcmp(now, "fail") && strcmp(was, "fail")) {
			printf("NEW FAILURE %s: %s -> fail: %s\n", key, was,
			       reason);
			bad++;
		}
		bad += slower(key, prev, nc->items[i]);
	}
	printf("devpm compare: %d regression(s); %zu case(s) in %s against %zu in %s\n",
	       bad, nc->n, pn, oc->n, po);
	rn_json_free(old);
	rn_json_free(new);
	return bad ? RN_EXIT_FAIL : RN_EXIT_OK;
}
