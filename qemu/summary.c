// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - the end-of-run table of `make qemu`: cases per suite and
 * result, then one line per failure, from the run's summary.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "runner/json.h"
#include "runner/util.h"

#define MAX_SUITES 32
#define MAX_FAIL_LINES 20

enum { R_PASS, R_FAIL, R_SKIP, R_XFAIL, R_NOT_RUN, R_N };

static const char *const result_names[R_N] = { "pass", "fail", "skip",
					       "xfail", "not_run" };

struct suite_count {
	char name[64];
	int n[R_N];
};

static struct suite_count *suite_of(struct suite_count *s, int *ns,
				    const char *name)
{
	int i;

	for (i = 0; i < *ns; i++)
		if (!strcmp(s[i].name, name))
			return &s[i];
	if (*ns == MAX_SUITES)
		return NULL;
	memset(&s[*ns], 0, sizeof(s[*ns]));
	snprintf(s[*ns].name, sizeof(s[*ns].name), "%s", name);
	return &s[(*ns)++];
}

int summary_print(const char *path, FILE *out)
{
	struct suite_count suites[MAX_SUITES], all = { .name = "all" };
	const struct rn_json *cases, *c;
	const char *suite, *res, *reason;
	struct rn_json *doc;
	int ns = 0, fails = 0, r, i;
	size_t k;
	char *text;

	text = rn_read_file(path, NULL);
	if (!text)
		return -errno;
	doc = rn_json_parse(text, NULL, 0);
	free(text);
	if (!doc)
		return -EINVAL;
	cases = rn_json_get(doc, "cases");
	for (k = 0; cases && cases->type == RN_J_ARR && k < cases->n; k++) {
		struct suite_count *s;

		c = cases->items[k];
		suite = rn_json_str(c, "suite");
		res = rn_json_str(c, "result");
		if (!suite || !res)
			continue;
		for (r = 0; r < R_N; r++)
			if (!strcmp(res, result_names[r]))
				break;
		s = suite_of(suites, &ns, suite);
		if (r == R_N || !s)
			continue;
		s->n[r]++;
		all.n[r]++;
		reason = rn_json_str(c, "reason");
		if (r == R_FAIL && fails++ < MAX_FAIL_LINES)
			fprintf(out, "  FAIL %s/%s/%s: %s\n", suite,
				rn_json_str(c, "program") ?: "?",
				rn_json_str(c, "case") ?: "?",
				reason && reason[0] ? reason : "(no reason)");
	}
	if (fails > MAX_FAIL_LINES)
		fprintf(out, "  ... and %d more failures\n",
			fails - MAX_FAIL_LINES);
	fprintf(out, "  %-12s %5s %5s %5s %5s %7s\n", "suite", "pass", "fail",
		"skip", "xfail", "not_run");
	for (i = 0; i <= ns; i++) {
		struct suite_count *s = i < ns ? &suites[i] : &all;

		fprintf(out, "  %-12s %5d %5d %5d %5d %7d\n", s->name,
			s->n[R_PASS], s->n[R_FAIL], s->n[R_SKIP],
			s->n[R_XFAIL], s->n[R_NOT_RUN]);
	}
	rn_json_free(doc);
	return fails;
}
