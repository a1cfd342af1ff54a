// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_ktap.c - results.ktap: KTAP v1, nested suites > programs > cases
 * > devices, 4 spaces per level.  A skip is "# SKIP reason"; an expected
 * failure is "# SKIP XFAIL reason", which KTAP and TAP 13 parsers read as a
 * skip (the "# XFAIL" directive is not known to all of them).  A failure's
 * reason is a "# " line just before its "not ok".  A case that never ran
 * (the program crashed, timed out or was killed first) keeps its place in
 * the plan as "not ok N name # ERROR not run: ..." (the ERROR directive of
 * the kernel's Documentation/dev-tools/ktap.rst), so that a reader counts
 * every planned case.  Names are names only: values go on "# " lines.
 */
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
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
	rn_buf_printf(b, "%s %zu %s",
		      res == RN_FAIL || res == RN_NOT_RUN ? "not ok" : "ok", n,
		      name);
	if (res == RN_SKIP || res == RN_NONE)
		rn_buf_printf(b, " # SKIP %s", reason && reason[0] ? reason :
			      "no result");
	else if (res == RN_XFAIL)
		rn_buf_printf(b, " # SKIP XFAIL %s", reason ? reason : "");
	else if (res == RN_NOT_RUN)
		rn_buf_printf(b, " # ERROR %s", reason && reason[0] ? reason :
			      "not run");
	rn_buf_add(b, "\n");
}

/*
 * A device's remark ("still active after 1200 ms") often holds a measured
 * value: it goes on the "# " line before the result, as a case's reason
 * does, so that only the device's name follows the number.
 */
static void device(struct rn_buf *b, int level, size_t n,
		   const struct rn_device *d)
{
	bool skip = d->result == RN_SKIP || d->result == RN_XFAIL;

	if (skip && d->note && d->note[0])
		diag(b, level, d->note);
	if (!skip && d->reason[0])
		diag(b, level, d->reason);
	ind(b, level);
	rn_buf_printf(b, "%s %zu %s", d->result == RN_FAIL ? "not ok" : "ok",
		      n, d->name);
	if (skip)
		rn_buf_printf(b, " # SKIP %s%s",
			      d->result == RN_XFAIL ? "XFAIL " : "", d->reason);
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
	/*
	 * The runner's notes belong to the program's own result line: at
	 * the program's level, so that a program without cases (killed
	 * before its first) still has no indented line outside a subtest.
	 */
	for (i = 0; i < p->nnotes; i++)
		diag(b, level, p->notes[i]);
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
	enum rn_result res;
	size_t ns, i, j, n;

	ns = rn_suites(r, &suites);
	/*
	 * The plan right after the version line: the kernel's kunit_parser
	 * reads it only there, and else loses the expected count.
	 */
	rn_buf_add(&b, "KTAP version 1\n");
	rn_buf_printf(&b, "1..%zu\n", ns);
	rn_buf_printf(&b, "# devpm %s run %s\n", DEVPM_VERSION, r->run_id);
	for (i = 0; i < ns; i++) {
		for (j = 0, n = 0; j < r->nprogs; j++)
			n += !strcmp(r->progs[j].suite, suites[i]);
		header(&b, 1, suites[i], n);
		for (j = 0, n = 0; j < r->nprogs; j++)
			if (!strcmp(r->progs[j].suite, suites[i]))
				program(&b, 1, ++n, &r->progs[j]);
		res = rn_suite_result(r, suites[i]);
		put_result(&b, 0, i + 1, suites[i], res, res == RN_FAIL ? NULL :
			   res == RN_NOT_RUN ? "not run: a program of the suite did not run" :
			   "every program skipped");
	}
	for (i = 0; i < r->nproblems; i++)
		diag(&b, 0, r->problems[i]);
	rn_totals(r, &t);
	/* The kselftest harness's form; a case not run is an error. */
	rn_buf_printf(&b, "# Totals: pass:%u fail:%u xfail:%u xpass:0 skip:%u error:%u\n",
		      t.pass, t.fail, t.xfail, t.skip, t.not_run);
	free(suites);
	return b.s;
}
