// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_ktap.c - results.ktap: KTAP v1, nested suites > programs > cases
 * > devices, 4 spaces per level.  A skip is "# SKIP reason"; an expected
 * failure is "# SKIP XFAIL reason", which KTAP and TAP 13 parsers read as a
 * skip (the "# XFAIL" directive is not known to all of them).  A failure's
 * reason is a "# " line just before its "not ok".
 */
#include <stdlib.h>
#include <string.h>

#include "devpm.h"
#include "output.h"

static void ind(struct rn_buf *b, int level)
{
	int i;

	for (i = 0; i < level * 4; i++)
		rn_buf_add(b, " ");
}

static void header(struct rn_buf *b, int level, const char *name, size_t n)
{
	ind(b, level);
	rn_buf_add(b, "KTAP version 1\n");
	if (name) {
		ind(b, level);
		rn_buf_printf(b, "# Subtest: %s\n", name);
	}
	ind(b, level);
	rn_buf_printf(b, "1..%zu\n", n);
}

static void diag(struct rn_buf *b, int level, const char *text)
{
	ind(b, level);
	rn_buf_printf(b, "# %s\n", text);
}

static void put_result(struct rn_buf *b, int level, size_t n, const char *name,
		   enum rn_result res, const char *reason)
{
	if (res == RN_FAIL && reason && reason[0])
		diag(b, level, reason);
	ind(b, level);
	rn_buf_printf(b, "%s %zu %s", res == RN_FAIL ? "not ok" : "ok", n,
		      name);
	if (res == RN_SKIP || res == RN_NONE)
		rn_buf_printf(b, " # SKIP %s", reason && reason[0] ? reason :
			      "no result");
	else if (res == RN_XFAIL)
		rn_buf_printf(b, " # SKIP XFAIL %s", reason ? reason : "");
	rn_buf_add(b, "\n");
}

/* The name alone: a pass's or failure's message is a line before it. */
static void device(struct rn_buf *b, int level, size_t n,
		   const struct rn_device *d)
{
	if (d->result != RN_SKIP && d->reason[0])
		diag(b, level, d->reason);
	ind(b, level);
	rn_buf_printf(b, "%s %zu %s", d->result == RN_FAIL ? "not ok" : "ok",
		      n, d->name);
	if (d->result == RN_SKIP)
		rn_buf_printf(b, " # SKIP %s", d->reason);
	rn_buf_add(b, "\n");
}

static void one_case(struct rn_buf *b, int level, size_t n,
		     const struct rn_case *c)
{
	size_t i;

	if (c->ndevs) {
		header(b, level + 1, c->name, c->ndevs);
		for (i = 0; i < c->ndevs; i++)
			device(b, level + 1, i + 1, &c->devs[i]);
	}
	for (i = 0; i < c->nmetrics; i++) {
		ind(b, level);
		rn_buf_printf(b, "# METRIC %s %s=%.15g\n", c->metrics[i].device,
			      c->metrics[i].name, c->metrics[i].value);
	}
	put_result(b, level, n, c->name, c->result, c->reason);
}

static void program(struct rn_buf *b, int level, size_t n,
		    const struct rn_prog *p)
{
	enum rn_result res = rn_prog_result(p);
	const char *reason = p->reason;
	size_t i;

	if (p->ncases) {
		header(b, level + 1, p->name, p->ncases);
		for (i = 0; i < p->ncases; i++)
			one_case(b, level + 1, i + 1, &p->cases[i]);
	}
	for (i = 0; i < p->nnotes; i++)
		diag(b, level + 1, p->notes[i]);
	/* A program failed by its cases alone needs no reason of its own. */
	if (res == RN_FAIL && p->result != RN_FAIL)
		reason = NULL;
	put_result(b, level, n, p->name, res, reason);
}

char *rn_out_ktap(const struct rn_run *r)
{
	struct rn_buf b = { 0 };
	struct rn_totals t;
	const char **suites;
	size_t ns, i, j, n;

	ns = rn_suites(r, &suites);
	rn_buf_add(&b, "KTAP version 1\n");
	rn_buf_printf(&b, "# devpm %s run %s\n", DEVPM_VERSION, r->run_id);
	rn_buf_printf(&b, "1..%zu\n", ns);
	for (i = 0; i < ns; i++) {
		for (j = 0, n = 0; j < r->nprogs; j++)
			n += !strcmp(r->progs[j].suite, suites[i]);
		header(&b, 1, suites[i], n);
		for (j = 0, n = 0; j < r->nprogs; j++)
			if (!strcmp(r->progs[j].suite, suites[i]))
				program(&b, 1, ++n, &r->progs[j]);
		put_result(&b, 0, i + 1, suites[i], rn_suite_result(r, suites[i]),
		       rn_suite_result(r, suites[i]) == RN_FAIL ? NULL :
		       "every program skipped");
	}
	for (i = 0; i < r->nproblems; i++)
		diag(&b, 0, r->problems[i]);
	rn_totals(r, &t);
	rn_buf_printf(&b, "# Totals: pass:%u fail:%u xfail:%u skip:%u\n",
		      t.pass, t.fail, t.xfail, t.skip);
	free(suites);
	return b.s;
}
