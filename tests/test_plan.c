// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plan.c - the run's plan (plan.h): a stream cut at any point still
 * reports every planned case, the unrun ones as not_run in KTAP, JUnit and
 * summary.json; `devpm compare` counts pass -> not_run as a regression; a
 * program skipped whole reports each case as skipped by name; a run that
 * tested nothing exits 4 with why (untested.h).
 */
#include "kselftest_harness.h"
#include "test_runner.h"
#include "json.h"
#include "ktap.h"
#include "output.h"
#include "untested.h"

static const char head[] =
	"DEVPM-STREAM 1\n"
	"RUN 20250102-030405 2025-01-02T03:04:05Z 1000\n"
	"PLAN pci/one 60 a\n"
	"PLAN usb/two 60 b\n"
	"PLAN usb/two 60 c\n"
	"PLAN scsi/three 90 d\n"
	"PLAN scsi/three 90 e\n"
	"PLAN baseline/final_recheck 0 devices_at_baseline\n";

static const char one[] =
	"PROG 2000 pci/one 60\nCASE a\n"
	"OUT 2100 TAP version 13\nOUT 2200 #  RUN           f.a ...\n"
	"OUT 2300 ok 1 f.a\nEND 2400 pci/one 0 exit:0\n";

static const char two_crashes[] =
	"PROG 3000 usb/two 60\nCASE b\nCASE c\n"
	"OUT 3100 TAP version 13\nOUT 3200 #  RUN           f.b ...\n";

static const char rest[] =
	"OUT 3300 ok 1 f.b\nOUT 3400 #  RUN           f.c ...\n"
	"OUT 3500 ok 2 f.c\nEND 3600 usb/two 0 exit:0\n"
	"PROG 4000 scsi/three 90\nCASE d\nCASE e\n"
	"OUT 4100 TAP version 13\nOUT 4200 #  RUN           f.d ...\n"
	"OUT 4300 ok 1 f.d\nOUT 4400 #  RUN           f.e ...\n"
	"OUT 4500 ok 2 f.e\nEND 4600 scsi/three 0 exit:0\n"
	"PROG 5000 baseline/final_recheck 0\nCASE devices_at_baseline\n"
	"OUT 5100 #  RUN           final_recheck.devices_at_baseline ...\n"
	"OUT 5200 ok 1 final_recheck.devices_at_baseline\n"
	"END 5300 baseline/final_recheck 0 exit:0\nDONE 5400 0\n";

static struct rn_run *stream(const char *a, const char *b, const char *c,
			     bool finish, const char *crash)
{
	char *text = rn_xasprintf("%s%s%s", a, b, c);
	struct rn_run *r = tr_stream(text, finish, crash);

	free(text);
	return r;
}

static const struct rn_prog *prog(const struct rn_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nprogs; i++)
		if (!strcmp(r->progs[i].name, name))
			return &r->progs[i];
	return NULL;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

