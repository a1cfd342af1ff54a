// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_json.c - summary.json (per case: suite, program, case, result,
 * duration_ms, reason, metrics, devices) and env.json (the ENV records).
 * A result that belongs to a program rather than to one of its cases
 * (needs unmet, crash outside a case) is a case entry with "case": "".
 *
 * "format_version" counts changes a consumer must know of: 2 added
 * "units" to every metric, the result "not_run" (a listed case that a
 * crash, timeout or kill left unrun) and totals.not_run; 3 added each
 * case's "started" (wall clock, UTC) and "kernel_log" (the kernel log
 * lines of a failed case, case_info.h), the run's "properties" (kernel,
 * config_sha256, machine, options: junit.xml's) and units for every
 * metric (never "none").
 */
#define SUMMARY_FORMAT_VERSION 3
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "case_info.h"
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
	static const char *const times[] = { "ns", "us", "ms", "s", NULL };
	const char *p = name, *end;
	size_t n;
	int i;

	/* A time's unit is a word of its name: wait_lag_us_p50 is in us. */
	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '_');
		n = end - p;
		for (i = 0; times[i] && p != name; i++)
			if (n == strlen(times[i]) && !strncmp(p, times[i], n))
				return times[i];
	}
	/* async_speedup, resume_over_suspend: one time over another. */
	if (strstr(name, "speedup") || strstr(name, "_over_"))
		return "ratio";
	/* wakeup/events: enum devpm_wake_outcome (wake_account.h). */
	if (!strcmp(name, "outcome"))
		return "code";
	return "count";
}

/* A failed result's kernel log lines (case_info.h), else []. */
static void klog_lines(struct rn_buf *b, const struct rn_run *r,
		       const struct rn_prog *p, const struct rn_case *c)
{
	size_t *idx, n, i;
	char *where;

	rn_buf_add(b, "\"kernel_log\": [");
	if ((c ? c->result : p->result) != RN_FAIL) {
		rn_buf_add(b, "]");
		return;
	}
	where = rn_where(p, c);
	idx = rn_xmalloc(RN_KLOG_EXCERPT_MAX * sizeof(*idx));
	n = rn_klog_of(r, where, RN_KLOG_EXCERPT_MAX, idx, NULL);
	for (i = 0; i < n; i++) {
		const struct rn_klog *k = &r->klog[idx[i]];
		char *line = rn_xasprintf("[%5llu.%06llu] %s",
				(unsigned long long)(k->ts_us / 1000000),
				(unsigned long long)(k->ts_us % 1000000),
				k->text);

		rn_buf_add(b, i ? ", " : "");
		rn_json_escape(b, line);
		free(line);
	}
	rn_buf_add(b, "]");
	free(idx);
	free(where);
}

static void entry(struct rn_buf *b, const struct rn_run *r,
		  const struct rn_prog *p, const struct rn_case *c, bool comma)
{
	char when[64];
	size_t i;

	rn_wall_time(r, rn_case_start_us(p, c), RN_TIME_ISO, when,
		     sizeof(when));
	rn_buf_add(b, "    {");
	kstr(b, "suite", p->suite, true);
	kstr(b, "program", p->name, true);
	kstr(b, "case", c ? c->name : "", true);
	kstr(b, "result", rn_result_name(c ? c->result : p->result), true);
	kstr(b, "started", when, true);
	rn_buf_printf(b, "\"duration_ms\": %lld, ",
		      c ? rn_case_ms(c) : rn_prog_ms(p));
	kstr(b, "reason", c ? c->reason : p->reason, true);
	rn_buf_add(b, "\n     ");
	klog_lines(b, r, p, c);
	rn_buf_add(b, ",");
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
	size_t i, j, n = 0, k = 0, nprops;
	const struct rn_prog *p;
	struct rn_prop *props;

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
	rn_buf_add(&b, ",\n  \"properties\": {");
	nprops = rn_run_props(r, &props);
	for (i = 0; i < nprops; i++)
		kstr(&b, props[i].key, props[i].value, i + 1 < nprops);
	rn_props_free(props, nprops);
	rn_buf_printf(&b, "},\n  \"duration_ms\": %lld, \"exit_code\": %d, \"incomplete\": %s,\n",
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
			entry(&b, r, p, &p->cases[j], ++k < n);
		if (p->result != RN_NONE)
			entry(&b, r, p, NULL, ++k < n);
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
