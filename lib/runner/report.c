// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - `devpm report RESULTS_DIR`: RESULTS_DIR/report.html, one
 * self-contained page (inline CSS and SVG, nothing fetched): the verdict
 * of each suite, each failure with its reason and the kernel log lines
 * around it, and the timeline of each suspend cycle and runtime-PM case
 * the programs printed (timeline.h).  Built from the run's stream.log, the
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
"svg.timeline .sect{font-weight:bold}";

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

/* A failure: a program's (c NULL) or a case's, with its devices. */
static void show_failure(struct rn_buf *b, const struct rn_run *r,
			 const struct klog_span *k, const char *where,
			 const char *reason, const struct rn_case *c)
{
	size_t i;

	rn_buf_add(b, "<div class=\"failure\"><h3 class=\"fail\">FAIL ");
	esc(b, where);
	rn_buf_add(b, "</h3>\n<p>");
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
	rn_buf_add(b, "</div>\n");
}

/* Each failure once, with what it needs at hand: linear in the run. */
static void failures(struct rn_buf *b, const struct rn_run *r)
{
	struct klog_span k;
	size_t i, j, n = 0;
	char *w;

	klog_spans(&k, r);
	rn_buf_add(b, "<h2>Failures</h2>\n");
	for (i = 0; i < r->nprogs; i++) {
		const struct rn_prog *p = &r->progs[i];

		if (p->result == RN_FAIL) {
			w = rn_xasprintf("%s/%s", p->suite, p->name);
			show_failure(b, r, &k, w, p->reason, NULL);
			free(w);
			n++;
		}
		for (j = 0; j < p->ncases; j++) {
			if (p->cases[j].result != RN_FAIL)
				continue;
			w = rn_xasprintf("%s/%s/%s", p->suite, p->name,
					 p->cases[j].name);
			show_failure(b, r, &k, w, p->cases[j].reason,
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

static void cases_table(struct rn_buf *b, const struct rn_run *r)
{
	size_t i, j;

	rn_buf_add(b, "<h2>Cases</h2>\n<table><tr><th>suite/program/case</th><th>result</th><th>ms</th><th>reason</th></tr>\n");
	for (i = 0; i < r->nprogs; i++) {
		const struct rn_prog *p = &r->progs[i];

		if (!p->ncases) {
			rn_buf_add(b, "<tr><td>");
			esc(b, p->suite);
			rn_buf_add(b, "/");
			esc(b, p->name);
			rn_buf_add(b, "</td><td>");
			verdict(b, rn_prog_result(p));
			rn_buf_printf(b, "</td><td>%lld</td><td>",
				      rn_prog_ms(p));
			esc(b, p->reason ? p->reason : p->skip_reason);
			rn_buf_add(b, "</td></tr>\n");
		}
		for (j = 0; j < p->ncases; j++) {
			const struct rn_case *c = &p->cases[j];

			rn_buf_add(b, "<tr><td>");
			esc(b, p->suite);
			rn_buf_add(b, "/");
			esc(b, p->name);
			rn_buf_add(b, "/");
			esc(b, c->name);
			rn_buf_add(b, "</td><td>");
			verdict(b, c->result);
			rn_buf_printf(b, "</td><td>%lld</td><td>",
				      rn_case_ms(c));
			esc(b, c->reason);
			rn_buf_add(b, "</td></tr>\n");
		}
	}
	rn_buf_add(b, "</table>\n");
}

static void timelines(struct rn_buf *b, const struct rn_timeline *tl)
{
	const char **cycles;
	const char *where;
	size_t n, i, j;

	rn_buf_add(b, "<h2>Timelines</h2>\n");
	if (tl->bad) {
		rn_buf_printf(b, "<p class=\"fail\">%zu TIMELINE line(s) could not be read, the first: <code>",
			      tl->bad);
		esc(b, tl->first_bad);
		rn_buf_add(b, "</code></p>\n");
	}
	n = rn_tl_cycles(tl, &cycles);
	if (!n)
		rn_buf_add(b, "<p>No program printed a timeline in this run.</p>\n");
	for (i = 0; i < n; i++) {
		where = "";
		for (j = 0; j < tl->n; j++)
			if (!strcmp(tl->ev[j].cycle, cycles[i])) {
				where = tl->ev[j].where;
				break;
			}
		rn_buf_add(b, "<h3>");
		esc(b, cycles[i]);
		rn_buf_add(b, " <small>(");
		esc(b, where);
		rn_buf_add(b, ")</small></h3>\n");
		rn_tl_svg(b, tl, cycles[i]);
	}
	free(cycles);
}

static char *page(const struct rn_run *r, const struct rn_timeline *tl)
{
	struct rn_buf b = { 0 };
	char totals[256];

	rn_totals_line(r, totals, sizeof(totals));
	rn_buf_add(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>devpm run ");
	esc(&b, r->run_id);
	rn_buf_printf(&b, "</title>\n<style>%s</style></head><body>\n<h1>devpm run ",
		      css);
	esc(&b, r->run_id);
	rn_buf_add(&b, "</h1>\n<p>Started ");
	esc(&b, r->started);
	rn_buf_add(&b, ", kernel ");
	esc(&b, rn_env_get(r, "kernel_release"));
	rn_buf_add(&b, ", machine ");
	esc(&b, rn_env_get(r, "product_name"));
	rn_buf_add(&b, ".<br>");
	esc(&b, totals);
	if (r->incomplete)
		rn_buf_add(&b, " <span class=\"fail\">The run did not finish.</span>");
	rn_buf_add(&b, "</p>\n");
	suites_table(&b, r);
	failures(&b, r);
	timelines(&b, tl);
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
