// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_junit.c - junit.xml: one <testsuite> per program ("suite/prog"),
 * one <testcase classname="devpm.suite.prog"> per case.  An expected
 * failure is a <skipped> whose text starts with "XFAIL".  A result that
 * belongs to the program itself is a testcase named after the program.
 * A guest crash is an <error type="crash">, and a case the crash (or a
 * timeout, a kill) left unrun an <error type="not_run">: the test could
 * not say pass or fail.
 *
 * Valid at once against the xunit plugin's junit-10.xsd, the Jenkins
 * JUnit 4 schema and Ant's (tests/junit/README), so it takes what each
 * allows: <testsuites> carries no attribute (Ant's has none; the counts
 * are each testsuite's); a testsuite has package, id, timestamp (UTC, no
 * zone), hostname, <properties> with at least one, then its testcases,
 * then <system-out> and <system-err> always; a testcase holds at most one
 * of skipped/error/failure and no output of its own (Ant), <skipped> is
 * text only (Jenkins 4).  So a failing case's kernel log is in its
 * <failure> text and, headed by the case, in its program's <system-err>.
 */
#include <stdlib.h>
#include <string.h>

#include "case_info.h"
#include "output.h"

void rn_xml_escape(struct rn_buf *b, const char *s)
{
	/* Text is clean UTF-8 without control characters (rn_clean_text). */
	for (; *s; s++) {
		switch (*s) {
		case '<':
			rn_buf_add(b, "&lt;");
			break;
		case '>':
			rn_buf_add(b, "&gt;");
			break;
		case '&':
			rn_buf_add(b, "&amp;");
			break;
		case '"':
			rn_buf_add(b, "&quot;");
			break;
		case '\'':
			rn_buf_add(b, "&apos;");
			break;
		case '\t':
			rn_buf_add(b, "&#9;");
			break;
		default:
			rn_buf_addn(b, s, 1);
		}
	}
}

static void attr(struct rn_buf *b, const char *name, const char *val)
{
	rn_buf_printf(b, " %s=\"", name);
	rn_xml_escape(b, val);
	rn_buf_add(b, "\"");
}

/* <tag>lines</tag>, every line ended; <tag/> when there are none. */
static void put_lines(struct rn_buf *b, char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		rn_xml_escape(b, v[i]);
		rn_buf_add(b, "\n");
	}
}

/* The guest died during it: no verdict of the test's own (parse.c). */
static bool guest_died(const struct rn_prog *p, enum rn_result res,
		       const char *reason)
{
	return res == RN_FAIL && p->status && !strcmp(p->status, "crash") &&
	       reason && (rn_starts(reason, "guest crashed during ") ||
			  rn_starts(reason, "guest stopped responding during "));
}

/* A failure's text: the devices' results, then the kernel log. */
static void failure_text(struct rn_buf *b, const struct rn_run *r,
			 const struct rn_prog *p, const struct rn_case *c)
{
	char *where = rn_where(p, c), *klog, *msg;
	size_t i;

	for (i = 0; c && i < c->ndevs; i++) {
		msg = rn_xasprintf("%s %s: %s\n", c->devs[i].name,
				   rn_result_name(c->devs[i].result),
				   c->devs[i].reason);
		rn_xml_escape(b, msg);
		free(msg);
	}
	klog = rn_klog_excerpt(r, where, RN_KLOG_EXCERPT_MAX);
	if (klog[0]) {
		rn_buf_add(b, "kernel log during ");
		rn_xml_escape(b, where);
		rn_buf_add(b, ":\n");
		rn_xml_escape(b, klog);
	}
	free(klog);
	free(where);
}

