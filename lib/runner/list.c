// SPDX-License-Identifier: GPL-2.0-only
/*
 * list.c - `devpm list [--suite S]... [--test GLOB] [--json]`: every
 * suite, program and case with what the program needs (its --needs
 * answer) and whether this host meets each need (needs_met.h), so that
 * which programs would SKIP, and why, is known before a run.
 * `devpm list --write-cache` records every program's answers in the
 * suites directory instead (probe_cache.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "needs_met.h"
#include "output.h"
#include "probe_cache.h"
#include "suites.h"

static const struct option list_longopts[] = {
	{ "suite", required_argument, NULL, 's' },
	{ "test", required_argument, NULL, 't' },
	{ "write-cache", no_argument, NULL, 'W' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static bool wanted(char **suites, size_t n, const char *suite)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(suites[i], suite))
			return true;
	return !n;
}

/* One need of p's: "key: value", judged here. */
struct need {
	char key[64];
	const char *value;
	enum rn_met met;
	char why[256];
};

/* Split p's needs lines and judge each; returns how many (at most max). */
static size_t needs_of(struct rn_progspec *p, struct need *v, size_t max)
{
	char *save = NULL, *line, *colon;
	size_t n = 0;

	for (line = p->needs.s ? strtok_r(p->needs.s, "\n", &save) : NULL;
	     line && n < max; line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		snprintf(v[n].key, sizeof(v[n].key), "%.*s",
			 colon ? (int)(colon - line) : (int)strlen(line), line);
		v[n].value = colon ? colon + 1 + strspn(colon + 1, " ") : "";
		v[n].met = rn_need_met(v[n].key, v[n].value, v[n].why,
				       sizeof(v[n].why));
		n++;
	}
	return n;
}

/* What a run here would do with the program, from its needs. */
static void verdict(const struct need *v, size_t n, char *buf, size_t len)
{
	struct rn_buf optin = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].met == RN_MET_NO) {
			snprintf(buf, len, "would SKIP: %s %s (%s)", v[i].key,
				 v[i].value, v[i].why);
			return;
		}
	for (i = 0; i < n; i++)
		if (v[i].met == RN_MET_OPTIN)
			rn_buf_printf(&optin, " --%s", v[i].key);
	if (optin.s)
		snprintf(buf, len, "runs here with%s", optin.s);
	else
		snprintf(buf, len, "runs here");
	rn_buf_free(&optin);
}

#define MAX_NEEDS 64

static void show(struct rn_progspec *p)
{
	struct need v[MAX_NEEDS];
	char what[512], kv[300];
	size_t i, n;

	if (!p->list_ok) {
		printf("%s/%s (timeout %d s)\n", p->suite, p->name,
		       p->timeout_s);
		printf("    cannot list cases: %s\n", p->list_error);
		return;
	}
	n = needs_of(p, v, MAX_NEEDS);
	verdict(v, n, what, sizeof(what));
	printf("%s/%s (timeout %d s): %s\n", p->suite, p->name, p->timeout_s,
	       what);
	for (i = 0; i < n; i++) {
		snprintf(kv, sizeof(kv), "%s: %s", v[i].key, v[i].value);
		if (v[i].met == RN_MET_INFO)
			printf("    needs %s\n", kv);
		else
			printf("    needs %-44s %-7s %s\n", kv,
			       rn_met_name(v[i].met), v[i].why);
	}
	for (i = 0; i < p->ncases; i++)
		printf("    %s\n", p->cases[i]);
}

