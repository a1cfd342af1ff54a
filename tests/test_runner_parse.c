// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runner_parse.c - the runner's reading of test program output
 * (lib/runner/parse.c): the harness's own sample, how a program ended,
 * and output that is malformed.
 */
#include "kselftest_harness.h"
#include "test_runner.h"
#include "cpu_busy.h"

/* What Linux 6.1's harness and lib/judge/subtest.c print, stdout and stderr. */
static const char sample[] =
	"TAP version 13\n"
	"1..3\n"
	"# Starting 3 tests from 2 test cases.\n"
	"#  RUN           pci.classify ...\n"
	"    # Subtest: classify\n"
	"    ok 1 0000:00:01.0 # ok\n"
	"    ok 2 0000:00:02.0 # SKIP no PM capability\n"
	"# METRIC 0000:00:01.0 suspend_us=12.500\n"
	"    1..2\n"
	"#            OK  pci.classify\n"
	"ok 1 pci.classify\n"
	"#  RUN           pci.nothing ...\n"
	"    # Subtest: nothing\n"
	"    1..0\n"
	"#            OK  pci.nothing\n"
	"ok 2 # SKIP no device to test\n"
	"#  RUN           pci.failing ...\n"
	"    # Subtest: failing\n"
	"    not ok 1 0000:00:03.0 # still active after 1200 ms: control=on\n"
	"    1..1\n"
	"# suites/pci/x.c:49:failing:1 of 1 devices failed; first: 0000:00:03.0: still active after 1200 ms: control=on\n"
	"# failing: Test failed at step #1\n"
	"#          FAIL  pci.failing\n"
	"not ok 3 pci.failing\n"
	"# FAILED: 2 / 3 tests passed.\n"
	"# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0\n";

TEST(sample_cases)
{
	struct rn_prog p;
	struct rn_case *c;

	tr_feed(&p, sample, "exit:1");
	ASSERT_EQ(3, p.ncases);
	ASSERT_EQ(RN_NONE, p.result);	/* nothing outside the cases */

	c = tr_case(&p, "classify");
	ASSERT_NE(NULL, c);
	EXPECT_EQ(RN_PASS, c->result);
	EXPECT_STREQ("pci.classify", c->full);
	ASSERT_EQ(2, c->ndevs);
	EXPECT_STREQ("0000:00:01.0", c->devs[0].name);
	EXPECT_EQ(RN_PASS, c->devs[0].result);
	EXPECT_STREQ("0000:00:02.0", c->devs[1].name);
	EXPECT_EQ(RN_SKIP, c->devs[1].result);
	EXPECT_STREQ("no PM capability", c->devs[1].reason);
	ASSERT_EQ(1, c->nmetrics);
	EXPECT_STREQ("0000:00:01.0", c->metrics[0].device);
	EXPECT_STREQ("suspend_us", c->metrics[0].name);
	EXPECT_EQ(12500, (int)(c->metrics[0].value * 1000));
	/* Timestamps: RUN line 4, result line 11, 1 ms apart. */
	EXPECT_EQ(7, rn_case_ms(c));

	c = tr_case(&p, "nothing");
	ASSERT_NE(NULL, c);
	EXPECT_EQ(RN_SKIP, c->result);
	EXPECT_STREQ("no device to test", c->reason);
	EXPECT_EQ(0, c->ndevs);

	c = tr_case(&p, "failing");
	ASSERT_NE(NULL, c);
	EXPECT_EQ(RN_FAIL, c->result);
	/* The failing device wins over the assertion and step lines. */
	EXPECT_STREQ("0000:00:03.0: still active after 1200 ms: control=on",
		     c->reason);
	ASSERT_EQ(1, c->ndevs);
	EXPECT_EQ(RN_FAIL, c->devs[0].result);
	EXPECT_EQ(0, p.nnotes);
	EXPECT_EQ(RN_FAIL, rn_prog_result(&p));
	tr_prog_free(&p);
}