static void verdict(struct rn_buf *b, const struct rn_run *r,
		    const struct rn_prog *p, enum rn_result res,
		    const char *reason, const struct rn_case *c)
{
	bool crash = guest_died(p, res, reason);

	if (res == RN_FAIL) {
		rn_buf_add(b, crash ? "      <error" : "      <failure");
		attr(b, "message", reason ? reason : "failed");
		rn_buf_add(b, crash ? " type=\"crash\">" : " type=\"fail\">");
		failure_text(b, r, p, c);
		rn_buf_add(b, crash ? "</error>\n" : "</failure>\n");
	} else if (res == RN_NOT_RUN) {
		rn_buf_add(b, "      <error");
		attr(b, "message", reason && reason[0] ? reason : "not run");
		rn_buf_add(b, " type=\"not_run\"/>\n");
	} else if (res == RN_SKIP || res == RN_XFAIL || res == RN_NONE) {
		rn_buf_add(b, "      <skipped>");
		if (res == RN_XFAIL)
			rn_buf_add(b, "XFAIL ");
		rn_xml_escape(b, reason && reason[0] ? reason : "no result");
		rn_buf_add(b, "</skipped>\n");
	}
}

/* Of a program's results: how many are errors (crash, not run). */
static unsigned int errors_of(const struct rn_prog *p)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < p->ncases; i++)
		n += p->cases[i].result == RN_NOT_RUN ||
		     guest_died(p, p->cases[i].result, p->cases[i].reason);
	return n + guest_died(p, p->result, p->reason);
}

static void put_testcase(struct rn_buf *b, const struct rn_run *r,
			 const struct rn_prog *p, const char *name,
			 long long ms, enum rn_result res, const char *reason,
			 const struct rn_case *c)
{
	char *cls = rn_xasprintf("devpm.%s.%s", p->suite, p->name);

	/* The schemas' times are never negative (junit-10: SUREFIRE_TIME). */
	if (ms < 0)
		ms = 0;
	rn_buf_add(b, "    <testcase");
	attr(b, "classname", cls);
	attr(b, "name", name);
	rn_buf_printf(b, " time=\"%lld.%03lld\"", ms / 1000, ms % 1000);
	if (res == RN_PASS) {
		rn_buf_add(b, "/>\n");
	} else {
		rn_buf_add(b, ">\n");
		verdict(b, r, p, res, reason, c);
		rn_buf_add(b, "    </testcase>\n");
	}
	free(cls);
}

/* The testsuite's head: what Ant's schema requires, then the counts. */
static void suite_head(struct rn_buf *b, const struct rn_run *r,
		       const char *name, const char *package, size_t id,
		       uint64_t start_us)
{
	const char *host = rn_env_get(r, "hostname");
	char when[64];

	if (rn_wall_time(r, start_us, RN_TIME_ANT, when, sizeof(when)))
		snprintf(when, sizeof(when), "1970-01-01T00:00:00");
	rn_buf_add(b, "  <testsuite");
	attr(b, "name", name);
	attr(b, "package", package);
	rn_buf_printf(b, " id=\"%zu\"", id);
	attr(b, "timestamp", when);
	attr(b, "hostname", host && host[0] ? host : "localhost");
}

static void put_props(struct rn_buf *b, const struct rn_prop *props,
		       size_t nprops, const char *status, int timeout_s)
{
	size_t i;

	rn_buf_add(b, "    <properties>\n      <property name=\"status\"");
	attr(b, "value", status ? status : "");
	rn_buf_printf(b, "/>\n      <property name=\"timeout_s\" value=\"%d\"/>\n",
		      timeout_s);
	for (i = 0; i < nprops; i++) {
		rn_buf_add(b, "      <property");
		attr(b, "name", props[i].key);
		attr(b, "value", props[i].value);
		rn_buf_add(b, "/>\n");
	}
	rn_buf_add(b, "    </properties>\n");
}

