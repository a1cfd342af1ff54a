// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runner_stream.c - the record stream and `devpm collect`: results
 * rebuilt from a stream, also one cut short by a guest that died.
 */
#include "kselftest_harness.h"
#include "test_runner.h"
#include "json.h"
#include "output.h"

static const char head[] =
	"DEVPM-STREAM 1\n"
	"RUN 20250102-030405 2025-01-02T03:04:05Z 1000\n"
	"ENV kernel_release=6.1.0-57-amd64\n";

/* Two programs; the guest dies in the second one's second case. */
static const char crashed[] =
	"PROG 2000 pci/one 60\nCASE a\n"
	"OUT 2100 TAP version 13\nOUT 2200 #  RUN           f.a ...\n"
	"OUT 2300 ok 1 f.a\nEND 2400 pci/one 0 exit:0\n"
	"PROG 3000 usb/two 60\nCASE b\nCASE c\nCASE d\n"
	"OUT 3100 TAP version 13\nOUT 3200 #  RUN           f.b ...\n"
	"OUT 3300 ok 1 f.b\nOUT 3400 #  RUN           f.c ...\n"
	"KMSG 3500 usb 1-1: reset high-speed USB device\n";

static struct rn_run *feed2(const char *a, const char *b, bool finish,
			    const char *crash)
{
	char *text = rn_xasprintf("%s%s", a, b);
	struct rn_run *r = tr_stream(text, finish, crash);

	free(text);
	return r;
}

TEST(truncated_stream_crash_case)
{
	struct rn_run *r = feed2(head, crashed, true,
				 "Kernel panic - not syncing: Fatal exception");

	ASSERT_EQ(2, r->nprogs);
	EXPECT_TRUE(r->incomplete);
	EXPECT_FALSE(r->done);
	EXPECT_EQ(RN_PASS, r->progs[0].cases[0].result);
	ASSERT_EQ(3, r->progs[1].ncases);
	EXPECT_EQ(RN_PASS, r->progs[1].cases[0].result);
	EXPECT_EQ(RN_FAIL, r->progs[1].cases[1].result);
	EXPECT_STREQ("guest crashed during this case: Kernel panic - not syncing: Fatal exception",
		     r->progs[1].cases[1].reason);
	/* d never started: not run, but it keeps its place in the plan. */
	EXPECT_STREQ("d", r->progs[1].cases[2].name);
	EXPECT_EQ(RN_NOT_RUN, r->progs[1].cases[2].result);
	ASSERT_EQ(1, r->progs[1].nnotes);
	EXPECT_STREQ("not run: d", r->progs[1].notes[0]);
	EXPECT_EQ(1, rn_exit_code(r));
	EXPECT_EQ(0, r->bad_records);
	rn_run_free(r);

	r = feed2(head, crashed, true, NULL);
	EXPECT_STREQ("guest stopped responding during this case",
		     r->progs[1].cases[1].reason);
	rn_run_free(r);
}

TEST(complete_stream_is_not_incomplete)
{
	/* Negative control: the same programs, ended and DONE. */
	struct rn_run *r = feed2(head,
		"PROG 2000 pci/one 60\nCASE a\n"
		"OUT 2100 TAP version 13\nOUT 2200 #  RUN           f.a ...\n"
		"OUT 2300 ok 1 f.a\nEND 2400 pci/one 0 exit:0\nDONE 2500 0\n",
		true, "unused crash text");

	EXPECT_FALSE(r->incomplete);
	EXPECT_TRUE(r->done);
	EXPECT_EQ(0, r->nproblems);
	EXPECT_EQ(0, rn_exit_code(r));
	EXPECT_EQ(1500, r->end_us - r->start_us);
	rn_run_free(r);
}

TEST(stream_ends_between_programs)
{
	struct rn_run *r = feed2(head,
		"PROG 2000 pci/one 60\nCASE a\n"
		"OUT 2100 TAP version 13\nOUT 2200 #  RUN           f.a ...\n"
		"OUT 2300 ok 1 f.a\nEND 2400 pci/one 0 exit:0\n", true, NULL);

	EXPECT_TRUE(r->incomplete);
	ASSERT_EQ(1, r->nproblems);
	ASSERT_HAS(r->problems[0], "run incomplete");
	EXPECT_EQ(1, rn_exit_code(r));
	rn_run_free(r);
}

