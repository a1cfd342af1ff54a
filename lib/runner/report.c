// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - `devpm report RESULTS_DIR`: RESULTS_DIR/report.html, one
 * self-contained page (inline CSS and SVG, nothing fetched, no script): a
 * red or green verdict banner with the counts, the verdict of each suite,
 * each failure with its reason, the kernel log lines around it and the
 * runtime-PM calls of its devices (rpm_timeline.h), the timeline of each
 * suspend cycle and runtime-PM case the programs printed (timeline.h:
 * the slowest devices first, the rest folded into one row, each timeline
 * folded away in a <details> but a failed case's), and every case with
 * an anchor (#suite/program/case).  Built from the run's stream.log, the
 * record every other result file is written from.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "name_index.h"
#include "output.h"
#include "stream.h"
#include "timeline.h"
#include "write_file.h"

/* Kernel log lines shown before and after a failed case's own. */
#define KLOG_CONTEXT 5

static const char css[] =
"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222}\n"
"h1{font-size:1.4em}h2{font-size:1.2em;margin-top:1.6em}\n"
"table{border-collapse:collapse}td,th{border:1px solid #ccc;\n"
"padding:2px 8px;text-align:left}\n"
".pass{color:#1a7f37}.fail{color:#c00;font-weight:bold}\n"
".skip,.xfail,.none{color:#777}\n"
"pre{background:#f6f6f6;padding:6px;overflow-x:auto;font-size:12px}\n"
".bad{color:#c00}.failure{border-left:3px solid #c00;padding-left:10px;\n"
"margin:1em 0}\n"
"svg.timeline text{font:11px monospace;fill:#222}\n"
"svg.timeline .tick{stroke:#ddd}svg.timeline .dur{fill:#fff;font-size:10px}\n"
"svg.timeline .drv{fill:#777}svg.timeline .err{fill:#c00}\n"
"svg.timeline .sect{font-weight:bold}\n"
".banner{padding:10px 14px;border-radius:4px;font-size:1.2em;color:#fff;\n"
"margin:1em 0}.banner.ok{background:#1a7f37}.banner.bad{background:#c00}\n"
".banner a{color:#fff}\n"
"details{margin:.5em 0}summary{cursor:pointer}\n"
"details>svg{display:block;margin-top:.4em}\n"
"svg.timeline{max-width:100%;height:auto}\n"
"tr:target,div:target{background:#fff6d5}\n"
"a.self{color:inherit;text-decoration:none}";

static void esc(struct rn_buf *b, const char *s)
{
	rn_xml_escape(b, s ? s : "");
}

static const char *cls(enum rn_result res)
{
	return rn_result_name(res);
}

static void verdict(struct rn_buf *b, enum rn_result res)
{
	rn_buf_printf(b, "<span class=\"%s\">%s</span>", cls(res),
		      rn_result_name(res));
}

/* Red when anything failed, green otherwise, with every count. */
static void verdict_banner(struct rn_buf *b, const struct rn_run *r)
{
	struct rn_totals t;
	bool bad = rn_exit_code(r) != 0 || r->incomplete;
	long long ms = r->end_us > r->start_us ?
		(long long)(r->end_us - r->start_us) / 1000 : 0;

	rn_totals(r, &t);
	rn_buf_printf(b, "<div class=\"banner %s\" id=\"verdict\"><b>%s</b> &#8212; %u pass, %u fail, %u skip, %u xfail, %u not run",
		      bad ? "bad" : "ok", bad ? "FAIL" : "PASS", t.pass,
		      t.fail, t.skip, t.xfail, t.not_run);
	if (r->nproblems)
		rn_buf_printf(b, ", %zu run problem%s", r->nproblems,
			      r->nproblems == 1 ? "" : "s");
	rn_buf_printf(b, " in %lld.%01lld s", ms / 1000, ms % 1000 / 100);
	if (r->incomplete)
		rn_buf_add(b, "; the run did not finish");
	if (bad && (t.fail || r->nproblems))
		rn_buf_add(b, " (<a href=\"#failures\">failures</a>)");
	rn_buf_add(b, "</div>\n");
}

static void suites_table(struct rn_buf *b, const struct rn_run *r)
{
	struct rn_name_index idx;
	struct rn_totals *t;
	unsigned char *seen;	/* 1 a pass, 2 a skip, 4 a failure */
	const char **names;
	size_t n, i, k;

	/* One pass over the programs, whatever the number of suites. */
	n = rn_suites(r, &names);
	t = rn_xmalloc((n + 1) * sizeof(*t));
	seen = rn_xmalloc(n + 1);
	memset(t, 0, (n + 1) * sizeof(*t));
	memset(seen, 0, n + 1);
	rn_name_index_init(&idx);
	for (i = 0; i < n; i++)
		rn_name_index_put(&idx, names[i], i);
	for (i = 0; i < r->nprogs; i++) {
		struct rn_totals pt = { 0 };
		enum rn_result pr = rn_prog_result(&r->progs[i]);

		if (!rn_name_index_get(&idx, r->progs[i].suite, &k))
			continue;
		rn_prog_totals(&r->progs[i], &pt);
		t[k].pass += pt.pass;
		t[k].fail += pt.fail;
		t[k].skip += pt.skip;
		t[k].xfail += pt.xfail;
		seen[k] |= pr == RN_PASS ? 1 : pr == RN_SKIP ? 2 :
			   pr == RN_FAIL ? 4 : 0;
	}
	rn_buf_add(b, "<h2>Suites</h2>\n<table><tr><th>suite</th><th>verdict</th><th>pass</th><th>fail</th><th>skip</th><th>xfail</th></tr>\n");
	for (i = 0; i < n; i++) {
		rn_buf_add(b, "<tr><td>");
		esc(b, names[i]);
		rn_buf_add(b, "</td><td>");
		/* As rn_suite_result(): any failure, else any pass, any skip. */
		verdict(b, seen[i] & 4 ? RN_FAIL : seen[i] & 1 ? RN_PASS :
			seen[i] & 2 ? RN_SKIP : RN_NONE);
		rn_buf_printf(b, "</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td></tr>\n",
			      t[i].pass, t[i].fail, t[i].skip, t[i].xfail);
	}
	rn_buf_add(b, "</table>\n");
	rn_name_index_free(&idx);
	free(names);
	free(seen);
	free(t);
}

/* Where each "where" of the kernel log is: its first and last line. */
struct klog_span {
	struct rn_name_index idx;	/* where -> span number */
	size_t *first, *last;
};

static void klog_spans(struct klog_span *k, const struct rn_run *r)
{
	size_t i, n = 0, s;

	rn_name_index_init(&k->idx);
	k->first = rn_xmalloc((r->nklog + 1) * sizeof(*k->first));
	k->last = rn_xmalloc((r->nklog + 1) * sizeof(*k->last));
	for (i = 0; i < r->nklog; i++) {
		if (rn_name_index_get(&k->idx, r->klog[i].where, &s)) {
			k->last[s] = i;
			continue;
		}
		rn_name_index_put(&k->idx, r->klog[i].where, n);
		k->first[n] = k->last[n] = i;
		n++;
	}
}

static void klog_spans_free(struct klog_span *k)
{
	rn_name_index_free(&k->idx);
	free(k->first);
	free(k->last);
}

/* The kernel log of a case (where = suite/prog/case) with context. */
static void klog_around(struct rn_buf *b, const struct rn_run *r,
			const struct klog_span *k, const char *where)
{
	size_t i, first, last, from, to, s;

	if (!rn_name_index_get(&k->idx, where, &s)) {
		rn_buf_add(b, "<p>No kernel log lines during this case.</p>\n");
		return;
	}
	first = k->first[s];
	last = k->last[s];
	from = first > KLOG_CONTEXT ? first - KLOG_CONTEXT : 0;
	to = last + KLOG_CONTEXT < r->nklog ? last + KLOG_CONTEXT :
	     r->nklog - 1;
	rn_buf_printf(b, "<p>Kernel log (dmesg.log), %zu line(s) during the case and up to %d around:</p>\n<pre>",
		      last - first + 1, KLOG_CONTEXT);
	for (i = from; i <= to; i++) {
		bool own = !strcmp(r->klog[i].where, where);

		rn_buf_printf(b, "%s[%5" PRIu64 ".%06" PRIu64 "] ",
			      r->klog[i].bad ? "<span class=\"bad\">" : "",
			      r->klog[i].ts_us / 1000000,
			      r->klog[i].ts_us % 1000000);
		if (!own)
			rn_buf_add(b, "(");
		esc(b, r->klog[i].text);
		if (!own)
			rn_buf_add(b, ")");
		rn_buf_add(b, r->klog[i].bad ? "</span>\n" : "\n");
	}
	rn_buf_add(b, "</pre>\n");
}

/* The runner's runtime-PM timeline of a failed case (rpm_timeline.h). */
static bool runner_rpm(const struct rn_tl_event *e)
{
	return e->runner;
}

/* The runtime-PM calls of a failed case's devices, or why there are none. */
static void failure_rpm(struct rn_buf *b, const struct rn_run *r,
			const struct rn_timeline *tl, const char *where)
{
	const char *how = rn_env_get(r, "rpm_timeline");
	struct rn_tl_sum sum;
	size_t i;

	for (i = 0; i < tl->n; i++)
		if (runner_rpm(&tl->ev[i]) && !strcmp(tl->ev[i].where, where))
			break;
	if (i == tl->n) {
		rn_buf_add(b, "<p>Runtime PM: ");
		if (how && !strcmp(how, "trace"))
			rn_buf_add(b, "no rpm_suspend or rpm_resume call that did something during this case.");
		else if (strchr(where, '/') == strrchr(where, '/'))
			rn_buf_add(b, "the failure is the program's, outside its cases: no timeline.");
		else {
			rn_buf_add(b, "no timeline: ");
			esc(b, how ? how : "this run kept no runtime-PM trace");
			rn_buf_add(b, ".");
		}
		rn_buf_add(b, "</p>\n");
		return;
	}
	rn_tl_summary(tl, tl->ev[i].cycle, 0, &sum);
	rn_buf_printf(b, "<details open><summary>Runtime PM of its devices: %zu device(s), rpm_suspend and rpm_resume calls from the case's start",
		      sum.ndev);
	if (sum.nerr)
		rn_buf_printf(b, ", <span class=\"fail\">%zu with a failed call</span>",
			      sum.nerr);
	rn_buf_add(b, "</summary>\n");
	rn_tl_svg(b, tl, tl->ev[i].cycle, 0);
	rn_buf_add(b, "</details>\n");
}

/* A failure: a program's (c NULL) or a case's, with its devices. */
static void show_failure(struct rn_buf *b, const struct rn_run *r,
			 const struct klog_span *k,
			 const struct rn_timeline *tl, const char *where,
			 const char *reason, const struct rn_case *c)
{
	size_t i;

	rn_buf_add(b, "<div class=\"failure\" id=\"failure-");
	esc(b, where);
	rn_buf_add(b, "\"><h3 class=\"fail\">FAIL <a class=\"self\" href=\"#");
	esc(b, where);
	rn_buf_add(b, "\">");
	esc(b, where);
	rn_buf_add(b, "</a></h3>\n<p>");
	esc(b, reason && reason[0] ? reason : "no reason given");
	rn_buf_add(b, "</p>\n");
	if (c && c->ndevs) {
		rn_buf_add(b, "<ul>\n");
		for (i = 0; i < c->ndevs; i++) {
			rn_buf_add(b, "<li>");
			verdict(b, c->devs[i].result);
			rn_buf_add(b, " ");
			esc(b, c->devs[i].name);
			rn_buf_add(b, ": ");
			esc(b, c->devs[i].reason);
			rn_buf_add(b, "</li>\n");
		}
		rn_buf_add(b, "</ul>\n");
	}
	klog_around(b, r, k, where);
	failure_rpm(b, r, tl, where);
	rn_buf_add(b, "</div>\n");
}

/* Each failure once, with what it needs at hand: linear in the run. */
static void failures_part(struct rn_buf *b, const struct rn_run *r,
			  const struct rn_timeline *tl)
{
	struct klog_span k;
	size_t i, j, n = 0;
	char *w;

	klog_spans(&k, r);
	rn_buf_add(b, "<h2 id=\"failures\">Failures</h2>\n");
	for (i = 0; i < r->nprogs; i++) {
		const struct rn_prog *p = &r->progs[i];

		if (p->result == RN_FAIL) {
			w = rn_xasprintf("%s/%s", p->suite, p->name);
			show_failure(b, r, &k, tl, w, p->reason, NULL);
			free(w);
			n++;
		}
		for (j = 0; j < p->ncases; j++) {
			if (p->cases[j].result != RN_FAIL)
				continue;
			w = rn_xasprintf("%s/%s/%s", p->suite, p->name,
					 p->cases[j].name);
			show_failure(b, r, &k, tl, w, p->cases[j].reason,
				     &p->cases[j]);
			free(w);
			n++;
		}
	}
	klog_spans_free(&k);
	for (i = 0; i < r->nproblems; i++) {
		rn_buf_add(b, "<div class=\"failure\"><p class=\"fail\">");
		esc(b, r->problems[i]);
		rn_buf_add(b, "</p></div>\n");
		n++;
	}
	if (!n)
		rn_buf_add(b, "<p>None.</p>\n");
}

/* One row of the cases table, its name an anchor to itself. */
static void case_row(struct rn_buf *b, const char *where, enum rn_result res,
		     long long ms, const char *reason)
{
	rn_buf_add(b, "<tr id=\"");
	esc(b, where);
	rn_buf_add(b, "\"><td><a class=\"self\" href=\"#");
	esc(b, where);
	rn_buf_add(b, "\">");
	esc(b, where);
	rn_buf_add(b, "</a></td><td>");
	if (res == RN_FAIL) {
		rn_buf_add(b, "<a href=\"#failure-");
		esc(b, where);
		rn_buf_add(b, "\">");
		verdict(b, res);
		rn_buf_add(b, "</a>");
	} else {
		verdict(b, res);
	}
	rn_buf_printf(b, "</td><td>%lld</td><td>", ms);
	esc(b, reason);
	rn_buf_add(b, "</td></tr>\n");
}

static void cases_table(struct rn_buf *b, const struct rn_run *r)
{
	size_t i, j;
	char *w;

	rn_buf_add(b, "<h2 id=\"cases\">Cases</h2>\n<table><tr><th>suite/program/case</th><th>result</th><th>ms</th><th>reason</th></tr>\n");
	for (i = 0; i < r->nprogs; i++) {
		const struct rn_prog *p = &r->progs[i];

		if (!p->ncases || p->result != RN_NONE) {
			enum rn_result res = rn_prog_result(p);
			const char *why = p->reason;

			if (p->ncases)
				res = p->result;
			if (!why)
				why = p->skip_reason;
			w = rn_xasprintf("%s/%s", p->suite, p->name);
			case_row(b, w, res, rn_prog_ms(p), why);
			free(w);
		}
		for (j = 0; j < p->ncases; j++) {
			const struct rn_case *c = &p->cases[j];

			w = rn_xasprintf("%s/%s/%s", p->suite, p->name,
					 c->name);
			case_row(b, w, c->result, rn_case_ms(c), c->reason);
			free(w);
		}
	}
	rn_buf_add(b, "</table>\n");
}

/* Did the case (or program) where ran in fail? */
static bool failed_where(const struct rn_run *r, const char *where)
{
	size_t i, j;
	bool hit = false;
	char *w;

	for (i = 0; i < r->nprogs && !hit; i++) {
		const struct rn_prog *p = &r->progs[i];

		for (j = 0; j < p->ncases && !hit; j++) {
			if (p->cases[j].result != RN_FAIL)
				continue;
			w = rn_xasprintf("%s/%s/%s", p->suite, p->name,
					 p->cases[j].name);
			hit = !strcmp(w, where);
			free(w);
		}
	}
	return hit;
}

static void timelines_part(struct rn_buf *b, const struct rn_run *r,
		      const struct rn_timeline *tl)
{
	const char **cycles;
	struct rn_tl_sum sum;
	size_t n, i, j, shown = 0;

	rn_buf_add(b, "<h2 id=\"timelines\">Timelines</h2>\n");
	if (tl->bad) {
		rn_buf_printf(b, "<p class=\"fail\">%zu TIMELINE line(s) could not be read, the first: <code>",
			      tl->bad);
		esc(b, tl->first_bad);
		rn_buf_add(b, "</code></p>\n");
	}
	n = rn_tl_cycles(tl, &cycles);
	for (i = 0; i < n; i++) {
		for (j = 0; j < tl->n && strcmp(tl->ev[j].cycle, cycles[i]); j++)
			;
		/* The runner's: drawn in the failure. */
		if (j < tl->n && runner_rpm(&tl->ev[j]))
			continue;
		rn_tl_summary(tl, cycles[i], RN_TL_FOLD_US, &sum);
		rn_buf_printf(b, "<details%s><summary><b>",
			      sum.where && failed_where(r, sum.where) ?
			      " open" : "");
		esc(b, cycles[i]);
		rn_buf_add(b, "</b> <small>(");
		esc(b, sum.where ? sum.where : "");
		rn_buf_printf(b, ")</small>: %zu device%s, %zu drawn (a callback of 1 ms or more, or one that failed)",
			      sum.ndev, sum.ndev == 1 ? "" : "s", sum.nshown);
		if (sum.slowest) {
			rn_buf_add(b, "; slowest ");
			esc(b, sum.slowest->device);
			rn_buf_printf(b, " %s %" PRIu64 " \xc2\xb5s",
				      sum.slowest->phase, sum.slowest->dur_us);
		}
		if (sum.nerr)
			rn_buf_printf(b, "; <span class=\"fail\">%zu failed</span>",
				      sum.nerr);
		rn_buf_add(b, "</summary>\n");
		rn_tl_svg(b, tl, cycles[i], RN_TL_FOLD_US);
		rn_buf_add(b, "</details>\n");
		shown++;
	}
	if (!shown)
		rn_buf_add(b, "<p>No program printed a timeline in this run.</p>\n");
	free(cycles);
}

static char *page(const struct rn_run *r, const struct rn_timeline *tl)
{
	struct rn_buf b = { 0 };

	rn_buf_add(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>devpm run ");
	esc(&b, r->run_id);
	rn_buf_printf(&b, "</title>\n<style>%s</style></head><body>\n<h1>devpm run ",
		      css);
	esc(&b, r->run_id);
	rn_buf_add(&b, "</h1>\n");
	verdict_banner(&b, r);
	rn_buf_add(&b, "<p>Started ");
	esc(&b, r->started);
	rn_buf_add(&b, ", kernel ");
	esc(&b, rn_env_get(r, "kernel_release"));
	rn_buf_add(&b, ", machine ");
	esc(&b, rn_env_get(r, "product_name"));
	rn_buf_add(&b, ".</p>\n");
	suites_table(&b, r);
	failures_part(&b, r, tl);
	timelines_part(&b, r, tl);
	cases_table(&b, r);
	rn_buf_add(&b, "</body></html>\n");
	return b.s;
}

int rn_cmd_report(int argc, char **argv)
{
	char path[PATH_MAX], err[PATH_MAX + 128], *html;
	struct rn_timeline tl = { 0 };
	struct rn_run *r;
	struct stat st;
	int code = RN_EXIT_OK;

	if (argc != 2 || argv[1][0] == '-')
		return rn_usage_error("report: give one results directory: devpm report results/<run-id>");
	if (stat(argv[1], &st) < 0 || !S_ISDIR(st.st_mode))
		return rn_usage_error("report: %s is not a directory; give a results directory (results/<run-id>)",
				      argv[1]);
	snprintf(path, sizeof(path), "%s/stream.log", argv[1]);
	r = rn_run_new();
	if (rn_stream_read(path, r, err, sizeof(err)) < 0) {
		rn_run_free(r);
		return rn_usage_error("report: %s; give a directory devpm run or devpm collect wrote",
				      err);
	}
	rn_stream_finish(r, NULL);
	if (rn_tl_read_stream(path, &tl) < 0) {
		code = rn_usage_error("report: %s: %s", path,
				      rn_read_error(errno));
		goto out;
	}
	html = page(r, &tl);
	snprintf(path, sizeof(path), "%s/report.html", argv[1]);
	if (rn_write_file(path, html, strlen(html)) < 0)
		code = rn_usage_error("report: cannot write %s: %s", path,
				      rn_write_file_why());
	else
		printf("%s\n", path);
	free(html);
out:
	rn_tl_free(&tl);
	rn_run_free(r);
	return code;
}