TEST(crash_reports_every_planned_case)
{
	struct rn_run *r = stream(head, one, two_crashes, true,
				  "Kernel panic - not syncing: sysrq");
	const struct rn_prog *p;
	char err[256], *text;
	struct rn_totals t;
	struct rn_ktap *k;
	struct rn_json *j;

	EXPECT_EQ(0, r->bad_records);
	/* one ran, two crashed in b, three and the re-check never started */
	ASSERT_EQ(4, r->nprogs);
	rn_totals(r, &t);
	EXPECT_EQ(1, t.pass);
	EXPECT_EQ(1, t.fail);
	/* c, d, e, devices_at_baseline */
	EXPECT_EQ(4, t.not_run);
	p = prog(r, "three");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(2, p->ncases);
	EXPECT_STREQ("d", p->cases[0].name);
	EXPECT_EQ(RN_NOT_RUN, p->cases[0].result);
	EXPECT_STREQ("not run: the run ended during usb/two (Kernel panic - not syncing: sysrq)",
		     p->cases[1].reason);
	EXPECT_EQ(RN_NOT_RUN, rn_prog_result(p));
	EXPECT_EQ(RN_NOT_RUN, rn_suite_result(r, "scsi"));
	EXPECT_EQ(1, rn_exit_code(r));

	/* KTAP: every planned case, the unrun ones "# ERROR not run" */
	text = rn_out_ktap(r);
	k = rn_ktap_parse(text, err, sizeof(err));
	ASSERT_NE(NULL, k) TH_LOG("%s\n%s", err, text);
	EXPECT_EQ(RN_NOT_RUN,
		  rn_ktap_kid(rn_ktap_kid(rn_ktap_kid(k, "scsi"), "three"),
			      "e")->result);
	ASSERT_HAS(text, "not ok 1 three # ERROR not run: the run ended during usb/two");
	ASSERT_HAS(text, "# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:4");
	rn_ktap_free(k);
	free(text);

	/* JUnit: a testcase per planned case, 4 of them not_run errors */
	text = rn_out_junit(r);
	EXPECT_EQ(6, count(text, "<testcase "));
	EXPECT_EQ(4, count(text, "type=\"not_run\""));
	ASSERT_HAS(text, "classname=\"devpm.scsi.three\" name=\"e\"");
	free(text);

	/* summary.json: the same six cases */
	text = rn_out_summary(r);
	j = rn_json_parse(text, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s", err);
	EXPECT_EQ(6, rn_json_get(j, "cases")->n);
	ASSERT_HAS(text, "\"not_run\": 4");
	rn_json_free(j);
	free(text);
	rn_run_free(r);
}

TEST(cut_between_programs_and_interrupted)
{
	struct rn_run *r = stream(head, one, "", true, NULL);
	const struct rn_prog *p;

	ASSERT_EQ(4, r->nprogs);
	p = prog(r, "two");
	ASSERT_NE(NULL, p);
	EXPECT_STREQ("not_run", p->status);
	EXPECT_STREQ("not run: the run ended before this program (the stream ended without DONE)",
		     p->cases[0].reason);
	rn_run_free(r);

	/* The runner stopped by a signal says so before DONE. */
	r = stream(head, one, "ENV stopped=the run was interrupted by signal 2 (SIGINT) before this program\nDONE 2500 1\n",
		   true, NULL);
	EXPECT_FALSE(r->incomplete);
	ASSERT_EQ(4, r->nprogs);
	p = prog(r, "final_recheck");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, p->ncases);
	EXPECT_STREQ("not run: the run was interrupted by signal 2 (SIGINT) before this program",
		     p->cases[0].reason);
	EXPECT_EQ(1, rn_exit_code(r));
	rn_run_free(r);
}

TEST(complete_run_adds_nothing)
{
	/* Negative control: every planned program ran. */
	char *text = rn_xasprintf("%s%s", two_crashes, rest);
	struct rn_totals t;
	struct rn_run *whole;

	whole = stream(head, one, text, true, "unused");
	free(text);
	ASSERT_EQ(4, whole->nprogs);
	rn_totals(whole, &t);
	EXPECT_EQ(6, t.pass);
	EXPECT_EQ(0, t.not_run);
	EXPECT_EQ(0, rn_exit_code(whole));
	rn_run_free(whole);
}

TEST(whole_program_skip_names_each_case)
{
	struct rn_run *r = tr_stream(
		"DEVPM-STREAM 1\nRUN x 2025-01-02T03:04:05Z 1000\n"
		"PLAN pci/idle 60 a\nPLAN pci/idle 60 b\n"
		"PLAN baseline/final_recheck 0 devices_at_baseline\n"
		"PROG 2000 pci/idle 60\nCASE a\nCASE b\n"
		"OUT 2100 TAP version 13\n"
		"OUT 2200 1..0 # SKIP needs root: run as root (sudo)\n"
		"END 2300 pci/idle 0 exit:4\n"
		"PROG 3000 baseline/final_recheck 0\nCASE devices_at_baseline\n"
		"OUT 3100 #  RUN           final_recheck.devices_at_baseline ...\n"
		"OUT 3200 ok 1 final_recheck.devices_at_baseline\n"
		"END 3300 baseline/final_recheck 0 exit:0\nDONE 3400 4\n",
		true, NULL);
	const struct rn_prog *p = prog(r, "idle");
	char why[512], *text;

	ASSERT_NE(NULL, p);
	EXPECT_EQ(RN_NONE, p->result);
	ASSERT_EQ(2, p->ncases);
	EXPECT_STREQ("b", p->cases[1].name);
	EXPECT_EQ(RN_SKIP, p->cases[1].result);
	EXPECT_STREQ("needs root: run as root (sudo)", p->cases[1].reason);
	EXPECT_EQ(RN_SKIP, rn_prog_result(p));
	text = rn_out_junit(r);
	EXPECT_EQ(3, count(text, "<testcase "));
	ASSERT_HAS(text, "classname=\"devpm.pci.idle\" name=\"a\"");
	ASSERT_HASNT(text, "name=\"idle\"");
	free(text);
	text = rn_out_ktap(r);
	ASSERT_HAS(text, "ok 2 b # SKIP needs root: run as root (sudo)\n    ok 1 idle # SKIP needs root");
	free(text);

	/* Only the re-check passed: nothing was tested, exit 4, and why. */
	EXPECT_FALSE(rn_tested(r));
	EXPECT_EQ(RN_EXIT_SKIP, rn_exit_code(r));
	rn_untested_why(r, why, sizeof(why));
	EXPECT_STREQ("nothing was tested: 1 program skipped: not root (1: run as root)",
		     why);
	rn_run_free(r);
}