/* Negative control: the same output with the failing device passing. */
TEST(sample_all_pass_is_pass)
{
	struct rn_prog p;
	char *text = rn_xstrdup(sample), *s;

	s = strstr(text, "    not ok 1 0000:00:03.0");
	memcpy(s, "    ok 1    ", 12);
	s = strstr(text, "not ok 3 pci.failing");
	memcpy(s, "ok 3 pci.fail", 13);
	memmove(s + 13, s + 20, strlen(s + 20) + 1);
	tr_feed(&p, text, "exit:0");
	ASSERT_EQ(3, p.ncases);
	EXPECT_EQ(RN_PASS, tr_case(&p, "failing")->result);
	EXPECT_EQ(RN_PASS, rn_prog_result(&p));
	tr_prog_free(&p);
	free(text);
}

TEST(reason_from_assertion_then_harness)
{
	struct rn_prog p;

	tr_feed(&p,
		"TAP version 13\n1..2\n"
		"#  RUN           fix.var.one ...\n"
		"# x.c:30:one:Expected usage (2) == 0 (0)\n"
		"# one: Test failed at step #1\n"
		"not ok 1 fix.var.one\n"
		"#  RUN           fix.var.two ...\n"
		"# two: Test terminated by timeout\n"
		"not ok 2 fix.var.two\n", "exit:1");
	ASSERT_EQ(2, p.ncases);
	/* Only the fixture is dropped from the name. */
	EXPECT_STREQ("var.one", p.cases[0].name);
	EXPECT_STREQ("Expected usage (2) == 0 (0) (x.c:30)",
		     p.cases[0].reason);
	EXPECT_STREQ("Test terminated by timeout", p.cases[1].reason);
	/* The list names cases without the variant: both count as run. */
	EXPECT_TRUE(rn_case_listed_ran(&p, "one"));
	EXPECT_FALSE(rn_case_listed_ran(&p, "three"));
	tr_prog_free(&p);
}

TEST(xfail_and_plain_skip)
{
	struct rn_prog p;

	tr_feed(&p,
		"TAP version 13\n1..3\n"
		"#  RUN           f.a ...\n"
		"# XFAIL probe usage kept by e1000e\n"
		"ok 1 # SKIP XFAIL probe usage kept by e1000e\n"
		"#  RUN           f.b ...\n"
		"ok 2 # SKIP\n"
		"#  RUN           f.c ...\n"
		"ok 3 f.c # XFAIL harness xfail\n", "exit:0");
	ASSERT_EQ(3, p.ncases);
	EXPECT_EQ(RN_XFAIL, p.cases[0].result);
	EXPECT_STREQ("probe usage kept by e1000e", p.cases[0].reason);
	/* A skip names what is missing: an empty one says so. */
	EXPECT_EQ(RN_SKIP, p.cases[1].result);
	EXPECT_STREQ("skipped without a reason", p.cases[1].reason);
	EXPECT_EQ(RN_XFAIL, p.cases[2].result);
	EXPECT_EQ(RN_SKIP, rn_prog_result(&p));
	tr_prog_free(&p);
}

TEST(program_skip_needs)
{
	struct rn_prog p;

	tr_feed(&p, "TAP version 13\n1..0 # SKIP no CONFIG_SCSI_DEBUG\n",
		"exit:4");
	EXPECT_EQ(0, p.ncases);
	EXPECT_EQ(RN_SKIP, p.result);
	EXPECT_STREQ("no CONFIG_SCSI_DEBUG", p.reason);
	tr_prog_free(&p);

	/* Exit 4 without a SKIP line is no skip: it names nothing. */
	tr_feed(&p, "TAP version 13\n", "exit:4");
	EXPECT_EQ(RN_FAIL, p.result);
	ASSERT_HAS(p.reason, "without a SKIP reason");
	tr_prog_free(&p);
}