/* The program's notes, then each failed case's kernel log, headed. */
static void suite_err(struct rn_buf *b, const struct rn_run *r,
		      const struct rn_prog *p)
{
	char *where, *klog;
	size_t i;

	put_lines(b, p->notes, p->nnotes);
	for (i = 0; i <= p->ncases; i++) {
		const struct rn_case *c = NULL;

		if (i < p->ncases)
			c = &p->cases[i];
		if ((c ? c->result : p->result) != RN_FAIL)
			continue;
		where = rn_where(p, c);
		klog = rn_klog_excerpt(r, where, RN_KLOG_EXCERPT_MAX);
		if (klog[0]) {
			rn_buf_add(b, "== ");
			rn_xml_escape(b, where);
			rn_buf_add(b, ": kernel log ==\n");
			rn_xml_escape(b, klog);
		}
		free(klog);
		free(where);
	}
}

static void put_testsuite(struct rn_buf *b, const struct rn_run *r,
			  const struct rn_prog *p, size_t id,
			  const struct rn_prop *props, size_t nprops)
{
	struct rn_totals t = { 0 };
	long long ms = rn_prog_ms(p);
	char *name = rn_xasprintf("%s/%s", p->suite, p->name);
	char *pkg = rn_xasprintf("devpm.%s", p->suite);
	unsigned int err = errors_of(p);
	size_t i;

	rn_prog_totals(p, &t);
	if (ms < 0)
		ms = 0;
	suite_head(b, r, name, pkg, id, p->start_us);
	rn_buf_printf(b, " tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%lld.%03lld\">\n",
		      t.pass + t.fail + t.skip + t.xfail + t.not_run,
		      t.fail + t.not_run - err, err, t.skip + t.xfail,
		      ms / 1000, ms % 1000);
	put_props(b, props, nprops, p->status, p->timeout_s);
	for (i = 0; i < p->ncases; i++)
		put_testcase(b, r, p, p->cases[i].name,
			     rn_case_ms(&p->cases[i]), p->cases[i].result,
			     p->cases[i].reason, &p->cases[i]);
	if (p->result != RN_NONE)
		put_testcase(b, r, p, p->name, ms, p->result, p->reason, NULL);
	rn_buf_add(b, "    <system-out>");
	put_lines(b, p->out, p->nout);
	for (i = 0; i < p->ncases; i++)
		put_lines(b, p->cases[i].out, p->cases[i].nout);
	rn_buf_add(b, "</system-out>\n    <system-err>");
	suite_err(b, r, p);
	rn_buf_add(b, "</system-err>\n  </testsuite>\n");
	free(name);
	free(pkg);
}

/* What failed the run outside any program, as one more testsuite. */
static void put_problems(struct rn_buf *b, const struct rn_run *r, size_t id,
			 const struct rn_prop *props, size_t nprops)
{
	size_t i;

	suite_head(b, r, "devpm/run", "devpm.run", id, r->start_us);
	rn_buf_printf(b, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n",
		      r->nproblems, r->nproblems);
	put_props(b, props, nprops, r->incomplete ? "incomplete" : "done", 0);
	for (i = 0; i < r->nproblems; i++) {
		rn_buf_printf(b, "    <testcase classname=\"devpm.run\" name=\"problem%zu\" time=\"0.000\">\n      <failure",
			      i + 1);
		attr(b, "message", r->problems[i]);
		rn_buf_add(b, " type=\"fail\"/>\n    </testcase>\n");
	}
	rn_buf_add(b, "    <system-out/>\n    <system-err/>\n  </testsuite>\n");
}

char *rn_out_junit(const struct rn_run *r)
{
	struct rn_buf b = { 0 };
	struct rn_prop *props;
	size_t i, nprops;

	nprops = rn_run_props(r, &props);
	rn_buf_add(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
	for (i = 0; i < r->nprogs; i++)
		put_testsuite(&b, r, &r->progs[i], i, props, nprops);
	if (r->nproblems)
		put_problems(&b, r, r->nprogs, props, nprops);
	rn_buf_add(&b, "</testsuites>\n");
	rn_props_free(props, nprops);
	return b.s;
}
