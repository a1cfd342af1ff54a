// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bench.c - build/devpm-bench (bench/bench.c) on made-up runs: the
 * 2 x floor + 1 s rule passes, fails (exit 1) and is n/a as it should,
 * floors add up per program, wait lags aggregate, boot figures come from
 * env.json, bench.json is written; bad input exits 2.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "test_runner.h"
#include "cpu_busy.h"
#include "json.h"
#include "stream.h"

/*
 * A case of program p that took ms, with a floor_ms (of it, sleep:
 * floor_sleep_ms) and wait lag metrics (-1: none).
 */
static void add_case(struct rn_buf *b, const char *p, const char *c,
		     int ms, double floor, double sleep, double p50,
		     double p99, bool comma)
{
	rn_buf_printf(b, "{\"suite\": \"s\", \"program\": \"%s\", \"case\": \"%s\", \"result\": \"pass\", \"duration_ms\": %d, \"reason\": \"\", \"metrics\": [",
		      p, c, ms);
	rn_buf_add(b, "{\"device\": \"x\", \"name\": \"floor_ms\", \"units\": \"ms\", \"value\": 99999}");
	if (floor >= 0)
		rn_buf_printf(b, ", {\"device\": \"-\", \"name\": \"floor_ms\", \"units\": \"ms\", \"value\": %g}",
			      floor);
	if (sleep >= 0)
		rn_buf_printf(b, ", {\"device\": \"-\", \"name\": \"floor_sleep_ms\", \"units\": \"ms\", \"value\": %g}",
			      sleep);
	if (p50 >= 0)
		rn_buf_printf(b, ", {\"device\": \"-\", \"name\": \"wait_lag_us_p50\", \"units\": \"us\", \"value\": %g}",
			      p50);
	if (p99 >= 0)
		rn_buf_printf(b, ", {\"device\": \"-\", \"name\": \"wait_lag_us_p99\", \"units\": \"us\", \"value\": %g}",
			      p99);
	rn_buf_printf(b, "], \"devices\": []}%s\n", comma ? "," : "");
}

static void prog_noted(struct rn_buf *b, const char *p, int ms,
		       const char *note, bool comma)
{
	rn_buf_printf(b, "{\"suite\": \"s\", \"program\": \"%s\", \"result\": \"pass\", \"status\": \"exit:0\", \"duration_ms\": %d, \"timeout_s\": 60, \"notes\": [%s%s%s]}%s\n",
		      p, ms, note ? "\"" : "", note ? note : "",
		      note ? "\"" : "", comma ? "," : "");
}

static void prog(struct rn_buf *b, const char *p, int ms, bool comma)
{
	prog_noted(b, p, ms, NULL, comma);
}

