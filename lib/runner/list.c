// SPDX-License-Identifier: GPL-2.0-only
/*
 * list.c - `devpm list [--suite S]... [--test GLOB]`: every suite, program
 * and case with what the program needs (its --needs answer).
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
#include "probe_cache.h"
#include "suites.h"

static const struct option list_longopts[] = {
	{ "suite", required_argument, NULL, 's' },
	{ "test", required_argument, NULL, 't' },
	{ "write-cache", no_argument, NULL, 'W' },
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

static void show(struct rn_progspec *p)
{
	char *save = NULL, *line;
	size_t i;

	printf("%s/%s (timeout %d s)\n", p->suite, p->name, p->timeout_s);
	if (!p->list_ok) {
		printf("    cannot list cases: %s\n", p->list_error);
		return;
	}
	for (line = p->needs.s ? strtok_r(p->needs.s, "\n", &save) : NULL;
	     line; line = strtok_r(NULL, "\n", &save))
		printf("    needs %s\n", line);
	for (i = 0; i < p->ncases; i++)
		printf("    %s\n", p->cases[i]);
}

int rn_cmd_list(int argc, char **argv)
{
	struct rn_progspec *p = NULL;
	char dir[PATH_MAX], **suites = NULL;
	const char *test = NULL;
	size_t n = 0, ns = 0, i, j, shown = 0;
	int c, r, code = RN_EXIT_OK;
	bool write_cache = false;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:", list_longopts, NULL)) != -1) {
		if (c == 's') {
			rn_strv_push(&suites, &ns, optarg);
		} else if (c == 't') {
			test = optarg;
		} else if (c == 'W') {
			write_cache = true;
		} else {
			rn_strv_free(suites, ns);
			return rn_bad_option("list", argc, argv, c);
		}
	}
	if (optind < argc)
		code = rn_usage_error("list: unexpected argument '%s'; see devpm --help",
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
	for (i = 0; !code && i < n; i++) {
		if (!wanted(suites, ns, p[i].suite))
			continue;
		rn_query_list(&p[i], test);
		if (p[i].list_ok && test && !p[i].ncases)
			continue;
		rn_query_needs(&p[i]);
		show(&p[i]);
		shown++;
		if (!p[i].list_ok)
			code = RN_EXIT_FAIL;
	}
	if (!code && !shown)
		printf("no test program%s in %s\n", test ? " with a matching case" :
		       "", dir);
	rn_progspecs_free(p, n);
	rn_strv_free(suites, ns);
	return code;
}