TEST(untested_reasons_grouped)
{
	struct rn_run *r = rn_run_new();
	static const char *const reasons[] = {
		"needs root: run as root (sudo)",
		"needs --allow-sleep: this test enters system sleep",
		"needs root: run as root (sudo)",
		"no CONFIG_SCSI_DEBUG",
		"no device to test",
	};
	char why[512];
	size_t i;

	for (i = 0; i < 5; i++) {
		rn_grow(&r->progs, &r->cprogs, r->nprogs, sizeof(*r->progs));
		rn_prog_init(&r->progs[r->nprogs++], "s", "p", 1, 0);
		r->progs[i].result = RN_SKIP;
		r->progs[i].reason = rn_xstrdup(reasons[i]);
	}
	EXPECT_EQ(RN_EXIT_SKIP, rn_exit_code(r));
	rn_untested_why(r, why, sizeof(why));
	EXPECT_STREQ("nothing was tested: 5 programs skipped: not root (2: run as root), no --allow-sleep (1: add --allow-sleep), no CONFIG_SCSI_DEBUG (1), no devices (1)",
		     why);
	/* Negative control: one expected failure is a test that ran. */
	r->progs[4].result = RN_XFAIL;
	EXPECT_TRUE(rn_tested(r));
	EXPECT_EQ(0, rn_exit_code(r));
	rn_run_free(r);
}

/* summary.json of a run into tmp/dir. */
static void put_summary(const char *tmp, const char *dir, struct rn_run *r)
{
	char rel[64], *text = rn_out_summary(r);

	snprintf(rel, sizeof(rel), "%s/summary.json", dir);
	if (unit_put(tmp, rel, text))
		abort();
	free(text);
}

TEST(compare_counts_vanished_passes)
{
	static const char *const args[] = { "compare", "old", "new", NULL };
	char *text = rn_xasprintf("%s%s", two_crashes, rest);
	struct rn_run *old = stream(head, one, text, true, NULL);
	struct rn_run *cut = stream(head, one, "", true, NULL);
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX];

	free(text);
	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	put_summary(tmp, "old", old);
	put_summary(tmp, "new", cut);
	tr_devpm(o, tmp, NULL, args);
	EXPECT_EQ(1, o->code) TH_LOG("%s%s", o->out, o->err);
	/* b, c, d, e and the re-check passed before and did not run now */
	EXPECT_EQ(5, count(o->out, ": pass -> not_run: not run: "));
	ASSERT_HAS(o->out, "REGRESSION scsi/three/e: pass -> not_run");
	ASSERT_HAS(o->out, "devpm compare: 5 regression(s)");

	/* Negative control: the same run twice. */
	unit_rm_rf(tmp);
	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	put_summary(tmp, "old", old);
	put_summary(tmp, "new", old);
	tr_devpm(o, tmp, NULL, args);
	EXPECT_EQ(0, o->code) TH_LOG("%s%s", o->out, o->err);
	ASSERT_HAS(o->out, "devpm compare: 0 regression(s)");
	unit_rm_rf(tmp);
	rn_run_free(old);
	rn_run_free(cut);
	free(o);
}

TEST(malformed_plan_records)
{
	struct rn_run *r = tr_stream(
		"DEVPM-STREAM 1\nRUN x 2025-01-02T03:04:05Z 1000\n"
		"PLAN\nPLAN noslash 60 a\nPLAN a/b/c 60 a\nPLAN pci/x nan a\n"
		"PLAN pci/y 60\nDONE 2000 0\n", true, NULL);

	EXPECT_EQ(4, r->bad_records);
	/* The program that could not list its cases is not run itself. */
	ASSERT_EQ(1, r->nprogs);
	EXPECT_EQ(0, r->progs[0].ncases);
	EXPECT_EQ(RN_NOT_RUN, r->progs[0].result);
	EXPECT_EQ(1, rn_exit_code(r));
	rn_run_free(r);
}

TEST_HARNESS_MAIN
