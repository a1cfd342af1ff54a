// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_report.c - TIMELINE lines read and refused, their SVG, and `devpm
 * report` on tests/report/stream.log: a synthetic run (the real i2c
 * stream of a QEMU run, then an async program whose timelines and failure
 * are made up in the TIMELINE format) with a failure and a malformed line.
 */
#include <fcntl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "test_runner.h"
#include "output.h"
#include "rpm_timeline.h"
#include "timeline.h"

TEST(timeline_line)
{
	struct rn_tl_event ev;
	static const char *const bad[] = {
		"# TIMELINE c suspend dev drv 12 0 5",		/* 7 fields */
		"# TIMELINE c suspend dev drv 12 0 5 0 9",	/* 9 */
		"# TIMELINE c  suspend dev drv 12 0 5 0",	/* empty field */
		"# TIMELINE c freeze dev drv 12 0 5 0",		/* phase */
		"# TIMELINE c suspend dev drv x12 0 5 0",	/* lane */
		"# TIMELINE c suspend dev drv 12 -1 5 0",	/* start */
		"# TIMELINE c suspend dev drv 12 0 5 e",	/* err */
		"# TIMELINE c suspend dev drv 12 0 99999999999999999999 0",
		"# TIMELINE ",
	};
	size_t i;

	ASSERT_EQ(1, rn_tl_parse("    # TIMELINE s2idle.1 suspend_noirq 0000:00:1f.2 ahci 57 1200 340 -16",
				 &ev));
	EXPECT_STREQ("s2idle.1", ev.cycle);
	EXPECT_STREQ("suspend_noirq", ev.phase);
	EXPECT_STREQ("0000:00:1f.2", ev.device);
	EXPECT_STREQ("ahci", ev.driver);
	EXPECT_EQ(57, ev.lane);
	EXPECT_EQ(1200, (int)ev.start_us);
	EXPECT_EQ(340, (int)ev.dur_us);
	EXPECT_EQ(-16, ev.err);
	rn_tl_event_free(&ev);
	ASSERT_EQ(1, rn_tl_parse("# TIMELINE c rpm_resume usb1 - 9 0 0 0", &ev));
	rn_tl_event_free(&ev);
	EXPECT_EQ(0, rn_tl_parse("# METRIC dev suspend_us=5", &ev));
	EXPECT_EQ(0, rn_tl_parse("TIMELINE c suspend dev drv 1 0 5 0", &ev));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(-1, rn_tl_parse(bad[i], &ev)) TH_LOG("bad line %zu", i);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static void add(struct rn_timeline *tl, const char *line)
{
	rn_grow(&tl->ev, &tl->cap, tl->n, sizeof(tl->ev[0]));
	if (rn_tl_parse(line, &tl->ev[tl->n]) != 1)
		abort();
	tl->ev[tl->n++].where = rn_xstrdup("s/p/c");
}

TEST(svg_rows_lanes_errors)
{
	struct rn_timeline tl = { 0 };
	struct rn_buf b = { 0 };

	add(&tl, "# TIMELINE c1 suspend a<&b drv 10 0 500 0");
	add(&tl, "# TIMELINE c1 suspend dev2 - 11 100 300 -5");
	add(&tl, "# TIMELINE c1 resume dev2 - 10 900 100 0");
	add(&tl, "# TIMELINE c2 suspend other drv 12 0 5 0");
	rn_tl_svg(&b, &tl, "c1", 0);
	ASSERT_NE(NULL, b.s);
	/* Three bars twice (device rows and lane rows), none of c2. */
	EXPECT_EQ(6, (int)count(b.s, "<rect class=\"cb\""));
	EXPECT_EQ(0, (int)count(b.s, "other"));
	EXPECT_EQ(0, (int)count(b.s, "a<&b"));
	EXPECT_NE(0, (int)count(b.s, "a&lt;&amp;b"));
	EXPECT_EQ(2, (int)count(b.s, ">lane <tspan"));
	EXPECT_NE(0, (int)count(b.s, "async lanes (kernel thread pid): 2"));
	/* The failed callback: outlined twice, its device row says so. */
	EXPECT_EQ(2, (int)count(b.s, "stroke=\"#d00\""));
	EXPECT_EQ(1, (int)count(b.s, " err -5</text>"));
	EXPECT_NE(0, (int)count(b.s, "dev2 (-) suspend: start 100 \xc2\xb5s, 300 \xc2\xb5s, lane 11, err -5"));
	/* Legend: the two phases used. */
	EXPECT_EQ(1, (int)count(b.s, ">suspend</text>"));
	EXPECT_EQ(1, (int)count(b.s, ">resume</text>"));
	rn_buf_free(&b);
	rn_tl_free(&tl);
}

/*
 * Folded: the devices whose callbacks all took less than the threshold
 * share one row; the slowest device is drawn first.
 */
TEST(svg_slowest_first_rest_folded)
{
	struct rn_timeline tl = { 0 };
	struct rn_buf b = { 0 };
	struct rn_tl_sum sum;
	const char *slow, *fast, *fold;

	add(&tl, "# TIMELINE c resume fast drv 10 0 1500 0");
	add(&tl, "# TIMELINE c resume slow drv 10 0 90000 0");
	add(&tl, "# TIMELINE c resume tiny1 - 10 10 20 0");
	add(&tl, "# TIMELINE c resume tiny2 - 10 30 20 0");
	add(&tl, "# TIMELINE c suspend tinybad - 10 50 20 -5");
	rn_tl_summary(&tl, "c", 1000, &sum);
	EXPECT_EQ(5, sum.ndev);
	EXPECT_EQ(3, sum.nshown);
	EXPECT_EQ(1, sum.nerr);
	EXPECT_STREQ("slow", sum.slowest->device);
	rn_tl_svg(&b, &tl, "c", 1000);
	slow = strstr(b.s, ">slow <tspan");
	fast = strstr(b.s, ">fast <tspan");
	fold = strstr(b.s, ">2 more devices, each &lt; 1000 \xc2\xb5s<");
	ASSERT_NE(NULL, slow);
	ASSERT_NE(NULL, fast);
	ASSERT_NE(NULL, fold) TH_LOG("%s", b.s);
	EXPECT_LT(slow, fast);
	EXPECT_LT(fast, fold);
	/* A failed one is never folded; no row of its own for the two. */
	EXPECT_NE(0, (int)count(b.s, ">tinybad <tspan"));
	EXPECT_EQ(0, (int)count(b.s, ">tiny1 <tspan"));
	/* Their bars are still drawn, in the shared row (and lanes). */
	EXPECT_EQ(10, (int)count(b.s, "<rect class=\"cb\""));
	rn_buf_free(&b);
	/* Negative control: no threshold, no fold. */
	rn_tl_svg(&b, &tl, "c", 0);
	EXPECT_EQ(0, (int)count(b.s, "more device"));
	EXPECT_NE(0, (int)count(b.s, ">tiny1 <tspan"));
	rn_buf_free(&b);
	rn_tl_free(&tl);
}

static struct devpm_event rpm_ev(enum devpm_ev_type type, uint64_t ts,
				  const char *dev, int ret)
{
	struct devpm_event e = { .ts_us = ts, .pid = 7, .type = type };

	snprintf(e.dev, sizeof(e.dev), "%s", dev);
	/* B and C suspend in this test, A resumes. */
	if (type == DEVPM_EV_RPM_RETURN)
		snprintf(e.func, sizeof(e.func), "%s", strcmp(dev, "A") ?
			 "rpm_suspend" : "rpm_resume");
	e.ret = ret;
	return e;
}

static void fake_driver(const char *dev, char *buf, size_t len)
{
	snprintf(buf, len, "drv_%s", dev);
}

/*
 * A failed case's runtime-PM calls as TIMELINE records: each call paired
 * with its return, from the case's start; calls that did nothing
 * (already active 1, -EBUSY) and calls before the case are left out.
 */
TEST(rpm_timeline_records)
{
	struct devpm_event ev[] = {
		rpm_ev(DEVPM_EV_RPM_SUSPEND, 500, "C", 0),
		rpm_ev(DEVPM_EV_RPM_RETURN, 600, "C", 0),
		rpm_ev(DEVPM_EV_RPM_RESUME, 1000, "A", 0),
		rpm_ev(DEVPM_EV_RPM_RETURN, 1300, "A", 0),
		rpm_ev(DEVPM_EV_RPM_RESUME, 2000, "A", 0),
		rpm_ev(DEVPM_EV_RPM_RETURN, 2010, "A", 1),
		rpm_ev(DEVPM_EV_RPM_SUSPEND, 3000, "B", 0),
		rpm_ev(DEVPM_EV_RPM_RETURN, 3100, "B", -5),
		rpm_ev(DEVPM_EV_RPM_SUSPEND, 4000, "B", 0),
		rpm_ev(DEVPM_EV_RPM_RETURN, 4001, "B", -16),
	};
	struct rn_stream st = { .nfd = 1 };
	char tmp[PATH_MAX], path[PATH_MAX + 8], *text;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	snprintf(path, sizeof(path), "%s/s", tmp);
	st.fd[0] = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, st.fd[0]);
	EXPECT_EQ(2, rn_rpm_case_timeline(&st, "s/p/c", "c", 900, 5000, ev,
					  sizeof(ev) / sizeof(ev[0]),
					  fake_driver));
	close(st.fd[0]);
	text = rn_read_file(path, NULL);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("TIMELINE s/p/c rpm:c rpm_resume A drv_A 7 100 300 0\n"
		     "TIMELINE s/p/c rpm:c rpm_suspend B drv_B 7 2100 100 -5\n",
		     text);
	free(text);
	unit_rm_rf(tmp);
}

static const char *fixture(void)
{
	static char path[PATH_MAX];
	char rel[PATH_MAX];

	if (realpath("tests/report/stream.log", path))
		return path;
	snprintf(rel, sizeof(rel), "%s/../tests/report/stream.log",
		 tr_build());
	if (realpath(rel, path))
		return path;
	return "tests/report/stream.log";
}

static char *report(struct tr_out *o, const char *dir, const char *stream)
{
	static const char *const args[] = { "report", "run", NULL };
	char path[PATH_MAX], *text;

	text = rn_read_file(stream, NULL);
	if (!text)
		abort();
	if (unit_put(dir, "run/stream.log", text))
		abort();
	free(text);
	tr_devpm(o, dir, NULL, args);
	snprintf(path, sizeof(path), "%s/run/report.html", dir);
	return rn_read_file(path, NULL);
}

TEST(report_of_a_run)
{
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX], *html;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	html = report(o, tmp, fixture());
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_NE(NULL, html);
	ASSERT_HAS(o->out, "run/report.html");
	/* Verdicts per suite. */
	ASSERT_HAS(html, "<td>i2c</td><td><span class=\"pass\">pass</span>");
	ASSERT_HAS(html, "<td>async</td><td><span class=\"fail\">fail</span>");
	/* The banner: red, the counts. */
	ASSERT_HAS(html, "<div class=\"banner bad\" id=\"verdict\"><b>FAIL</b> &#8212; ");
	ASSERT_HAS(html, " 1 fail, ");
	/* The one failure, its reason, the kernel log of the case. */
	EXPECT_EQ(1, (int)count(html, "<h3 class=\"fail\">FAIL "));
	ASSERT_HAS(html, "<div class=\"failure\" id=\"failure-async/system_sleep/suspend_fails_cleanly\"><h3 class=\"fail\">FAIL <a class=\"self\" href=\"#async/system_sleep/suspend_fails_cleanly\">async/system_sleep/suspend_fails_cleanly</a></h3>");
	ASSERT_HAS(html, "errno -16, step suspend");
	ASSERT_HAS(html, "platform_pm_suspend+0x0/0x50 returns -16");
	/* Its devices' runtime PM, from the runner's records, open. */
	ASSERT_HAS(html, "<details open><summary>Runtime PM of its devices: 2 device(s), rpm_suspend and rpm_resume calls from the case's start, <span class=\"fail\">1 with a failed call</span>");
	ASSERT_HAS(html, "0000:00:1f.2 (ahci) rpm_suspend: start 900000 \xc2\xb5s, 1500 \xc2\xb5s, lane 88, err -5");
	/* A timeline per cycle (and the failure's), folded but the failed one's. */
	EXPECT_EQ(5, (int)count(html, "<svg "));
	ASSERT_HAS(html, "<details><summary><b>real_device_timing.1</b> <small>(async/system_sleep/real_device_timing)");
	ASSERT_HAS(html, "<details><summary><b>real_device_timing.rpm</b> ");
	ASSERT_HAS(html, "<details open><summary><b>suspend_fails_cleanly.1</b> <small>(async/system_sleep/suspend_fails_cleanly)");
	/* An anchor per case; the failed one links to its failure. */
	ASSERT_HAS(html, "<tr id=\"i2c/controller/controller_autosuspends\"><td><a class=\"self\" href=\"#i2c/controller/controller_autosuspends\">");
	ASSERT_HAS(html, "<a href=\"#failure-async/system_sleep/suspend_fails_cleanly\"><span class=\"fail\">fail</span></a>");
	ASSERT_HAS(html, "1 TIMELINE line(s) could not be read, the first: <code># TIMELINE broken line</code>");
	ASSERT_HAS(html, ">rpm_suspend</text>");
	/* Self-contained: nothing to fetch. */
	EXPECT_EQ(0, (int)count(html, "src="));
	EXPECT_EQ(count(html, "href=\"#"), count(html, "href="));
	EXPECT_EQ(0, (int)count(html, "url("));
	EXPECT_EQ(0, (int)count(html, "<script"));
	free(html);
	unit_rm_rf(tmp);
	free(o);
}

/* Negative control: a run without failures or timelines says so. */
TEST(report_of_a_clean_run)
{
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX], src[PATH_MAX], *html;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	ASSERT_EQ(0, unit_put(tmp, "clean.log",
		"DEVPM-STREAM 1\nRUN r1 2026-01-01T00:00:00Z 1000\n"
		"PROG 2000 i2c/x 60\nCASE a\n"
		"OUT 3000 TAP version 13\nOUT 3001 1..1\n"
		"OUT 3002 #  RUN           f.a ...\n"
		"OUT 3003 #            OK  f.a\nOUT 3004 ok 1 f.a\n"
		"END 4000 i2c/x 2 exit:0\nDONE 5000 0\n"));
	snprintf(src, sizeof(src), "%s/clean.log", tmp);
	html = report(o, tmp, src);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_NE(NULL, html);
	ASSERT_HAS(html, "<div class=\"banner ok\" id=\"verdict\"><b>PASS</b> &#8212; 1 pass, 0 fail");
	ASSERT_HAS(html, "<h2 id=\"failures\">Failures</h2>\n<p>None.</p>");
	ASSERT_HAS(html, "No program printed a timeline in this run.");
	EXPECT_EQ(0, (int)count(html, "<svg "));
	free(html);
	unit_rm_rf(tmp);
	free(o);
}

TEST(report_bad_input)
{
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	static const char *const none[] = { "report", NULL };
	static const char *const two[] = { "report", "a", "b", NULL };
	static const char *const missing[] = { "report", "nope", NULL };
	static const char *const empty[] = { "report", "empty", NULL };
	static const char *const junk[] = { "report", "junk", NULL };
	static const char *const *const cases[] = {
		none, two, missing, empty, junk,
	};
	static const char *const says[] = {
		"report: give one results directory",
		"report: give one results directory",
		"report: nope is not a directory",
		"empty/stream.log: No such file or directory",
		"junk/stream.log: not a devpm stream",
	};
	char tmp[PATH_MAX];
	size_t i;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	ASSERT_EQ(0, unit_mkdir(tmp, "empty"));
	ASSERT_EQ(0, unit_put(tmp, "junk/stream.log", "hello\n"));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tr_devpm(o, tmp, NULL, cases[i]);
		EXPECT_EQ(2, o->code);
		ASSERT_HAS(o->err, says[i]);
		/* One line. */
		EXPECT_EQ(strlen(o->err) - 1,
			  (size_t)(strchr(o->err, '\n') - o->err));
	}
	unit_rm_rf(tmp);
	free(o);
}

/*
 * Issue #35 item 8: a FIFO named stream.log, or a link to /dev/zero,
 * neither hangs report or collect nor fills memory: refused at once.
 */
TEST(report_and_collect_refuse_fifo_and_dev_zero)
{
	static const char *const rfifo[] = { "report", "fifo", NULL };
	static const char *const rzero[] = { "report", "zero", NULL };
	static const char *const cfifo[] = { "collect", "--output", "out",
		"fifo/stream.log", NULL };
	static const char *const czero[] = { "collect", "--output", "out",
		"zero/stream.log", NULL };
	static const char *const *const cases[] = { rfifo, rzero, cfifo, czero };
	static const char *const cgood[] = { "collect", "--output", "out",
		"good/stream.log", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX], path[PATH_MAX + 32];
	size_t i;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	ASSERT_EQ(0, unit_mkdir(tmp, "fifo"));
	ASSERT_EQ(0, unit_mkdir(tmp, "zero"));
	snprintf(path, sizeof(path), "%s/fifo/stream.log", tmp);
	ASSERT_EQ(0, mkfifo(path, 0644));
	ASSERT_EQ(0, unit_link(tmp, "zero/stream.log", "/dev/zero"));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tr_devpm(o, tmp, NULL, cases[i]);
		EXPECT_EQ(2, o->code) TH_LOG("%s %s: %s", cases[i][0],
					     cases[i][1], o->err);
		ASSERT_HAS(o->err, "stream.log: not a regular file");
		EXPECT_GT(5000, o->ms);
		EXPECT_EQ(strlen(o->err) - 1,
			  (size_t)(strchr(o->err, '\n') - o->err));
	}
	/* Negative control: a regular stream is collected. */
	ASSERT_EQ(0, unit_put(tmp, "good/stream.log",
		"DEVPM-STREAM 1\nRUN r1 2026-01-01T00:00:00Z 1000\n"
		"PROG 2000 i2c/x 60\nCASE a\nOUT 3000 TAP version 13\n"
		"OUT 3001 1..1\nOUT 3004 ok 1 f.a\n"
		"END 4000 i2c/x 2 exit:0\nDONE 5000 0\n"));
	tr_devpm(o, tmp, NULL, cgood);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	unit_rm_rf(tmp);
	free(o);
}

/*
 * A stream of n failing programs (fail) or of one program that ends with
 * n listed cases not run, into dir/<what><n>/stream.log.
 */
static void big_stream(const char *dir, bool fail, int n)
{
	struct rn_buf b = { 0 };
	char rel[64];
	int i;

	rn_buf_add(&b, "DEVPM-STREAM 1\nRUN r1 2026-01-01T00:00:00Z 1000\n");
	if (fail) {
		for (i = 0; i < n; i++)
			rn_buf_printf(&b, "PROG %d s%d/p%d 60\nCASE c\n"
				      "OUT %d TAP version 13\nOUT %d 1..1\n"
				      "OUT %d #  RUN           f.c ...\n"
				      "KMSG %d 6,1,%d,-;line %d\n"
				      "OUT %d not ok 1 f.c\nEND %d s%d/p%d 1 exit:1\n",
				      2000 + i, i % 7, i, 2000 + i, 2000 + i,
				      2000 + i, 2000 + i, 2000 + i, i,
				      2000 + i, 2001 + i, i % 7, i);
	} else {
		rn_buf_add(&b, "PROG 2000 s/p 60\n");
		for (i = 0; i < n; i++)
			rn_buf_printf(&b, "CASE case%d\n", i);
		rn_buf_add(&b, "OUT 2001 TAP version 13\nEND 2005 s/p 1 timeout\n");
	}
	rn_buf_add(&b, "DONE 99999999 1\n");
	snprintf(rel, sizeof(rel), "%s%d/stream.log", fail ? "fail" : "unrun",
		 n);
	if (unit_put(dir, rel, b.s))
		abort();
	rn_buf_free(&b);
}

/* ms of `devpm ARGS` in dir with the optimized build (-1: none built). */
static long optimized_ms(const char *dir, const char *const *args)
{
	char bin[PATH_MAX], rel[PATH_MAX];
	const char *argv[8] = { bin };
	struct timespec t0, t1;
	int i, st;
	pid_t pid;

	snprintf(rel, sizeof(rel), "%s/devpm", tr_build());
	if (!realpath(rel, bin))
		return -1;
	for (i = 0; args[i] && i < 6; i++)
		argv[i + 1] = args[i];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || chdir(dir))
			_exit(126);
		dup2(null, 1);
		dup2(null, 2);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) > 1)
		return -2;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0.tv_sec) * 1000 +
	       (t1.tv_nsec - t0.tv_nsec) / 1000000;
}

/*
 * Issue #35 item 10: report is linear in failures, collect in the cases
 * a program left unrun: 20k take at most 8 times what 5k take (4 times
 * the input; quadratic would be 16), and at most 1 s with the optimized
 * build.
 */
TEST(report_and_unrun_listing_are_linear)
{
	static const char *const r5[] = { "report", "fail5000", NULL };
	static const char *const r20[] = { "report", "fail20000", NULL };
	static const char *const c5[] = { "collect", "--output", "o5",
		"unrun5000/stream.log", NULL };
	static const char *const c20[] = { "collect", "--output", "o20",
		"unrun20000/stream.log", NULL };
	static const char *const *const small[] = { r5, c5 };
	static const char *const *const large[] = { r20, c20 };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX];
	long ms5, ms20, opt;
	size_t i;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	big_stream(tmp, true, 5000);
	big_stream(tmp, true, 20000);
	big_stream(tmp, false, 5000);
	big_stream(tmp, false, 20000);
	for (i = 0; i < 2; i++) {
		/* report exits 0, collect 1 (the run failed). */
		tr_devpm(o, tmp, NULL, small[i]);
		EXPECT_EQ((int)i, o->code) TH_LOG("%s", o->err);
		ms5 = o->ms;
		tr_devpm(o, tmp, NULL, large[i]);
		EXPECT_EQ((int)i, o->code) TH_LOG("%s", o->err);
		ms20 = o->ms;
		opt = optimized_ms(tmp, large[i]);
		TH_LOG("%s of 20000: %ld ms (5000: %ld ms) under ASan, %ld ms optimized",
		       large[i][0], ms20, ms5, opt);
		EXPECT_GE(8 * ms5 + 300, ms20);
		EXPECT_NE(-2, opt);
		if (opt >= 0)
			EXPECT_GE(1000, opt);
	}
	unit_rm_rf(tmp);
	free(o);
}

TEST_HARNESS_MAIN