TEST(timeout_fails_running_case_only)
{
	struct rn_prog p;

	rn_prog_init(&p, "usb", "hang", 7, 0);
	rn_strv_push(&p.listed, &p.nlisted, "done");
	rn_strv_push(&p.listed, &p.nlisted, "stuck");
	rn_strv_push(&p.listed, &p.nlisted, "later");
	rn_parse_line(&p, 1, "TAP version 13");
	rn_parse_line(&p, 2, "#  RUN           f.done ...");
	rn_parse_line(&p, 3, "ok 1 f.done");
	rn_parse_line(&p, 4, "#  RUN           f.stuck ...");
	rn_parse_end(&p, 7000004, "timeout", NULL);
	ASSERT_EQ(3, p.ncases);
	EXPECT_EQ(RN_PASS, p.cases[0].result);
	EXPECT_EQ(RN_FAIL, p.cases[1].result);
	EXPECT_STREQ("timeout after 7 s", p.cases[1].reason);
	EXPECT_EQ(7000, rn_case_ms(&p.cases[1]));
	/* Later cases keep their place in the plan, not run. */
	EXPECT_STREQ("later", p.cases[2].name);
	EXPECT_EQ(RN_NOT_RUN, p.cases[2].result);
	EXPECT_STREQ("not run: the program ended (timeout) before this case",
		     p.cases[2].reason);
	ASSERT_EQ(1, p.nnotes);
	EXPECT_STREQ("not run: later", p.notes[0]);
	EXPECT_EQ(RN_NONE, p.result);
	tr_prog_free(&p);
}

TEST(crash_by_signal)
{
	struct rn_prog p;

	tr_feed(&p, "TAP version 13\n1..2\n#  RUN           f.a ...\n"
		"ok 1 f.a\n#  RUN           f.b ...\n", "signal:11");
	ASSERT_EQ(2, p.ncases);
	EXPECT_EQ(RN_PASS, p.cases[0].result);
	EXPECT_EQ(RN_FAIL, p.cases[1].result);
	EXPECT_STREQ("program killed by signal 11 (SIGSEGV)",
		     p.cases[1].reason);
	tr_prog_free(&p);

	/* After its last case: the program itself fails. */
	tr_feed(&p, "TAP version 13\n1..1\n#  RUN           f.a ...\n"
		"ok 1 f.a\n", "signal:6");
	EXPECT_EQ(RN_PASS, p.cases[0].result);
	EXPECT_EQ(RN_FAIL, p.result);
	ASSERT_HAS(p.reason, "SIGABRT");
	tr_prog_free(&p);
}

TEST(exit_codes_that_lie)
{
	struct rn_prog p;

	/* All cases ok but exit 1. */
	tr_feed(&p, "TAP version 13\n1..1\n#  RUN           f.a ...\n"
		"ok 1 f.a\n", "exit:1");
	EXPECT_EQ(RN_FAIL, p.result);
	ASSERT_HAS(p.reason, "no failing case");
	tr_prog_free(&p);

	/* Exit 0 having run nothing is no pass. */
	tr_feed(&p, "TAP version 13\n1..0\n", "exit:0");
	EXPECT_EQ(RN_FAIL, p.result);
	ASSERT_HAS(p.reason, "without running any case");
	tr_prog_free(&p);

	/* Exit 3 is abnormal even with a case open: it fails naming it. */
	tr_feed(&p, "TAP version 13\n1..1\n#  RUN           f.a ...\n",
		"exit:3");
	EXPECT_EQ(RN_FAIL, p.cases[0].result);
	ASSERT_HAS(p.cases[0].reason, "status 3");
	tr_prog_free(&p);

	/* Negative control: a consistent exit 0. */
	tr_feed(&p, "TAP version 13\n1..1\n#  RUN           f.a ...\n"
		"ok 1 f.a\n", "exit:0");
	EXPECT_EQ(RN_NONE, p.result);
	EXPECT_EQ(RN_PASS, rn_prog_result(&p));
	tr_prog_free(&p);
}

