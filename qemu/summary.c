// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - the end-of-run table of `make qemu`: cases per suite and
 * result, then one line per failure, from the run's summary.json.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

#define MAX_SUITES 32
#define MAX_FAIL_LINES 20

enum { R_PASS, R_FAIL, R_SKIP, R_XFAIL, R_N };

static const char *const result_names[R_N] = { "pass", "fail", "skip",
					       "xfail" };

struct suite_count {
	char name[64];
	int n[R_N];
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* The ']' (or the '\0') that closes the array opened at p. */
static char *array_end(char *p)
{
	bool str = false;
	int depth = 0;

	for (; *p; p++) {
		if (str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				str = false;
		} else if (*p == '"') {
			str = true;
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ']' || *p == '}') && !--depth) {
			return p;
		}
	}
	return p;
}

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
	char suite[64], prog[128], cas[128], res[16], reason[512];
	char *text, *p, *next, saved = 0;
	int ns = 0, fails = 0, r, i;

	text = slurp(path);
	if (!text)
		return -errno;
	/* Only the "cases" array: "totals" and "programs" have such keys. */
	p = (char *)json_key(text, "cases");
	if (p && *p == '[')
		*array_end(p) = '\0';
	else
		p = NULL;
	while (p && (p = strstr(p, "\"suite\""))) {
		struct suite_count *s;

		/* One case: up to the next case's "suite" key. */
		next = strstr(p + 7, "\"suite\"");
		if (next) {
			saved = *next;
			*next = '\0';
		}
		if (json_str(p, "suite", suite, sizeof(suite)) ||
		    json_str(p, "result", res, sizeof(res)))
			goto skip;
		if (json_str(p, "program", prog, sizeof(prog)))
			strcpy(prog, "?");
		if (json_str(p, "case", cas, sizeof(cas)))
			strcpy(cas, "?");
		if (json_str(p, "reason", reason, sizeof(reason)))
			reason[0] = '\0';
		for (r = 0; r < R_N; r++)
			if (!strcmp(res, result_names[r]))
				break;
		s = suite_of(suites, &ns, suite);
		if (r == R_N || !s)
			goto skip;
		s->n[r]++;
		all.n[r]++;
		if (r == R_FAIL && fails++ < MAX_FAIL_LINES)
			fprintf(out, "  FAIL %s/%s/%s: %s\n", suite, prog, cas,
				reason[0] ? reason : "(no reason)");
skip:
		if (next)
			*next = saved;
		p = next;
	}
	if (fails > MAX_FAIL_LINES)
		fprintf(out, "  ... and %d more failures\n",
			fails - MAX_FAIL_LINES);
	fprintf(out, "  %-12s %5s %5s %5s %5s\n", "suite", "pass", "fail",
		"skip", "xfail");
	for (i = 0; i <= ns; i++) {
		struct suite_count *s = i < ns ? &suites[i] : &all;

		fprintf(out, "  %-12s %5d %5d %5d %5d\n", s->name,
			s->n[R_PASS], s->n[R_FAIL], s->n[R_SKIP],
			s->n[R_XFAIL]);
	}
	free(text);
	return fails;
}
