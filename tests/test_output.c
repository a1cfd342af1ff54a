// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_output.c - results.ktap, junit.xml, summary.json and env.json as
 * written from a run model, read back: KTAP with the runner's own strict
 * reader, JSON with its reader, JUnit with a small well-formedness check.
 * Names and reasons carry characters that must be escaped.
 */
#include "kselftest_harness.h"
#include "test_runner.h"
#include "json.h"
#include "ktap.h"
#include "output.h"
#include "sha256.h"

static const char stream[] =
	"DEVPM-STREAM 1\n"
	"RUN 20250101-120000 2025-01-01T12:00:00Z 1000000\n"
	"ENV kernel_release=6.1.0-57-amd64\n"
	"ENV note=\"quoted\" <tag> & tab\there\n"
	"PROG 1000000 pci/rt 30\n"
	"CASE idle\nCASE busy\nCASE later\n"
	"OUT 1000100 TAP version 13\n"
	"OUT 1000200 1..2\n"
	"OUT 1000300 #  RUN           pci.idle ...\n"
	"OUT 1000400     ok 1 0000:00:01.0 # suspend_us=900\n"
	"OUT 1000500 # METRIC 0000:00:01.0 suspend_us=900.5\n"
	"OUT 1000600 ok 1 pci.idle\n"
	"OUT 1000700 #  RUN           pci.busy ...\n"
	"KMSG 1000750 ------------[ cut here ]------------\n"
	"KMSG 1000751 WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2\n"
	"OUT 1000800     not ok 1 0000:00:02.0 # usage <1> & \"held\" \x01\xff\n"
	"OUT 1000900 not ok 2 pci.busy\n"
	"END 1002000 pci/rt 2 exit:1\n"
	"PROG 1003000 pci/needs 60\n"
	"CASE x\n"
	"OUT 1003100 TAP version 13\n"
	"OUT 1003200 1..0 # SKIP no CONFIG_<X>\n"
	"END 1003300 pci/needs 0 exit:4\n"
	"PROG 1004000 usb/known 60\n"
	"CASE k\n"
	"OUT 1004100 TAP version 13\n"
	"OUT 1004200 #  RUN           usb.k ...\n"
	"OUT 1004300 ok 1 # SKIP XFAIL hub keeps usage\n"
	"END 1004400 usb/known 0 exit:0\n"
	"DONE 1005000 1\n";

TEST(xml_check_rejects_broken)
{
	int c, f, s;

	/* Negative controls of the checker itself. */
	EXPECT_NE(NULL, xml_check("<?xml version=\"1.0\"?>\n<a><b></a>", &c,
				  &f, &s));
	EXPECT_NE(NULL, xml_check("<?xml version=\"1.0\"?>\n<a x=\"<\"/>", &c,
				  &f, &s));
	EXPECT_NE(NULL, xml_check("<?xml version=\"1.0\"?>\n<a>&bogus;</a>",
				  &c, &f, &s));
	EXPECT_NE(NULL, xml_check("<?xml version=\"1.0\"?>\n<a/><b/>", &c, &f,
				  &s));
	EXPECT_EQ(NULL, xml_check("<?xml version=\"1.0\"?>\n<a x=\"&amp;\">t&lt;</a>\n",
				  &c, &f, &s));
}

