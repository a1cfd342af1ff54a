// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_lava.c - lava.sh: the run's results as calls of LAVA's
 * lava-test-case helper, so that a LAVA test definition records them with
 * one step ("sh results/latest/lava.sh"; lava/devpm-lava.sh runs it): a
 * result per case, and per "# METRIC" a measurement with its units
 * (rn_metric_units()).  This is devpm's one LAVA naming:
 *
 *	devpm.<suite>.<program>.<case>			a case
 *	devpm.<suite>.<program>.<case>.<device>.<metric>	a measurement
 *	devpm.<suite>.<program>					a program's own result
 *
 * each part escaped so that the dots keep the depth: every character but
 * [A-Za-z0-9_-] becomes '_' ("0000:00:1f.3" is 0000_00_1f_3, a variant's
 * "v.case" v_case); a metric of no device has the device "-".  No
 * quoting is needed, names are stable across runs, values go only after
 * --measurement.  lava/check.sh checks these names against summary.json.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "output.h"

static void name_part(struct rn_buf *b, const char *s)
{
	char c;

	rn_buf_add(b, ".");
	for (; *s; s++) {
		c = *s;
		if (!isalnum((unsigned char)c) && c != '-' && c != '_')
			c = '_';
		rn_buf_addn(b, &c, 1);
	}
}

/* LAVA knows pass, fail, skip and unknown. */
static const char *lava_result(enum rn_result res)
{
	switch (res) {
	case RN_PASS:
		return "pass";
	case RN_FAIL:
		return "fail";
	case RN_SKIP:
	case RN_XFAIL:
		return "skip";
	default:
		return "unknown";
	}
}

static void test_case(struct rn_buf *b, const struct rn_prog *p,
		      const struct rn_case *c, enum rn_result res)
{
	const char *units;
	size_t i;

	rn_buf_add(b, "lava-test-case devpm");
	name_part(b, p->suite);
	name_part(b, p->name);
	if (c)
		name_part(b, c->name);
	rn_buf_printf(b, " --result %s\n", lava_result(res));
	for (i = 0; c && i < c->nmetrics; i++) {
		rn_buf_add(b, "lava-test-case devpm");
		name_part(b, p->suite);
		name_part(b, p->name);
		name_part(b, c->name);
		name_part(b, c->metrics[i].device);
		name_part(b, c->metrics[i].name);
		rn_buf_printf(b, " --result pass --measurement %.15g",
			      c->metrics[i].value);
		units = rn_metric_units(c->metrics[i].name);
		if (strcmp(units, "none"))
			rn_buf_printf(b, " --units %s", units);
		rn_buf_add(b, "\n");
	}
}

char *rn_out_lava(const struct rn_run *r)
{
	struct rn_buf b = { 0 };
	const struct rn_prog *p;
	size_t i, j;

	rn_buf_add(&b, "#!/bin/sh\n");
	rn_buf_add(&b, "# devpm results for LAVA: run this in a test definition.\n");
	rn_buf_printf(&b, "# devpm %s run ", DEVPM_VERSION);
	/* The run id is ours, but it goes on a comment line all the same. */
	for (i = 0; r->run_id[i]; i++)
		rn_buf_addn(&b, isprint((unsigned char)r->run_id[i]) ?
			    &r->run_id[i] : "?", 1);
	rn_buf_add(&b, "\nset -e\n");
	for (i = 0; i < r->nprogs; i++) {
		p = &r->progs[i];
		for (j = 0; j < p->ncases; j++)
			test_case(&b, p, &p->cases[j], p->cases[j].result);
		if (p->result != RN_NONE)
			test_case(&b, p, NULL, p->result);
	}
	return b.s;
}