TEST(kernel_lines_charged_to_what_ran)
{
	struct rn_run *r = feed2(head,
		"KMSG 1500 BUG: early trouble\n"
		"PROG 2000 pci/one 60\n"
		"OUT 2100 #  RUN           f.a ...\n"
		"KMSG 2150 e1000e 0000:00:02.0: link up\n"
		"OUT 2200 ok 1 f.a\n"
		"OUT 2300 #  RUN           f.b ...\n"
		"KMSG 2350 WARNING: CPU: 0 PID: 7 at drivers/base/power/runtime.c:1 x\n"
		"OUT 2400 ok 2 f.b\n"
		"OUT 2500 #  RUN           f.c ...\n"
		"TAINT 2550 W\n"
		"OUT 2600 ok 3 f.c\n"
		"END 2700 pci/one 0 exit:0\n"
		"KMSG 2800 Oops: 0000 [#1] SMP\n"
		"DONE 2900 1\n", true, NULL);
	struct rn_prog *p = &r->progs[0];

	/* A harmless line fails nothing. */
	EXPECT_EQ(RN_PASS, p->cases[0].result);
	EXPECT_EQ(RN_FAIL, p->cases[1].result);
	EXPECT_STREQ("kernel: WARNING: CPU: 0 PID: 7 at drivers/base/power/runtime.c:1 x (during b)",
		     p->cases[1].reason);
	EXPECT_EQ(RN_FAIL, p->cases[2].result);
	EXPECT_STREQ("kernel: new taint W (during c)", p->cases[2].reason);
	/* After the program: the program itself (its restore). */
	EXPECT_EQ(RN_FAIL, p->result);
	ASSERT_HAS(p->reason, "Oops");
	/* Before any program: the run. */
	ASSERT_EQ(1, r->nproblems);
	ASSERT_HAS(r->problems[0], "BUG: early trouble");
	ASSERT_EQ(5, r->nklog);
	EXPECT_STREQ("pci/one/a", r->klog[1].where);
	EXPECT_FALSE(r->klog[1].bad);
	EXPECT_TRUE(r->klog[2].bad);
	rn_run_free(r);
}

/*
 * A WARN's splat starts with "[ cut here ]": the reason quotes the
 * "WARNING: ... at file:line function" line after it (the negative
 * control: without the ranking, the first bad line was quoted).
 */
TEST(warn_reason_quotes_file_and_function)
{
	struct rn_run *r = feed2(head,
		"PROG 2000 fixture/mock 60\n"
		"OUT 2100 #  RUN           f.a ...\n"
		"KMSG 2150 ------------[ cut here ]------------\n"
		"KMSG 2151 WARNING: CPU: 0 PID: 9 at devpm_mock/callbacks.c:160 mock_runtime_suspend+0x5a/0xd0 [devpm_mock]\n"
		"KMSG 2152 Modules linked in: devpm_mock(OE)\n"
		"KMSG 2153 Call Trace:\n"
		"TAINT 2154 W\n"
		"OUT 2200 ok 1 f.a\n"
		"END 2700 fixture/mock 0 exit:0\n"
		"KMSG 2800 ------------[ cut here ]------------\n"
		"KMSG 2801 kernel BUG at drivers/base/power/main.c:12!\n"
		"DONE 2900 1\n", true, NULL);
	struct rn_prog *p = &r->progs[0];

	EXPECT_EQ(RN_FAIL, p->cases[0].result);
	EXPECT_STREQ("kernel: WARNING: CPU: 0 PID: 9 at devpm_mock/callbacks.c:160 mock_runtime_suspend+0x5a/0xd0 [devpm_mock] (during a)",
		     p->cases[0].reason);
	EXPECT_EQ(RN_FAIL, p->result);
	EXPECT_STREQ("kernel: kernel BUG at drivers/base/power/main.c:12! (after mock ended)",
		     p->reason);
	rn_run_free(r);
}

TEST(bad_records_and_second_header)
{
	struct rn_run *r = feed2("garbage before the header\n",
		"DEVPM-STREAM 1\nRUN first 2025-01-01T00:00:00Z 1\n"
		"PROG 2 a/b 5\nOUT 3 #  RUN           f.x ...\n"
		"DEVPM-STREAM 1\nRUN second 2025-01-01T00:00:09Z 10\n"
		"OUT 11 no program running\n"
		"END 12 a/b 0 exit:0\n"		/* no such program */
		"PROG x a/b 5\n"			/* bad timestamp */
		"PROG 13 nosuite 5\n"
		"FROB 14\n"
		"PROG 20 s/p 5\nOUT 21 #  RUN           f.y ...\n"
		"OUT 22 ok 1 f.y\nEND 23 s/p 0 exit:0\nDONE 24 0\n",
		true, NULL);

	/* The last run in the file wins; bad records are counted. */
	EXPECT_STREQ("second", r->run_id);
	ASSERT_EQ(1, r->nprogs);
	EXPECT_STREQ("s", r->progs[0].suite);
	EXPECT_EQ(RN_PASS, r->progs[0].cases[0].result);
	EXPECT_EQ(6, r->bad_records);
	EXPECT_STREQ("garbage before the header", r->first_bad);
	EXPECT_EQ(0, rn_exit_code(r));
	rn_run_free(r);
}