TEST(malformed_output)
{
	struct rn_prog p;
	char *longline = rn_xmalloc(20000);

	memset(longline, 'x', 19999);
	tr_feed(&p,
		"garbage before TAP\n"
		"TAP version 13\n"
		"#  RUN           f.a ...\n"
		"#  RUN           f.b ...\n"	/* a without result */
		"ok 7 f.b\n"
		"not ok 8 f.orphan\n"		/* result without RUN */
		"ok x f.bad\n"			/* not a result line */
		"# METRIC dev nokey\n"		/* not a metric */
		"# METRIC dev k=notanumber\n"
		"    not ok 1 dev-outside-case # ignored\n"
		"#  RUN           f.c ...\n"
		"# METRIC - ok_us=nan\n"
		"1..\n", "exit:1");
	ASSERT_EQ(4, p.ncases);
	EXPECT_EQ(RN_FAIL, p.cases[0].result);
	ASSERT_HAS(p.cases[0].reason, "no result line");
	EXPECT_EQ(RN_PASS, p.cases[1].result);
	EXPECT_STREQ("orphan", p.cases[2].name);
	EXPECT_EQ(RN_FAIL, p.cases[2].result);
	EXPECT_STREQ("failed", p.cases[2].reason);
	/* c never ended: exit 1 with it open fails it. */
	EXPECT_EQ(RN_FAIL, p.cases[3].result);
	EXPECT_EQ(0, p.cases[3].nmetrics);
	EXPECT_EQ(0, p.cases[1].nmetrics);
	tr_prog_free(&p);

	/* A very long line is kept whole; the parser does not care. */
	rn_prog_init(&p, "s", "p", 1, 0);
	rn_parse_line(&p, 1, longline);
	rn_parse_end(&p, 2, "exit:0", NULL);
	EXPECT_EQ(RN_FAIL, p.result);
	tr_prog_free(&p);
	free(longline);
}

TEST(kernel_problem_fails_passing_case)
{
	struct rn_prog p;
	const char *where;

	rn_prog_init(&p, "pci", "rt", 60, 0);
	rn_parse_line(&p, 1, "#  RUN           f.a ...");
	where = rn_parse_kernel(&p, "WARNING: at drivers/x.c:1");
	EXPECT_STREQ("pci/rt/a", where);
	rn_parse_line(&p, 2, "ok 1 f.a");
	rn_parse_line(&p, 3, "#  RUN           f.b ...");
	rn_parse_line(&p, 4, "ok 2 f.b");
	rn_parse_end(&p, 5, "exit:0", NULL);
	EXPECT_EQ(RN_FAIL, p.cases[0].result);
	EXPECT_STREQ("kernel: WARNING: at drivers/x.c:1 (during a)",
		     p.cases[0].reason);
	/* Negative control: the next case is untouched. */
	EXPECT_EQ(RN_PASS, p.cases[1].result);
	tr_prog_free(&p);
}

/* /proc/stat's first line: busy is all but idle and iowait. */
TEST(cpu_busy_from_proc_stat)
{
	EXPECT_EQ(171, rn_cpu_busy_ticks("cpu  100 20 30 4000 50 6 7 8 0 0\ncpu0 100 20 30 4000 50 6 7 8 0 0\n"));
	/* A kernel before guest time (7 fields after steal): the same. */
	EXPECT_EQ(171, rn_cpu_busy_ticks("cpu  100 20 30 4000 50 6 7 8"));
	EXPECT_EQ(-1, rn_cpu_busy_ticks("cpu0 100 20 30 4000 50 6 7 8"));
	EXPECT_EQ(-1, rn_cpu_busy_ticks("cpu  100 20 30"));
	EXPECT_EQ(-1, rn_cpu_busy_ticks("intr 5"));
	EXPECT_EQ(-1, rn_cpu_busy_ticks(NULL));
	EXPECT_LE(0, rn_cpu_busy_ms());
}

TEST_HARNESS_MAIN