TEST(junit_well_formed_and_counted)
{
	struct rn_run *r = tr_stream(stream, true, NULL);
	char *x = rn_out_junit(r);
	const char *why;
	int c, f, s;

	why = xml_check(x, &c, &f, &s);
	EXPECT_EQ(NULL, why) TH_LOG("%s", x);
	/* idle, busy, later (not run), needs (program-level), k */
	EXPECT_EQ(5, c);
	EXPECT_EQ(1, f);
	EXPECT_EQ(2, s);
	/* Ant's schema: no attribute on the root, these on a testsuite. */
	ASSERT_HAS(x, "<testsuites>\n  <testsuite name=\"pci/rt\" package=\"devpm.pci\" id=\"0\" timestamp=\"2025-01-01T12:00:00\" hostname=\"localhost\" tests=\"3\" failures=\"1\" errors=\"1\" skipped=\"0\"");
	ASSERT_HAS(x, "<property name=\"kernel_release\" value=\"6.1.0-57-amd64\"/>");
	ASSERT_HAS(x, "<property name=\"config_sha256\" value=\"\"/>");
	ASSERT_HAS(x, "name=\"later\" time=\"0.000\">\n      <error message=\"not run: the program ended (exit:1) before this case\" type=\"not_run\"/>");
	ASSERT_HAS(x, "classname=\"devpm.pci.rt\" name=\"busy\"");
	ASSERT_HAS(x, "usage &lt;1&gt; &amp; &quot;held&quot; ??");
	/* Jenkins 4's schema: <skipped> is text only. */
	ASSERT_HAS(x, "<skipped>XFAIL hub keeps usage</skipped>");
	ASSERT_HAS(x, "<skipped>no CONFIG_&lt;X&gt;</skipped>");
	/* The failure's kernel log, in its text and its program's stderr. */
	ASSERT_HAS(x, "kernel log during pci/rt/busy:\n[    1.000750] BAD ------------[ cut here ]------------\n[    1.000751] BAD WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2\n</failure>");
	ASSERT_HAS(x, "<system-err>not run: later\n== pci/rt/busy: kernel log ==\n[    1.000750]");
	/* The WARN's reason quotes the line naming file and function. */
	ASSERT_HAS(x, "kernel: WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2 (during busy)");
	free(x);
	rn_run_free(r);
}

TEST(ktap_reads_back)
{
	struct rn_run *r = tr_stream(stream, true, NULL);
	const struct rn_ktap *pci, *rt, *c;
	struct rn_ktap *k;
	char err[256], *text = rn_out_ktap(r);

	k = rn_ktap_parse(text, err, sizeof(err));
	ASSERT_NE(NULL, k) TH_LOG("%s\n%s", err, text);
	ASSERT_EQ(2, k->nkids);
	pci = rn_ktap_kid(k, "pci");
	ASSERT_NE(NULL, pci);
	EXPECT_EQ(RN_FAIL, pci->result);
	rt = rn_ktap_kid(pci, "rt");
	ASSERT_NE(NULL, rt);
	ASSERT_EQ(3, rt->nkids);
	c = rn_ktap_kid(rt, "later");
	ASSERT_NE(NULL, c);
	EXPECT_EQ(RN_NOT_RUN, c->result);
	EXPECT_STREQ("not run: the program ended (exit:1) before this case",
		     c->reason);
	c = rn_ktap_kid(rt, "idle");
	ASSERT_NE(NULL, c);
	EXPECT_EQ(RN_PASS, c->result);
	ASSERT_EQ(1, c->nkids);
	EXPECT_STREQ("0000:00:01.0", c->kids[0].name);
	c = rn_ktap_kid(rt, "busy");
	EXPECT_EQ(RN_FAIL, c->result);
	EXPECT_STREQ("0000:00:02.0: usage <1> & \"held\" ??; kernel: WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2 (during busy)", c->reason);
	c = rn_ktap_kid(pci, "needs");
	EXPECT_EQ(RN_SKIP, c->result);
	EXPECT_STREQ("no CONFIG_<X>", c->reason);
	c = rn_ktap_kid(rn_ktap_kid(rn_ktap_kid(k, "usb"), "known"), "k");
	ASSERT_NE(NULL, c);
	EXPECT_EQ(RN_XFAIL, c->result);
	EXPECT_STREQ("hub keeps usage", c->reason);
	/* The "not run" note survives as a diagnostic line. */
	ASSERT_HAS(text, "# not run: later");
	rn_ktap_free(k);
	free(text);
	rn_run_free(r);
}