TEST(collect_command)
{
	char tmp[PATH_MAX], path[PATH_MAX], buf[65536], err[128];
	static const char *const args[] = { "collect", "stream", "--output", "res",
		"--env", "machine=q35", "--crash",
		"Kernel panic - not syncing: devpm", NULL };
	static const char *const bad1[] = { "collect", "missing", NULL };
	static const char *const bad2[] = { "collect", "notastream", NULL };
	static const char *const bad3[] = { "collect", "stream", "--env", "noequals",
		NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	const struct rn_json *c;
	struct rn_json *j;
	char *text;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	text = rn_xasprintf("%s%s", head, crashed);
	ASSERT_EQ(0, unit_put(tmp, "stream", text));
	free(text);
	ASSERT_EQ(0, unit_put(tmp, "notastream", "hello\n"));

	tr_devpm(o, tmp, NULL, args);
	EXPECT_EQ(1, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "# guest crashed during this case: Kernel panic");
	ASSERT_HAS(o->err, "results in res/20250102-030405");
	ASSERT_EQ(0, unit_get(tmp, "res/latest/summary.json", buf,
			      sizeof(buf)));
	j = rn_json_parse(buf, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s", err);
	EXPECT_TRUE(rn_json_get(j, "incomplete")->b);
	c = rn_json_get(j, "cases");
	ASSERT_EQ(4, c->n);
	EXPECT_STREQ("c", rn_json_str(c->items[2], "case"));
	EXPECT_STREQ("fail", rn_json_str(c->items[2], "result"));
	EXPECT_STREQ("d", rn_json_str(c->items[3], "case"));
	EXPECT_STREQ("not_run", rn_json_str(c->items[3], "result"));
	rn_json_free(j);
	ASSERT_EQ(0, unit_get(tmp, "res/latest/env.json", buf, sizeof(buf)));
	j = rn_json_parse(buf, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s", err);
	EXPECT_TRUE(rn_json_get(j, "incomplete")->b);
	EXPECT_STREQ("q35", rn_json_str(j, "machine"));
	EXPECT_STREQ("6.1.0-57-amd64", rn_json_str(j, "kernel_release"));
	rn_json_free(j);
	EXPECT_TRUE(unit_exists(tmp, "res/20250102-030405/stream.log"));
	EXPECT_TRUE(unit_exists(tmp, "res/20250102-030405/junit.xml"));
	EXPECT_TRUE(unit_exists(tmp, "res/20250102-030405/dmesg.log"));

	/* Collected twice: a second directory, latest moves to it. */
	tr_devpm(o, tmp, NULL, args);
	EXPECT_EQ(1, o->code);
	snprintf(path, sizeof(path), "%s/res/latest", tmp);
	ASSERT_GT(readlink(path, buf, sizeof(buf) - 1), 0);
	EXPECT_EQ(0, strncmp(buf, "20250102-030405-2", 17));

	tr_devpm(o, tmp, NULL, bad1);
	EXPECT_EQ(2, o->code);
	ASSERT_HAS(o->err, "missing: No such file");
	tr_devpm(o, tmp, NULL, bad2);
	EXPECT_EQ(2, o->code);
	ASSERT_HAS(o->err, "not a devpm stream");
	tr_devpm(o, tmp, NULL, bad3);
	EXPECT_EQ(2, o->code);
	ASSERT_HAS(o->err, "KEY=VALUE");
	unit_rm_rf(tmp);
	free(o);
}

TEST(control_characters_never_reach_results)
{
	/*
	 * Found by tests/fuzz/fuzz_stream.c: a program name, an END status
	 * or a crash line with control characters went into junit.xml as
	 * they were (XML 1.0 allows none).  Each is cleaned like program
	 * output; the END still matches its PROG.
	 */
	struct rn_run *r = feed2(head,
		"PROG 2000 s\x01/p 60\nCASE a\x02\n"
		"END 2400 s\x01/p 0 \xff\x16speed\n"
		"PROG 3000 s/q 60\nOUT 3100 #  RUN           f.b ...\n",
		true, "panic \x1b[0m");
	char *x = rn_out_junit(r);
	size_t i;

	ASSERT_EQ(2, r->nprogs);
	EXPECT_STREQ("s?", r->progs[0].suite);
	EXPECT_TRUE(r->progs[0].ended);
	EXPECT_STREQ("??speed", r->progs[0].status);
	EXPECT_STREQ("a?", r->progs[0].cases[0].name);
	EXPECT_STREQ("guest crashed during this case: panic ?[0m",
		     r->progs[1].cases[0].reason);
	for (i = 0; x[i]; i++)
		if ((unsigned char)x[i] < 0x20 && x[i] != '\n')
			break;
	EXPECT_EQ(strlen(x), i) TH_LOG("control character in:\n%s", x);
	free(x);
	rn_run_free(r);
}

TEST_HARNESS_MAIN
