// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_junit.c - junit.xml: one <testsuite> per program ("suite/prog"),
 * one <testcase classname="devpm.suite.prog"> per case.  An expected
 * failure is a <skipped> whose message starts with "XFAIL".  A result that
 * belongs to the program itself is a testcase named after the program.
 * A guest crash is an <error type="crash">, and a case the crash (or a
 * timeout, a kill) left unrun an <error type="not_run">: the test could
 * not say pass or fail.  Valid against the JUnit schema of the Jenkins
 * xunit plugin (tests/junit/junit-10.xsd): <testsuites> has no
 * "skipped" attribute there.
 */
#include <stdlib.h>
#include <string.h>

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

static void lines(struct rn_buf *b, const char *tag, char *const *v,
		  size_t n)
{
	size_t i;

	if (!n)
		return;
	rn_buf_printf(b, "<%s>", tag);
	for (i = 0; i < n; i++) {
		rn_xml_escape(b, v[i]);
		rn_buf_add(b, "\n");
	}
	rn_buf_printf(b, "</%s>", tag);
}

/* The guest died during it: no verdict of the test's own (parse.c). */
static bool guest_died(const struct rn_prog *p, enum rn_result res,
		    const char *reason)
{
	return res == RN_FAIL && p->status && !strcmp(p->status, "crash") &&
	       reason && (rn_starts(reason, "guest crashed during ") ||
			  rn_starts(reason, "guest stopped responding during "));
}

static void verdict(struct rn_buf *b, const struct rn_prog *p,
		    enum rn_result res, const char *reason,
		    const struct rn_case *c)
{
	bool crash = guest_died(p, res, reason);
	char *msg;
	size_t i;

	if (res == RN_FAIL) {
		rn_buf_add(b, crash ? "      <error" : "      <failure");
		attr(b, "message", reason ? reason : "failed");
		rn_buf_add(b, crash ? " type=\"crash\">" : " type=\"fail\">");
		for (i = 0; c && i < c->ndevs; i++) {
			msg = rn_xasprintf("%s %s: %s\n", c->devs[i].name,
					   rn_result_name(c->devs[i].result),
					   c->devs[i].reason);
			rn_xml_escape(b, msg);
			free(msg);
		}
		rn_buf_add(b, crash ? "</error>\n" : "</failure>\n");
	} else if (res == RN_NOT_RUN) {
		rn_buf_add(b, "      <error");
		attr(b, "message", reason && reason[0] ? reason : "not run");
		rn_buf_add(b, " type=\"not_run\"/>\n");
	} else if (res == RN_SKIP || res == RN_XFAIL || res == RN_NONE) {
		msg = rn_xasprintf("%s%s", res == RN_XFAIL ? "XFAIL " : "",
				   reason && reason[0] ? reason : "no result");
		rn_buf_add(b, "      <skipped");
		attr(b, "message", msg);
		rn_buf_add(b, "/>\n");
		free(msg);
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

static void put_testcase(struct rn_buf *b, const struct rn_prog *p,
		     const char *name, long long ms, enum rn_result res,
		     const char *reason, const struct rn_case *c)
{
	char *cls = rn_xasprintf("devpm.%s.%s", p->suite, p->name);

	rn_buf_add(b, "    <testcase");
	attr(b, "classname", cls);
	attr(b, "name", name);
	rn_buf_printf(b, " time=\"%lld.%03lld\">\n", ms / 1000, ms % 1000);
	verdict(b, p, res, reason, c);
	if (c && c->nout) {
		rn_buf_add(b, "      ");
		lines(b, "system-out", c->out, c->nout);
		rn_buf_add(b, "\n");
	}
	rn_buf_add(b, "    </testcase>\n");
	free(cls);
}

static void put_testsuite(struct rn_buf *b, const struct rn_prog *p)
{
	struct rn_totals t = { 0 };
	long long ms = rn_prog_ms(p);
	char *name = rn_xasprintf("%s/%s", p->suite, p->name);
	unsigned int err = errors_of(p);
	size_t i;

	rn_prog_totals(p, &t);
	rn_buf_add(b, "  <testsuite");
	attr(b, "name", name);
	rn_buf_printf(b, " tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%lld.%03lld\">\n",
		      t.pass + t.fail + t.skip + t.xfail + t.not_run,
		      t.fail + t.not_run - err, err, t.skip + t.xfail,
		      ms / 1000, ms % 1000);
	rn_buf_add(b, "    <properties><property name=\"status\"");
	attr(b, "value", p->status ? p->status : "");
	rn_buf_add(b, "/></properties>\n");
	for (i = 0; i < p->ncases; i++)
		put_testcase(b, p, p->cases[i].name, rn_case_ms(&p->cases[i]),
			 p->cases[i].result, p->cases[i].reason,
			 &p->cases[i]);
	if (p->result != RN_NONE)
		put_testcase(b, p, p->name, ms, p->result, p->reason, NULL);
	if (p->nout || p->nnotes) {
		rn_buf_add(b, "    ");
		lines(b, "system-out", p->out, p->nout);
		lines(b, "system-err", p->notes, p->nnotes);
		rn_buf_add(b, "\n");
	}
	rn_buf_add(b, "  </testsuite>\n");
	free(name);
}

char *rn_out_junit(const struct rn_run *r)
{
	struct rn_buf b = { 0 };
	unsigned int err = 0;
	struct rn_totals t;
	long long ms;
	size_t i;

	rn_totals(r, &t);
	for (i = 0; i < r->nprogs; i++)
		err += errors_of(&r->progs[i]);
	ms = r->end_us > r->start_us ?
		(long long)(r->end_us - r->start_us) / 1000 : 0;
	rn_buf_add(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	rn_buf_add(&b, "<testsuites name=\"devpm\"");
	rn_buf_printf(&b, " tests=\"%zu\" failures=\"%zu\" errors=\"%u\" time=\"%lld.%03lld\">\n",
		      t.pass + t.fail + t.skip + t.xfail + t.not_run +
		      r->nproblems,
		      t.fail + t.not_run - err + r->nproblems, err,
		      ms / 1000, ms % 1000);
	for (i = 0; i < r->nprogs; i++)
		put_testsuite(&b, &r->progs[i]);
	/* What failed the run outside any program. */
	if (r->nproblems)
		rn_buf_printf(&b, "  <testsuite name=\"devpm/run\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n",
			      r->nproblems, r->nproblems);
	for (i = 0; i < r->nproblems; i++) {
		rn_buf_printf(&b, "    <testcase classname=\"devpm.run\" name=\"problem%zu\" time=\"0.000\">\n      <failure",
			      i + 1);
		attr(&b, "message", r->problems[i]);
		rn_buf_add(&b, " type=\"fail\"/>\n    </testcase>\n");
	}
	if (r->nproblems)
		rn_buf_add(&b, "  </testsuite>\n");
	rn_buf_add(&b, "</testsuites>\n");
	return b.s;
}