TEST(ktap_reader_rejects_bad)
{
	char err[256];

	/*
	 * Negative controls: the reader is strict, or reading back proves
	 * nothing.
	 */
	EXPECT_EQ(NULL, rn_ktap_parse("KTAP version 1\n1..2\nok 1 a\n", err,
				      sizeof(err)));
	ASSERT_HAS(err, "plan");
	EXPECT_EQ(NULL, rn_ktap_parse("KTAP version 1\n1..1\nok 2 a\n", err,
				      sizeof(err)));
	EXPECT_EQ(NULL, rn_ktap_parse("1..1\nok 1 a\n", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_ktap_parse("KTAP version 1\n1..1\n"
				      "    KTAP version 1\n    1..1\n"
				      "    ok 1 d\n", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_ktap_parse("KTAP version 1\n1..1\nbogus\nok 1 a\n",
				      err, sizeof(err)));
}

TEST(summary_json_reads_back)
{
	struct rn_run *r = tr_stream(stream, true, NULL);
	const struct rn_json *cases, *c, *m, *t;
	char err[256], *text = rn_out_summary(r);
	struct rn_json *j;
	double v;

	j = rn_json_parse(text, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s\n%s", err, text);
	EXPECT_STREQ("20250101-120000", rn_json_str(j, "run_id"));
	EXPECT_STREQ("2025-01-01T12:00:00Z", rn_json_str(j, "started"));
	ASSERT_TRUE(rn_json_num(j, "exit_code", &v));
	EXPECT_EQ(1, (int)v);
	ASSERT_TRUE(rn_json_num(j, "duration_ms", &v));
	EXPECT_EQ(5, (int)v);
	t = rn_json_get(j, "totals");
	ASSERT_TRUE(rn_json_num(t, "pass", &v));
	EXPECT_EQ(1, (int)v);
	ASSERT_TRUE(rn_json_num(t, "fail", &v));
	EXPECT_EQ(1, (int)v);
	ASSERT_TRUE(rn_json_num(t, "skip", &v));
	EXPECT_EQ(1, (int)v);
	ASSERT_TRUE(rn_json_num(t, "xfail", &v));
	EXPECT_EQ(1, (int)v);
	ASSERT_TRUE(rn_json_num(t, "not_run", &v));
	EXPECT_EQ(1, (int)v);
	EXPECT_STREQ("devpm-summary", rn_json_str(j, "format"));
	ASSERT_TRUE(rn_json_num(j, "format_version", &v));
	EXPECT_EQ(3, (int)v);
	EXPECT_STREQ("6.1.0-57-amd64", rn_json_str(rn_json_get(j, "properties"),
						   "kernel_release"));
	cases = rn_json_get(j, "cases");
	ASSERT_NE(NULL, cases);
	ASSERT_EQ(5, cases->n);
	c = cases->items[0];
	EXPECT_STREQ("pci", rn_json_str(c, "suite"));
	EXPECT_STREQ("rt", rn_json_str(c, "program"));
	EXPECT_STREQ("idle", rn_json_str(c, "case"));
	EXPECT_STREQ("pass", rn_json_str(c, "result"));
	EXPECT_STREQ("2025-01-01T12:00:00.000Z", rn_json_str(c, "started"));
	EXPECT_EQ(0, rn_json_get(c, "kernel_log")->n);
	ASSERT_TRUE(rn_json_num(c, "duration_ms", &v));
	m = rn_json_get(c, "metrics");
	ASSERT_EQ(1, m->n);
	EXPECT_STREQ("suspend_us", rn_json_str(m->items[0], "name"));
	EXPECT_STREQ("us", rn_json_str(m->items[0], "units"));
	ASSERT_TRUE(rn_json_num(m->items[0], "value", &v));
	EXPECT_EQ(9005, (int)(v * 10 + 0.5));
	c = cases->items[1];
	EXPECT_STREQ("fail", rn_json_str(c, "result"));
	/* The case's start, 0.7 ms into the run, and its kernel log. */
	EXPECT_STREQ("2025-01-01T12:00:00.000Z", rn_json_str(c, "started"));
	ASSERT_EQ(2, rn_json_get(c, "kernel_log")->n);
	EXPECT_STREQ("[    1.000751] WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2",
		     rn_json_get(c, "kernel_log")->items[1]->str);
	EXPECT_STREQ("0000:00:02.0: usage <1> & \"held\" ??; kernel: WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2 (during busy)",
		     rn_json_str(c, "reason"));
	EXPECT_STREQ("fail", rn_json_str(rn_json_get(c, "devices")->items[0],
					 "result"));
	c = cases->items[2];
	EXPECT_STREQ("later", rn_json_str(c, "case"));
	EXPECT_STREQ("not_run", rn_json_str(c, "result"));
	/* A program skipped whole: each case it listed, by name. */
	c = cases->items[3];
	EXPECT_STREQ("needs", rn_json_str(c, "program"));
	EXPECT_STREQ("x", rn_json_str(c, "case"));
	EXPECT_STREQ("skip", rn_json_str(c, "result"));
	EXPECT_STREQ("no CONFIG_<X>", rn_json_str(c, "reason"));
	EXPECT_STREQ("xfail", rn_json_str(cases->items[4], "result"));
	rn_json_free(j);
	free(text);

	text = rn_out_env(r);
	j = rn_json_parse(text, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s\n%s", err, text);
	EXPECT_STREQ("6.1.0-57-amd64", rn_json_str(j, "kernel_release"));
	EXPECT_STREQ("\"quoted\" <tag> & tab\there", rn_json_str(j, "note"));
	EXPECT_EQ(RN_J_BOOL, rn_json_get(j, "incomplete")->type);
	EXPECT_FALSE(rn_json_get(j, "incomplete")->b);
	rn_json_free(j);
	free(text);
	rn_run_free(r);
}

TEST(json_reader_rejects_bad)
{
	char err[128];
	struct rn_json *j;

	EXPECT_EQ(NULL, rn_json_parse("{\"a\": 1,}", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("{\"a\" 1}", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("[1, 2", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("\"abc", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("{} x", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("\"\\u0000\"", err, sizeof(err)));
	/* RFC 8259 numbers only: strtod() alone took these. */
	EXPECT_EQ(NULL, rn_json_parse("-inf", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("0x10", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("1.", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("-", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("1e", err, sizeof(err)));
	EXPECT_EQ(NULL, rn_json_parse("01", err, sizeof(err)));
	j = rn_json_parse("{\"s\": \"\\u00e9\\ud83d\\ude00\\n\", \"n\": -1.5e3}",
			  err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s", err);
	EXPECT_STREQ("\xc3\xa9\xf0\x9f\x98\x80\n", rn_json_str(j, "s"));
	rn_json_free(j);
}

TEST(json_trailing_backslash)
{
	/*
	 * Issue #12 finding 6 (fuzzer input 22 5c): a string that ends in a
	 * backslash made the reader step over the NUL (ASan:
	 * heap-buffer-overflow in ws()).  Exactly sized heap copies let ASan
	 * see such a read.
	 */
	static const char *const bad[] = { "\"\\", "[\"\\", "{\"\\",
		"\"\\u12", "\"\\ud800\\", NULL };
	char err[128], *t;
	int i;

	for (i = 0; bad[i]; i++) {
		t = rn_xstrdup(bad[i]);
		EXPECT_EQ(NULL, rn_json_parse(t, err, sizeof(err)))
			TH_LOG("%s", bad[i]);
		free(t);
	}
	/* Control: an escaped backslash is a string. */
	t = rn_xstrdup("\"\\\\\"");
	rn_json_free(rn_json_parse(t, err, sizeof(err)));
	EXPECT_STREQ("", err);
	free(t);
}

TEST(clean_text)
{
	char *s;

	s = rn_clean_text("ok \xc3\xa9 \x01\x1b[0m \xff\xc3 \xed\xa0\x80 \t.");
	EXPECT_STREQ("ok \xc3\xa9 ??[0m ?? ??? \t.", s);
	free(s);
}

TEST(dmesg_log_marks_cases)
{
	struct rn_run *r = tr_stream(
		"DEVPM-STREAM 1\nRUN id 2025-01-01T00:00:00Z 0\n"
		"KMSG 5 before anything\n"
		"PROG 10 s/p 5\nOUT 11 #  RUN           f.a ...\n"
		"KMSG 12 during a\nEND 20 s/p 0 exit:1\nDONE 30 1\n",
		true, NULL);
	char *d = rn_out_dmesg(r);

	ASSERT_HAS(d, "# devpm: (between programs)\n[    0.000005] before anything\n");
	ASSERT_HAS(d, "# devpm: s/p/a\n[    0.000012] during a\n");
	free(d);
	rn_run_free(r);
}

TEST(ktap_program_killed_before_first_case)
{
	/*
	 * Issue #12 finding 7: a program killed before its first case left
	 * its notes indented under no subtest, and the runner's own reader
	 * rejected results.ktap ("expected 'KTAP version 1'").
	 */
	struct rn_run *r = tr_stream(
		"DEVPM-STREAM 1\nRUN id 2025-01-01T00:00:00Z 0\n"
		"PROG 10 s/early 5\nCASE a\nCASE b\n"
		"NOTE killed 1 process(es) the program left running\n"
		"END 20 s/early 0 signal:9\n"
		"PROG 30 s/bare 5\nNOTE restored 1 knob(s)\n"
		"END 40 s/bare 0 signal:9\nDONE 50 1\n", true, NULL);
	const struct rn_ktap *p;
	char err[256], *text = rn_out_ktap(r);
	struct rn_ktap *k;

	k = rn_ktap_parse(text, err, sizeof(err));
	ASSERT_NE(NULL, k) TH_LOG("%s\n%s", err, text);
	p = rn_ktap_kid(rn_ktap_kid(k, "s"), "early");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(RN_FAIL, p->result);
	ASSERT_EQ(2, p->nkids);
	EXPECT_EQ(RN_NOT_RUN, p->kids[0].result);
	EXPECT_EQ(RN_NOT_RUN, p->kids[1].result);
	p = rn_ktap_kid(rn_ktap_kid(k, "s"), "bare");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, p->nkids);
	ASSERT_HAS(text, "# restored 1 knob(s)\n    # program killed by signal 9 (SIGKILL) outside any case\n    not ok 2 bare\n");
	rn_ktap_free(k);
	free(text);
	rn_run_free(r);
	/* Negative control: the old shape, a note indented under no subtest. */
	EXPECT_EQ(NULL, rn_ktap_parse("KTAP version 1\n1..1\n    # note\nnot ok 1 p\n",
				      err, sizeof(err)));
	ASSERT_HAS(err, "expected 'KTAP version 1'");
}

/*
 * The names of every result line of a KTAP text ("ok N name # ..."), one
 * per line, in order.
 */
static char *ktap_names(const char *text)
{
	struct rn_buf b = { 0 };
	const char *l, *p, *end;

	rn_buf_add(&b, "");
	for (l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		p = l + strspn(l, " ");
		if (rn_starts(p, "not "))
			p += 4;
		if (!rn_starts(p, "ok "))
			continue;
		p += 3 + strspn(p + 3, "0123456789");
		p += *p == ' ';
		end = p + strcspn(p, "\n");
		if (strstr(p, " # ") && strstr(p, " # ") < end)
			end = strstr(p, " # ");
		rn_buf_addn(&b, p, end - p);
		rn_buf_add(&b, "\n");
	}
	return b.s;
}

/*
 * The first result line whose text after " # " is no directive (a
 * comment, where a value would hide), or NULL.
 */
static char *ktap_non_directive(const char *text)
{
	static const char *const dirs[] = { "SKIP", "ERROR", "TODO", "XFAIL",
		"TIMEOUT" };
	const char *l, *p, *h, *end;
	size_t i;

	for (l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		p = l + strspn(l, " ");
		end = p + strcspn(p, "\n");
		if (!rn_starts(p, "ok ") && !rn_starts(p, "not ok "))
			continue;
		h = strstr(p, " # ");
		if (!h || h > end)
			continue;
		for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
			if (rn_starts(h + 3, dirs[i]))
				break;
		if (i == sizeof(dirs) / sizeof(dirs[0]))
			return rn_xstrndup(p, end - p);
	}
	return NULL;
}

static char *one_run(const char *us, const char *ms, const char *usage)
{
	char *text = rn_xasprintf(
		"DEVPM-STREAM 1\nRUN id 2025-01-01T00:00:00Z 0\n"
		"PROG 10 pci/rt 5\nCASE idle\nCASE busy\nCASE gone\n"
		"OUT 11 TAP version 13\nOUT 12 1..3\n"
		"OUT 13 #  RUN           pci.idle ...\n"
		"OUT 14     ok 1 0000:00:01.0 # suspended after %s us\n"
		"OUT 15 # METRIC 0000:00:01.0 suspend_us=%s\n"
		"OUT 16 ok 1 pci.idle\n"
		"OUT 17 #  RUN           pci.busy ...\n"
		"OUT 18     not ok 1 0000:00:02.0 # still active after %s ms: usage %s\n"
		"OUT 19 # METRIC - autosuspend_error_ms=%s\n"
		"OUT 20 not ok 2 pci.busy\n"
		"END 30 pci/rt 1 timeout\nDONE 40 1\n", us, us, ms, usage, ms);
	struct rn_run *r = tr_stream(text, true, NULL);
	char *k = rn_out_ktap(r);

	free(text);
	rn_run_free(r);
	return k;
}

TEST(ktap_names_hold_no_measured_values)
{
	/*
	 * Two runs that measured different values give the same result
	 * names, and no name holds a value: values go on "# " lines.
	 */
	char *a = one_run("912", "1200", "2"), *b = one_run("4711", "1375", "3");
	char *na = ktap_names(a), *nb = ktap_names(b);
	static const char *const values[] = { "912", "1200", "4711", "1375",
		"usage", " ms", " us", "=" };
	size_t i;

	EXPECT_STREQ(na, nb) TH_LOG("%s\n---\n%s", a, b);
	ASSERT_HAS(na, "0000:00:01.0\n");
	ASSERT_HAS(na, "gone\n");
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		ASSERT_HASNT(na, values[i]);
	free(na);
	free(nb);
	/* After a name, only a directive: no comment to hide a value in. */
	na = ktap_non_directive(a);
	EXPECT_EQ(NULL, na) TH_LOG("%s", na);
	free(na);
	/* The values are in the file, on "# " lines. */
	ASSERT_HAS(a, "    # still active after 1200 ms: usage 2\n");
	ASSERT_HAS(a, "# METRIC 0000:00:01.0 suspend_us=912\n");
	/* Negative control: the check sees a value put after a name. */
	na = ktap_names("KTAP version 1\n1..1\nok 1 dev suspend_us=912 # x\n");
	EXPECT_NE(NULL, strstr(na, "912"));
	free(na);
	na = ktap_non_directive("    ok 1 0000:00:01.0 # suspended after 912 us\n");
	EXPECT_NE(NULL, na);
	free(na);
	free(a);
	free(b);
}

TEST(junit_crash_is_error)
{
	/* The guest died in b: an <error>, and c (never run) one too. */
	struct rn_run *r = tr_stream(
		"DEVPM-STREAM 1\nRUN id 2025-01-01T00:00:00Z 0\n"
		"PROG 10 s/p 5\nCASE a\nCASE b\nCASE c\n"
		"OUT 11 #  RUN           f.a ...\nOUT 12 ok 1 f.a\n"
		"OUT 13 #  RUN           f.b ...\n", true, "Kernel panic");
	char *x = rn_out_junit(r);
	int c, f, s;

	EXPECT_EQ(NULL, xml_check(x, &c, &f, &s)) TH_LOG("%s", x);
	EXPECT_EQ(3, c);
	/* Neither is a <failure>: the tests said neither pass nor fail. */
	EXPECT_EQ(0, f);
	ASSERT_HAS(x, "tests=\"3\" failures=\"0\" errors=\"2\"");
	ASSERT_HAS(x, "<error message=\"guest crashed during this case: Kernel panic\" type=\"crash\">");
	ASSERT_HAS(x, "<error message=\"not run: the program ended (crash) before this case\" type=\"not_run\"/>");
	free(x);
	rn_run_free(r);
	/* Control: a failure the test reported stays a <failure>. */
	r = tr_stream("DEVPM-STREAM 1\nRUN id 2025-01-01T00:00:00Z 0\n"
		      "PROG 10 s/p 5\nCASE a\n"
		      "OUT 11 #  RUN           f.a ...\nOUT 12 not ok 1 f.a\n"
		      "END 13 s/p 0 exit:1\nDONE 14 1\n", true, NULL);
	x = rn_out_junit(r);
	ASSERT_HAS(x, "<failure message=\"failed\" type=\"fail\">");
	ASSERT_HASNT(x, "<error");
	free(x);
	rn_run_free(r);
}

TEST(lava_measurements)
{
	struct rn_run *r = tr_stream(stream, true, NULL);
	char *l = rn_out_lava(r), *a, *b;

	ASSERT_HAS(l, "#!/bin/sh\n");
	ASSERT_HAS(l, "\nlava-test-case devpm.pci.rt.idle --result pass\n");
	/* The device's dot and colons escaped: the depth holds. */
	ASSERT_HAS(l, "\nlava-test-case devpm.pci.rt.idle.0000_00_01_0.suspend_us --result pass --measurement 900.5 --units us\n");
	ASSERT_HAS(l, "\nlava-test-case devpm.pci.rt.busy --result fail\n");
	ASSERT_HAS(l, "\nlava-test-case devpm.pci.rt.later --result unknown\n");
	ASSERT_HAS(l, "\nlava-test-case devpm.pci.needs.x --result skip\n");
	ASSERT_HAS(l, "\nlava-test-case devpm.usb.known.k --result skip\n");
	free(l);
	rn_run_free(r);
	/* Units from the name: _ms is ms, a count is a count. */
	r = tr_stream("DEVPM-STREAM 1\nRUN id 2025-01-01T00:00:00Z 0\n"
		      "PROG 10 s/p 5\nOUT 11 #  RUN           f.a ...\n"
		      "OUT 12 # METRIC - autosuspend_error_ms=3\n"
		      "OUT 13 # METRIC 1-1 wakeups=7\n"
		      "OUT 14 ok 1 f.a\nEND 20 s/p 0 exit:0\nDONE 30 0\n",
		      true, NULL);
	l = rn_out_lava(r);
	ASSERT_HAS(l, "\nlava-test-case devpm.s.p.a.-.autosuspend_error_ms --result pass --measurement 3 --units ms\n");
	ASSERT_HAS(l, "\nlava-test-case devpm.s.p.a.1-1.wakeups --result pass --measurement 7 --units count\n");
	a = strstr(l, "wakeups");
	b = a ? strchr(a, '\n') : NULL;
	ASSERT_NE(NULL, b);
	/* Control: one --units on the line. */
	EXPECT_EQ(NULL, memmem(a + 1, b - a - 1, "wakeups", 7));
	EXPECT_STREQ("ms", rn_metric_units("x_ms"));
	EXPECT_STREQ("us", rn_metric_units("x_us"));
	/* A time's unit is a word of its name, never the first. */
	EXPECT_STREQ("us", rn_metric_units("wait_lag_us_p50"));
	EXPECT_STREQ("us", rn_metric_units("io_resume_us_max"));
	EXPECT_STREQ("ms", rn_metric_units("floor_sleep_ms"));
	EXPECT_STREQ("count", rn_metric_units("us"));
	EXPECT_STREQ("count", rn_metric_units("x_usec"));
	EXPECT_STREQ("count", rn_metric_units("eperm_refusals"));
	EXPECT_STREQ("ratio", rn_metric_units("async_speedup"));
	EXPECT_STREQ("ratio", rn_metric_units("resume_over_suspend"));
	EXPECT_STREQ("code", rn_metric_units("outcome"));
	free(l);
	rn_run_free(r);
}

/* FIPS 180-4's examples, the second across the padding's boundary. */
TEST(sha256_known_digests)
{
	static const struct { const char *in, *hex; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	struct rn_sha256 h;
	char hex[65];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		rn_sha256_init(&h);
		/* In two pieces: the block buffer carries across adds. */
		rn_sha256_add(&h, v[i].in, strlen(v[i].in) / 2);
		rn_sha256_add(&h, v[i].in + strlen(v[i].in) / 2,
			      strlen(v[i].in) - strlen(v[i].in) / 2);
		rn_sha256_hex(&h, hex);
		EXPECT_STREQ(v[i].hex, hex);
	}
}

TEST_HARNESS_MAIN
