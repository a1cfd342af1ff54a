// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_json.c - summary.json (per case: suite, program, case, result,
 * duration_ms, reason, metrics, devices) and env.json (the ENV records).
 * A result that belongs to a program rather than to one of its cases
 * (needs unmet, crash outside a case) is a case entry with "case": "".
 *
 * "format_version" counts changes a consumer must know of: 2 added
 * "units" to every metric, the result "not_run" (a listed case that a
 * crash, timeout or kill left unrun) and totals.not_run.
 */
#define SUMMARY_FORMAT_VERSION 2
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "output.h"

void rn_json_escape(struct rn_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	rn_buf_add(b, "\"");
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			rn_buf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			rn_buf_add(b, "\\n");
		else if (*p == '\t')
			rn_buf_add(b, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			rn_buf_printf(b, "\\u%04x", *p);
		else
			rn_buf_addn(b, (const char *)p, 1);
	}
	rn_buf_add(b, "\"");
}

static void key(struct rn_buf *b, const char *k)
{
	rn_json_escape(b, k);
	rn_buf_add(b, ": ");
}

static void kstr(struct rn_buf *b, const char *k, const char *v, bool comma)
{
	key(b, k);
	rn_json_escape(b, v ? v : "");
	if (comma)
		rn_buf_add(b, ", ");
}

static void num(struct rn_buf *b, double v)
{
	if (isfinite(v))
		rn_buf_printf(b, "%.15g", v);
	else
		rn_buf_add(b, "null");
}

const char *rn_metric_units(const char *name)
{
	size_t n = strlen(name);

	if (n > 3 && !strcmp(name + n - 3, "_us"))
		return "us";
	if (n > 3 && !strcmp(name + n - 3, "_ms"))
		return "ms";
	return "none";
}

static void entry(struct rn_buf *b, const struct rn_prog *p,
		  const struct rn_case *c, bool comma)
{
	size_t i;

	rn_buf_add(b, "    {");
	kstr(b, "suite", p->suite, true);
	kstr(b, "program", p->name, true);
	kstr(b, "case", c ? c->name : "", true);
	kstr(b, "result", rn_result_name(c ? c->result : p->result), true);
	rn_buf_printf(b, "\"duration_ms\": %lld, ",
		      c ? rn_case_ms(c) : rn_prog_ms(p));
	kstr(b, "reason", c ? c->reason : p->reason, true);
	rn_buf_add(b, "\n     \"metrics\": [");
	for (i = 0; c && i < c->nmetrics; i++) {
		rn_buf_add(b, i ? ", {" : "{");
		kstr(b, "device", c->metrics[i].device, true);
		kstr(b, "name", c->metrics[i].name, true);
		kstr(b, "units", rn_metric_units(c->metrics[i].name), true);
		key(b, "value");
		num(b, c->metrics[i].value);
		rn_buf_add(b, "}");
	}
	rn_buf_add(b, "],\n     \"devices\": [");
	for (i = 0; c && i < c->ndevs; i++) {
		rn_buf_add(b, i ? ",\n       {" : "\n       {");
		kstr(b, "name", c->devs[i].name, true);
		kstr(b, "result", rn_result_name(c->devs[i].result), true);
		kstr(b, "reason", c->devs[i].reason, false);
		rn_buf_add(b, "}");
	}
	rn_buf_printf(b, "]}%s\n", comma ? "," : "");
}

static void program(struct rn_buf *b, const struct rn_prog *p, bool comma)
{
	size_t i;

	rn_buf_add(b, "    {");
	kstr(b, "suite", p->suite, true);
	kstr(b, "program", p->name, true);
	kstr(b, "result", rn_result_name(rn_prog_result(p)), true);
	kstr(b, "status", p->status, true);
	rn_buf_printf(b, "\"duration_ms\": %lld, \"timeout_s\": %d, ",
		      rn_prog_ms(p), p->timeout_s);
	rn_buf_add(b, "\"notes\": [");
	for (i = 0; i < p->nnotes; i++) {
		if (i)
			rn_buf_add(b, ", ");
		rn_json_escape(b, p->notes[i]);
	}
	rn_buf_printf(b, "]}%s\n", comma ? "," : "");
}

char *rn_out_summary(const struct rn_run *r)
{
	struct rn_buf b = { 0 };
	struct rn_totals t;
	size_t i, j, n = 0, k = 0;
	const struct rn_prog *p;

	rn_totals(r, &t);
	for (i = 0; i < r->nprogs; i++)
		n += r->progs[i].ncases + (r->progs[i].result != RN_NONE);
	rn_buf_add(&b, "{\n  ");
	kstr(&b, "format", "devpm-summary", true);
	rn_buf_printf(&b, "\"format_version\": %d,\n  ",
		      SUMMARY_FORMAT_VERSION);
	kstr(&b, "devpm_version", DEVPM_VERSION, true);
	kstr(&b, "run_id", r->run_id, true);
	kstr(&b, "started", r->started, false);
	rn_buf_printf(&b, ",\n  \"duration_ms\": %lld, \"exit_code\": %d, \"incomplete\": %s,\n",
		      r->end_us > r->start_us ?
		      (long long)(r->end_us - r->start_us) / 1000 : 0,
		      rn_exit_code(r), r->incomplete ? "true" : "false");
	rn_buf_printf(&b, "  \"totals\": {\"pass\": %u, \"fail\": %u, \"skip\": %u, \"xfail\": %u, \"not_run\": %u},\n",
		      t.pass, t.fail, t.skip, t.xfail, t.not_run);
	rn_buf_printf(&b, "  \"device_totals\": {\"pass\": %u, \"fail\": %u, \"skip\": %u, \"xfail\": %u},\n",
		      t.dev.pass, t.dev.fail, t.dev.skip, t.dev.xfail);
	rn_buf_add(&b, "  \"cases\": [\n");
	for (i = 0; i < r->nprogs; i++) {
		p = &r->progs[i];
		for (j = 0; j < p->ncases; j++)
			entry(&b, p, &p->cases[j], ++k < n);
		if (p->result != RN_NONE)
			entry(&b, p, NULL, ++k < n);
	}
	rn_buf_add(&b, "  ],\n  \"programs\": [\n");
	for (i = 0; i < r->nprogs; i++)
		program(&b, &r->progs[i], i + 1 < r->nprogs);
	rn_buf_add(&b, "  ],\n  \"problems\": [");
	for (i = 0; i < r->nproblems; i++) {
		if (i)
			rn_buf_add(&b, ", ");
		rn_json_escape(&b, r->problems[i]);
	}
	rn_buf_add(&b, "]\n}\n");
	return b.s;
}

char *rn_out_env(const struct rn_run *r)
{
	struct rn_buf b = { 0 };
	size_t i;

	rn_buf_add(&b, "{\n  ");
	kstr(&b, "run_id", r->run_id, false);
	rn_buf_printf(&b, ",\n  \"incomplete\": %s",
		      r->incomplete ? "true" : "false");
	for (i = 0; i < r->nenv; i++) {
		rn_buf_add(&b, ",\n  ");
		kstr(&b, r->env[i].key, r->env[i].value, false);
	}
	rn_buf_add(&b, "\n}\n");
	return b.s;
}