static void show_json(struct rn_buf *b, struct rn_progspec *p, bool comma)
{
	struct need v[MAX_NEEDS];
	char what[512];
	size_t i, n = 0;

	rn_buf_add(b, "  {\"suite\": ");
	rn_json_escape(b, p->suite);
	rn_buf_add(b, ", \"program\": ");
	rn_json_escape(b, p->name);
	rn_buf_printf(b, ", \"timeout_s\": %d, ", p->timeout_s);
	if (!p->list_ok) {
		rn_buf_add(b, "\"list_error\": ");
		rn_json_escape(b, p->list_error);
		rn_buf_add(b, ", ");
	} else {
		n = needs_of(p, v, MAX_NEEDS);
	}
	verdict(v, n, what, sizeof(what));
	rn_buf_add(b, "\"here\": ");
	rn_json_escape(b, p->list_ok ? what : "cannot list its cases");
	rn_buf_add(b, ",\n   \"needs\": [");
	for (i = 0; i < n; i++) {
		rn_buf_add(b, i ? ", {\"key\": " : "{\"key\": ");
		rn_json_escape(b, v[i].key);
		rn_buf_add(b, ", \"value\": ");
		rn_json_escape(b, v[i].value);
		rn_buf_add(b, ", \"met\": ");
		rn_json_escape(b, v[i].met == RN_MET_INFO ? "info" :
			       v[i].met == RN_MET_NO ? "no" :
			       v[i].met == RN_MET_YES ? "yes" :
			       rn_met_name(v[i].met));
		rn_buf_add(b, ", \"why\": ");
		rn_json_escape(b, v[i].why);
		rn_buf_add(b, "}");
	}
	rn_buf_add(b, "],\n   \"cases\": [");
	for (i = 0; i < p->ncases; i++) {
		rn_buf_add(b, i ? ", " : "");
		rn_json_escape(b, p->cases[i]);
	}
	rn_buf_printf(b, "]}%s\n", comma ? "," : "");
}

int rn_cmd_list(int argc, char **argv)
{
	struct rn_progspec *p = NULL;
	char dir[PATH_MAX], **suites = NULL;
	const char *test = NULL;
	size_t n = 0, ns = 0, i, j, shown = 0;
	int c, r, code = RN_EXIT_OK;
	bool write_cache = false, json = false;
	struct rn_buf out = { 0 };
	size_t *shown_idx;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:", list_longopts, NULL)) != -1) {
		if (c == 's') {
			rn_strv_push(&suites, &ns, optarg);
		} else if (c == 't') {
			test = optarg;
		} else if (c == 'W') {
			write_cache = true;
		} else if (c == 'j') {
			json = true;
		} else {
			rn_strv_free(suites, ns);
			return rn_bad_option("list", argc, argv, c);
		}
	}
	if (optind < argc)
		code = rn_usage_error("list: unexpected argument '%s'; see 'devpm list --help'",
				      argv[optind]);
	if (!code && rn_suites_dir(dir, sizeof(dir)) < 0)
		code = RN_EXIT_USAGE;
	if (!code && write_cache && (ns || test))
		code = rn_usage_error("list --write-cache records every program; leave out --suite and --test");
	if (!code)
		rn_discover(dir, &p, &n);
	if (!code && write_cache) {
		r = rn_probe_cache_write(dir, p, n, rn_query_raw);
		if (r < 0)
			code = rn_usage_error("cannot write %s/%s: %s; give a writable suites directory (DEVPM_SUITES_DIR)",
					      dir, RN_PROBE_CACHE_FILE,
					      strerror(-r));
		else
			printf("recorded the answers of %d of %zu programs in %s/%s\n",
			       r, n, dir, RN_PROBE_CACHE_FILE);
		rn_progspecs_free(p, n);
		return code;
	}
	for (i = 0; !code && i < ns; i++) {
		for (j = 0; j < n && strcmp(p[j].suite, suites[i]); j++)
			;
		if (j == n)
			code = rn_usage_error("unknown suite '%s'; 'devpm list' shows the suites in %s",
					      suites[i], dir);
	}
	shown_idx = rn_xmalloc((n + 1) * sizeof(*shown_idx));
	for (i = 0; !code && i < n; i++) {
		if (!wanted(suites, ns, p[i].suite))
			continue;
		rn_query_list(&p[i], test);
		if (p[i].list_ok && test && !p[i].ncases)
			continue;
		rn_query_needs(&p[i]);
		shown_idx[shown++] = i;
	}
	for (i = 0; !code && i < shown; i++) {
		if (json)
			show_json(&out, &p[shown_idx[i]], i + 1 < shown);
		else
			show(&p[shown_idx[i]]);
		if (!p[shown_idx[i]].list_ok)
			code = RN_EXIT_FAIL;
	}
	free(shown_idx);
	if (json && code != RN_EXIT_USAGE) {
		fputs("{\"programs\": [\n", stdout);
		fputs(out.s ? out.s : "", stdout);
		fputs("]}\n", stdout);
	} else if (!code && !shown) {
		printf("no test program%s in %s\n", test ? " with a matching case" :
		       "", dir);
	}
	rn_buf_free(&out);
	rn_progspecs_free(p, n);
	rn_strv_free(suites, ns);
	return code;
}