/* Run devpm-bench on dir: exit code; its stdout in out. */
static int bench(const char *dir, char *out, size_t len)
{
	char cmd[PATH_MAX * 2], bin[PATH_MAX];
	size_t n;
	FILE *f;
	int st;

	snprintf(bin, sizeof(bin), "%s/devpm-bench", tr_build());
	snprintf(cmd, sizeof(cmd), "'%s' '%s' 2>&1", bin, dir);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

TEST(rule_floor_and_lag)
{
	char tmp[PATH_MAX], out[16384], text[16384];
	struct rn_buf b = { 0 };
	struct rn_json *j;
	const struct rn_json *ps;
	double v;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	rn_buf_add(&b, "{\"run_id\": \"r1\", \"cases\": [\n");
	/* fast: floors 1000 + 500 ms, time 3000 <= 2 x 1500 + 1000. */
	add_case(&b, "fast", "a", 1000, 1000, 300, 100, 900, true);
	add_case(&b, "fast", "b", 1000, 500, 100, 300, 2000, true);
	/* slow: floor 1000 ms, time 3001 > 2 x 1000 + 1000. */
	add_case(&b, "slow", "a", 2500, 1000, -1, 200, 500, true);
	/* none: no floor reported. */
	add_case(&b, "none", "a", 49000, -1, -1, -1, -1, true);
	/* quiet: 2.5 s, of which the runner's window bind took 1.5 s. */
	add_case(&b, "quiet", "a", 900, 100, -1, -1, -1, false);
	rn_buf_add(&b, "], \"programs\": [\n");
	prog(&b, "fast", 3000, true);
	prog(&b, "slow", 3001, true);
	prog(&b, "none", 50000, true);
	prog_noted(&b, "quiet", 2500, RN_NOTE_QUIET_BOUND "every controller back in 1500 ms",
		   false);
	rn_buf_add(&b, "]}\n");
	ASSERT_EQ(0, unit_put(tmp, "summary.json", b.s));
	rn_buf_free(&b);
	ASSERT_EQ(0, unit_put(tmp, "env.json",
			      "{\"run_id\": \"r1\", \"first_test_s\": \"4.50\", \"probe_ms\": \"12.5\", \"probe_cached\": \"3/3\", \"wall_s\": \"60.0\", \"opt_suites\": \"all\", \"quiet_window_bind_ms\": \"1500.0\", \"" RN_ENV_CPU_BUSY "s/fast\": \"1300\"}\n"));

	EXPECT_EQ(1, bench(tmp, out, sizeof(out))) TH_LOG("%s", out);
	/* fast's CPUs were busy 1.3 s of its 3 s (env.json); slow's: unknown. */
	ASSERT_HAS(out, "s/fast                        3.0      1.5      0.4    2.0      4.0  pass        200       2000    1.3\n");
	ASSERT_HAS(out, "s/slow                        3.0      1.0      n/a    3.0      3.0  fail        200        500    n/a\n");
	ASSERT_HAS(out, "s/none                       50.0      n/a      n/a    n/a      n/a   n/a        n/a        n/a");
	/* The window is the runner's: the program is judged on 1.0 s. */
	ASSERT_HAS(out, "s/quiet                       1.0      0.1      n/a   10.0      1.2  pass        n/a        n/a");
	ASSERT_HAS(out, "runner/quiet_window           1.5      n/a      n/a    n/a      n/a   n/a        n/a        n/a");
	ASSERT_HAS(out, "2x+1 s rule: 2 pass, 1 fail, 2 n/a");
	ASSERT_HAS(out, "boot to first test 4.50 s (target <= 5 s: met)");
	ASSERT_HAS(out, "12 ms (3/3 from the cache)");
	/* Not all seven suites: the wall target does not apply. */
	ASSERT_HAS(out, "all seven on TCG: n/a");
	ASSERT_HAS(out, "wait_lag_us p50 200, p99 2000");
	/* Outside cases: 1000 + 501 + 1000 + 100 (not the window) ms. */
	ASSERT_HAS(out, "outside cases 2.6 s in all");
	ASSERT_EQ(0, unit_get(tmp, "bench.json", text, sizeof(text)));
	j = rn_json_parse(text, NULL, 0);
	ASSERT_NE(NULL, j);
	ASSERT_TRUE(rn_json_num(j, "rule_fail", &v));
	EXPECT_EQ(1, v);
	ASSERT_TRUE(rn_json_num(j, "wait_lag_us_p99", &v));
	EXPECT_EQ(2000, v);
	ps = rn_json_get(j, "programs");
	ASSERT_NE(NULL, ps);
	ASSERT_EQ(5, ps->n);
	ASSERT_TRUE(rn_json_num(ps->items[0], "floor_ms", &v));
	EXPECT_EQ(1500, v);
	ASSERT_TRUE(rn_json_num(ps->items[0], "floor_sleep_ms", &v));
	EXPECT_EQ(400, v);
	ASSERT_TRUE(rn_json_num(ps->items[0], "cpu_busy_ms", &v));
	EXPECT_EQ(1300, v);
	EXPECT_EQ(RN_J_NULL, rn_json_get(ps->items[1], "cpu_busy_ms")->type);
	ASSERT_TRUE(rn_json_num(ps->items[1], "outside_cases_ms", &v));
	EXPECT_EQ(501, v);
	ASSERT_TRUE(rn_json_num(ps->items[4], "outside_cases_ms", &v));
	EXPECT_EQ(0, v);	/* the quiet window is no program's */
	ASSERT_TRUE(rn_json_num(j, "outside_cases_ms", &v));
	EXPECT_EQ(2601, v);
	EXPECT_EQ(RN_J_NULL, rn_json_get(ps->items[2], "floor_ms")->type);
	rn_json_free(j);

	/* Bad input: no run directory. */
	unit_rm_rf(tmp);
	EXPECT_EQ(2, bench(tmp, out, sizeof(out)));
	ASSERT_HAS(out, "cannot read");
}

/* The boot's steps from the guest's uptimes in env.json. */
TEST(boot_steps)
{
	static const char *const env[] = {
		"\"uptime_settled_s\": \"3.50\", \"baseline_ms\": \"212.5\", \"baseline_passes\": \"3\", ",
		"",	/* results of an /init before the step */
		"\"uptime_settled_s\": \"3.50\", \"baseline_ms\": \"180.0\", \"baseline_passes\": \"1\", ",
	};
	static const char *const want[] = {
		"boot steps: QEMU start to guest clock 0.70 s, kernel to /init 1.90 s, drivers 1.00 s, devices settled 0.60 s, /init to runner 0.05 s, runner to first test 0.25 s (the baseline 0.21 s: 3 reads of the counts after the list)\n",
		"boot steps: QEMU start to guest clock 0.70 s, kernel to /init 1.90 s, drivers 1.00 s, devices settled 0.00 s, /init to runner 0.65 s, runner to first test 0.25 s\n",
		"runner to first test 0.25 s (the baseline 0.18 s: 1 read of the counts after the list)\n",
	};
	char tmp[PATH_MAX], out[16384], text[1024];
	struct rn_buf b = { 0 };
	size_t i;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
		rn_buf_add(&b, "{\"run_id\": \"r1\", \"cases\": [\n");
		add_case(&b, "p", "a", 1000, 1000, -1, -1, -1, false);
		rn_buf_add(&b, "], \"programs\": [\n");
		prog(&b, "p", 1000, false);
		rn_buf_add(&b, "]}\n");
		ASSERT_EQ(0, unit_put(tmp, "summary.json", b.s));
		rn_buf_free(&b);
		snprintf(text, sizeof(text),
			 "{\"run_id\": \"r1\", \"first_test_s\": \"4.50\", \"uptime_init_s\": \"1.90\", \"uptime_drivers_s\": \"2.90\", %s\"uptime_runner_start_s\": \"3.55\", \"uptime_first_test_s\": \"3.80\"}\n",
			 env[i]);
		ASSERT_EQ(0, unit_put(tmp, "env.json", text));
		EXPECT_EQ(0, bench(tmp, out, sizeof(out))) TH_LOG("%s", out);
		ASSERT_HAS(out, want[i]);
		unit_rm_rf(tmp);
	}
}

TEST_HARNESS_MAIN
