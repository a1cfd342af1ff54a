// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - `devpm run`: select programs, take the journal, run each with
 * its timeout while reading the kernel log, restore what it changed, and
 * write every record to the stream from which the results are built.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kmsg.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "harness/environment.h"
#include "judge/baseline.h"
#include "judge/sleep_verdict.h"
#include "sleep/sleep_devices.h"
#include "judge/verdict.h"
#include "sleep/wakeup_source.h"
#include "state/journal.h"
#include "trace/trace.h"
#include "cli.h"
#include "cpu_busy.h"
#include "env.h"
#include "env_hook.h"
#include "kept.h"
#include "output.h"
#include "parse.h"
#include "program.h"
#include "progress.h"
#include "rpm_timeline.h"
#include "stream.h"
#include "suites.h"
#include "untested.h"

struct run_opts {
	char **suites;
	size_t nsuites;
	const char *test;
	bool allow_sleep, allow_disk;
	const char *output;
	int timeout_s;		/* 0: each program's own */
	const char *stream;
	const char *env_hook;	/* --env-hook (env_hook.h), NULL: none */
	int stream_fd;		/* opened (path_trust.h) before the run */
	int resume_budget_ms;	/* --resume-budget-ms, 0: none */
	char **env;
	size_t nenv;
	/* The probe phase (--list/--needs of the selected programs). */
	uint64_t start_us, probe_us;
	size_t probed, probe_cached;
	/* The baseline's time and its reads of the counts (baseline.h). */
	uint64_t baseline_us;
	unsigned int baseline_passes;
};

struct run_state {
	struct rn_stream st;
	struct devpm_kmsg *kmsg;
	/*
	 * Polled; -1 for a regular file (a recorded tree's dev/kmsg), which
	 * is always readable.
	 */
	int kfd;
	long taint;
	/*
	 * The environment's window (env_hook.h) and why it failed ("" it
	 * did not): the stream still calls it the quiet window.
	 */
	struct rn_env_window win;
	char quiet_fail[512];
	struct rn_progress pg;	/* the live line on stderr */
};

/* The run's own last program (final_recheck()). */
#define RECHECK_PROG	"baseline/final_recheck"
#define RECHECK_CASE	"devices_at_baseline"

/* run_one(): the program opens or closes the environment's window. */
#define QUIET_OPEN	1
#define QUIET_CLOSE	2

static const struct option run_longopts[] = {
	{ "suite", required_argument, NULL, 's' },
	{ "test", required_argument, NULL, 't' },
	{ "allow-sleep", no_argument, NULL, 'S' },
	{ "allow-disk", no_argument, NULL, 'D' },
	{ "output", required_argument, NULL, 'o' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "stream", required_argument, NULL, 'w' },
	{ "env", required_argument, NULL, 'e' },
	{ "env-hook", required_argument, NULL, 'H' },
	{ "resume-budget-ms", required_argument, NULL, 'B' },
	{ NULL, 0, NULL, 0 },
};

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->output = "results";
	o->stream_fd = -1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:", run_longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			rn_strv_push(&o->suites, &o->nsuites, optarg);
			break;
		case 't':
			o->test = optarg;
			break;
		case 'S':
			o->allow_sleep = true;
			break;
		case 'D':
			o->allow_disk = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'T':
			if (!rn_parse_int(optarg, 1, 86400, &o->timeout_s))
				return rn_usage_error("--timeout '%s': give whole seconds, 1 to 86400",
						      optarg);
			break;
		case 'w':
			o->stream = optarg;
			break;
		case 'e':
			if (rn_check_env_arg(optarg))
				return RN_EXIT_USAGE;
			rn_strv_push(&o->env, &o->nenv, optarg);
			break;
		case 'H':
			if (rn_env_hook_check(optarg))
				return RN_EXIT_USAGE;
			o->env_hook = optarg;
			break;
		case 'B':
			if (!rn_parse_int(optarg, 1, 600000,
					  &o->resume_budget_ms))
				return rn_usage_error("--resume-budget-ms '%s': give whole milliseconds, 1 to 600000",
						      optarg);
			break;
		default:
			return rn_bad_option("run", argc, argv, c);
		}
	}
	if (optind < argc)
		return rn_usage_error("run: unexpected argument '%s'; see 'devpm run --help'",
				      argv[optind]);
	if (o->test && !o->test[0])
		return rn_usage_error("--test needs a glob, e.g. --test 'idle_*'");
	return 0;
}

static int check_suites(const struct run_opts *o,
			const struct rn_progspec *p, size_t n)
{
	struct rn_buf known = { 0 };
	size_t i, j;
	bool found;

	for (i = 0; i < o->nsuites; i++) {
		for (j = 0, found = false; j < n && !found; j++)
			found = !strcmp(p[j].suite, o->suites[i]);
		if (found)
			continue;
		for (j = 0; j < n; j++)
			if (!j || strcmp(p[j].suite, p[j - 1].suite))
				rn_buf_printf(&known, "%s%s", known.len ?
					      ", " : "", p[j].suite);
		rn_usage_error("unknown suite '%s'; known suites: %s",
			       o->suites[i], known.s ? known.s : "(none)");
		rn_buf_free(&known);
		return RN_EXIT_USAGE;
	}
	return 0;
}

static bool suite_selected(const struct run_opts *o, const char *suite)
{
	size_t i;

	if (!o->nsuites)
		return true;
	for (i = 0; i < o->nsuites; i++)
		if (!strcmp(o->suites[i], suite))
			return true;
	return false;
}

/* Keep the programs of the chosen suites that have a case to run. */
static size_t select_progs(const struct run_opts *o, struct rn_progspec *p,
			   size_t n, size_t *sel)
{
	size_t i, k = 0;
	int slashes = 0;
	const char *s;

	for (s = o->test ? o->test : ""; *s; s++)
		slashes += *s == '/';
	for (i = 0; i < n; i++) {
		if (!suite_selected(o, p[i].suite))
			continue;
		rn_query_list(&p[i], o->test);
		/*
		 * A program that cannot list its cases is run to fail
		 * loudly, unless the glob names other programs.
		 */
		if (!p[i].list_ok && o->test && slashes &&
		    !rn_glob_match(o->test, p[i].suite, p[i].name, "*"))
			continue;
		if (p[i].list_ok && !p[i].ncases)
			continue;
		rn_query_needs(&p[i]);
		sel[k++] = i;
	}
	return k;
}

static void on_kmsg(const char *line, void *arg)
{
	struct run_state *rs = arg;

	rn_stream_emit(&rs->st, "KMSG %" PRIu64 " %s", rn_mono_us(), line);
}

/* Kernel log and taint, read before the output that follows them. */
static void poke(void *arg)
{
	struct run_state *rs = arg;
	char flags[64];
	long now;

	if (rs->kmsg)
		devpm_kmsg_drain(rs->kmsg, on_kmsg, rs);
	if (rs->taint < 0)
		return;
	now = devpm_taint_read();
	if (now < 0)
		return;
	flags[0] = '\0';
	devpm_taint_new(rs->taint, now, flags, sizeof(flags));
	if (flags[0])
		rn_stream_emit(&rs->st, "TAINT %" PRIu64 " %s", rn_mono_us(),
			       flags);
	rs->taint = now;
}

static void on_line(void *arg, uint64_t ts, const char *line)
{
	struct run_state *rs = arg;

	rn_stream_emit(&rs->st, "OUT %" PRIu64 " %s", ts, line);
}

/* The live line's heartbeat: how long, which case (progress.h). */
static void tick(void *arg)
{
	struct run_state *rs = arg;
	struct rn_run *r = rs->st.run;
	struct rn_prog *p = r->nprogs ? &r->progs[r->nprogs - 1] : NULL;
	struct rn_case *c = p ? rn_prog_open_case(p) : NULL;

	rn_progress_tick(&rs->pg, c ? c->name : NULL,
			 p ? p->ncases - (c != NULL) : 0, rn_mono_us());
}

static void progress(const struct rn_run *r, size_t i, size_t n)
{
	const struct rn_prog *p = &r->progs[r->nprogs - 1];
	struct rn_totals t = { 0 };
	enum rn_result res = rn_prog_result(p);
	char name[512], counts[128];
	int w = snprintf(NULL, 0, "%zu", n);

	rn_prog_totals(p, &t);
	snprintf(name, sizeof(name), "%s/%s", p->suite, p->name);
	snprintf(counts, sizeof(counts), "%4u pass", t.pass);
	if (t.fail)
		snprintf(counts + strlen(counts), sizeof(counts) -
			 strlen(counts), " %u fail", t.fail);
	if (t.skip)
		snprintf(counts + strlen(counts), sizeof(counts) -
			 strlen(counts), " %u skip", t.skip);
	if (t.xfail)
		snprintf(counts + strlen(counts), sizeof(counts) -
			 strlen(counts), " %u xfail", t.xfail);
	/* A program that skipped says why, there and then. */
	fprintf(stderr, "[%*zu/%zu] %-24s %-4s %s %.1fs%s%.160s\n", w, i + 1, n,
		name, res == RN_FAIL ? "FAIL" : res == RN_PASS ? "ok" : "skip",
		counts, rn_prog_ms(p) / 1000.0, res == RN_SKIP ? ": " : "",
		rn_skip_reason(p));
}

/* The window's costs, in the first and last of its programs' times. */
static void quiet_open(struct run_state *rs, const struct run_opts *o,
		       size_t nprogs)
{
	uint64_t t0 = rn_mono_us();

	if (rn_env_window_open(&rs->win, o->env_hook, &rs->st) < 0)
		rn_stream_emit(&rs->st, "NOTE quiet window: %s; the programs run with every device",
			       rs->win.fail);
	else
		rn_stream_emit(&rs->st, "NOTE " RN_NOTE_QUIET_UNBOUND "%s for this program and the next %zu in %.0f ms (the environment hook)",
			       rs->win.what[0] ? rs->win.what : "nothing",
			       nprogs - 1, (rn_mono_us() - t0) / 1000.0);
	rn_stream_emit(&rs->st, "ENV quiet_window_devices=%s", rs->win.what);
	rn_stream_emit(&rs->st, "ENV quiet_window_unbind_ms=%.1f",
		       (rn_mono_us() - t0) / 1000.0);
}

static void quiet_close(struct run_state *rs)
{
	uint64_t t0 = rn_mono_us();

	if (!rs->win.pid)
		return;
	if (rn_env_window_close(&rs->win, &rs->st) < 0) {
		snprintf(rs->quiet_fail, sizeof(rs->quiet_fail), "%s",
			 rs->win.fail);
		rn_stream_emit(&rs->st, "NOTE quiet window: %s",
			       rs->quiet_fail);
	} else {
		rn_stream_emit(&rs->st, "NOTE " RN_NOTE_QUIET_BOUND "%s in %.0f ms",
			       rs->win.what[0] ? rs->win.what :
			       "every device back", (rn_mono_us() - t0) / 1000.0);
	}
	rn_stream_emit(&rs->st, "ENV quiet_window_bind_ms=%.1f",
		       (rn_mono_us() - t0) / 1000.0);
}

static void run_one(struct run_state *rs, const struct run_opts *o,
		    struct rn_progspec *p, int quiet, size_t nquiet)
{
	struct rn_child_ops ops = {
		.line = on_line, .poke = poke, .tick = tick, .arg = rs,
		.kfd = rs->kfd,
	};
	char *argv[2] = { NULL, NULL }, status[300];
	int timeout = o->timeout_s ? o->timeout_s : p->timeout_s;
	struct rn_child_end end;
	uint64_t t0 = rn_mono_us();
	double busy;
	off_t mark;
	size_t i;
	int r;

	rn_stream_emit(&rs->st, "PROG %" PRIu64 " %s/%s %d", t0, p->suite,
		       p->name, timeout);
	for (i = 0; i < p->ncases; i++)
		rn_stream_emit(&rs->st, "CASE %s", p->cases[i]);
	if (quiet & QUIET_OPEN)
		quiet_open(rs, o, nquiet);
	mark = devpm_journal_mark();
	memset(&end, 0, sizeof(end));
	end.end_us = t0;
	argv[0] = p->path;
	if (!p->list_ok) {
		snprintf(status, sizeof(status), "error:%s", p->list_error);
	} else {
		if (o->test)
			setenv("DEVPM_TEST_GLOB", rn_glob_case(o->test), 1);
		busy = rn_cpu_busy_ms();
		r = rn_child_run(argv, timeout * 1000, &ops, &end);
		unsetenv("DEVPM_TEST_GLOB");
		if (busy >= 0 && r >= 0) {
			double now = rn_cpu_busy_ms();

			if (now >= busy)
				rn_stream_emit(&rs->st, "ENV " RN_ENV_CPU_BUSY
					       "%s/%s=%.0f", p->suite, p->name,
					       now - busy);
		}
		if (r < 0) {
			snprintf(status, sizeof(status), "error:cannot start %s: %s",
				 p->path, strerror(-r));
			end.end_us = rn_mono_us();
		} else {
			rn_child_status(&end, status, sizeof(status));
		}
		if (end.leftovers)
			rn_stream_emit(&rs->st, "NOTE killed %d process(es) the program left running",
				       end.leftovers);
		if (end.stuck)
			rn_stream_emit(&rs->st, "NOTE %d process(es) did not die after SIGKILL (stuck in the kernel?)",
				       end.stuck);
	}
	/* Nothing a killed program left changed survives it. */
	if (mark >= 0) {
		r = devpm_journal_restore_since(mark);
		if (r > 0)
			rn_stream_emit(&rs->st, "NOTE restored %d knob(s) the program left changed",
				       r);
		else if (r < 0)
			rn_stream_emit(&rs->st, "NOTE restore after the program failed: %s",
				       devpm_error());
		if (r < 0)
			fprintf(stderr, "devpm: restore after %s/%s failed: %s\n",
				p->suite, p->name, devpm_error());
	}
	if (quiet & QUIET_CLOSE) {
		quiet_close(rs);
		end.end_us = rn_mono_us();
	}
	poke(rs);
	rn_stream_emit(&rs->st, "END %" PRIu64 " %s/%s %" PRIu64 " %s",
		       end.end_us, p->suite, p->name,
		       (end.end_us - t0) / 1000, status);
}

/*
 * Every device's runtime-PM state before the first program, for the
 * programs to judge against (baseline.h).  Returns 0 or an exit code.
 */
static int take_baseline(struct devpm_baseline *b, const char *dir, int dfd)
{
	char file[PATH_MAX];

	if (devpm_baseline_take(b) < 0) {
		fprintf(stderr, "devpm: baseline: %s\n", devpm_error());
		return RN_EXIT_USAGE;
	}
	snprintf(file, sizeof(file), "%s/%s", dir, DEVPM_BASELINE_FILE);
	/* Through the run directory's descriptor, never by name. */
	if (devpm_baseline_write_at(b, dfd, DEVPM_BASELINE_FILE) < 0) {
		fprintf(stderr, "devpm: baseline: %s; give a writable --output\n",
			devpm_error());
		return RN_EXIT_USAGE;
	}
	setenv(DEVPM_BASELINE_ENV, file, 1);
	/* The wakeup sources beside it: held ones are judged against it. */
	devpm_wakeup_baseline_write(dir);
	return 0;
}

struct recheck {
	struct rn_stream *st;
	int n;
};

static void recheck_failed(void *arg, const char *dev, const char *why)
{
	struct recheck *rc = arg;

	rn_stream_emit(rc->st, "OUT %" PRIu64 "     # %s", rn_mono_us(), why);
	rn_stream_emit(rc->st, "OUT %" PRIu64 "     not ok %d %s", rn_mono_us(),
		       ++rc->n, dev);
}

/*
 * After the last program: every device against the baseline (verdict.h),
 * as a program of its own, so that a leak or an error any program left
 * is reported even where its own case missed it.
 */
static void final_recheck(struct run_state *rs, const struct devpm_baseline *b)
{
	struct recheck rc = { &rs->st, 0 };
	uint64_t t0 = rn_mono_us();
	int bad;

	/* Not every controller came back: a device gone is not judged. */
	if (rs->quiet_fail[0])
		recheck_failed(&rc, "quiet_window_devices_back",
			       rs->quiet_fail);
	rn_stream_emit(&rs->st, "PROG %" PRIu64 " " RECHECK_PROG " 0", t0);
	rn_stream_emit(&rs->st, "CASE " RECHECK_CASE);
	rn_stream_emit(&rs->st, "OUT %" PRIu64 " TAP version 13", t0);
	rn_stream_emit(&rs->st, "OUT %" PRIu64 " 1..1", t0);
	rn_stream_emit(&rs->st, "OUT %" PRIu64 " #  RUN           final_recheck.devices_at_baseline ...",
		       t0);
	rn_stream_emit(&rs->st, "OUT %" PRIu64 "     # Subtest: devices_at_baseline",
		       t0);
	bad = devpm_verdict_tree(b, DEVPM_V_ALL | DEVPM_V_UNJUDGED,
				 recheck_failed, &rc);
	if (bad >= 0)
		bad += rs->quiet_fail[0] != '\0';
	/* A system-sleep fault a case saw and no case judged. */
	if (bad >= 0)
		bad += devpm_sleep_verdict_unjudged(recheck_failed, &rc);
	rn_stream_emit(&rs->st, "OUT %" PRIu64 "     # %zu devices judged against the baseline in %s%s",
		       rn_mono_us(), b->n, b->source, b->have_usage ? "" :
		       "; no runtime_usage: usage leaks not judged");
	if (!bad)
		rn_stream_emit(&rs->st, "OUT %" PRIu64 "     ok 1 all_devices",
			       rn_mono_us());
	rn_stream_emit(&rs->st, "OUT %" PRIu64 "     1..%d", rn_mono_us(),
		       bad ? bad : 1);
	rn_stream_emit(&rs->st, "OUT %" PRIu64 " %s 1 final_recheck.devices_at_baseline",
		       rn_mono_us(), bad ? "not ok" : "ok");
	rn_stream_emit(&rs->st, "END %" PRIu64 " baseline/final_recheck %" PRIu64 " exit:%d",
		       rn_mono_us(), (rn_mono_us() - t0) / 1000, bad ? 1 : 0);
}

static void emit_options(struct rn_stream *s, const struct run_opts *o)
{
	struct rn_buf b = { 0 };
	size_t i;

	for (i = 0; i < o->nsuites; i++)
		rn_buf_printf(&b, "%s%s", i ? "," : "", o->suites[i]);
	rn_stream_emit(s, "ENV opt_suites=%s", b.s ? b.s : "all");
	rn_stream_emit(s, "ENV opt_test=%s", o->test ? o->test : "");
	rn_stream_emit(s, "ENV opt_allow_sleep=%d", o->allow_sleep);
	rn_stream_emit(s, "ENV opt_allow_disk=%d", o->allow_disk);
	rn_stream_emit(s, "ENV opt_resume_budget_ms=%d", o->resume_budget_ms);
	rn_stream_emit(s, "ENV opt_timeout_s=%d", o->timeout_s);
	for (i = 0; i < o->nenv; i++)
		rn_stream_emit(s, "ENV %s", o->env[i]);
	/* What the runner spent asking programs before the first test. */
	rn_stream_emit(s, "ENV probe_ms=%.1f", o->probe_us / 1000.0);
	rn_stream_emit(s, "ENV probe_cached=%zu/%zu", o->probe_cached,
		       o->probed);
	rn_stream_emit(s, "ENV baseline_ms=%.1f", o->baseline_us / 1000.0);
	rn_stream_emit(s, "ENV baseline_passes=%u", o->baseline_passes);
	/* CLOCK_MONOTONIC: the time since boot (outside system sleep). */
	rn_stream_emit(s, "ENV uptime_runner_start_s=%.3f",
		       o->start_us / 1e6);
	rn_stream_emit(s, "ENV uptime_first_test_s=%.3f", rn_mono_us() / 1e6);
	rn_buf_free(&b);
}

/*
 * Every program and case the run will run, in the order it runs them,
 * before the first (plan.h): a run cut short reports the rest not run.
 */
static void emit_plan(struct rn_stream *s, const struct run_opts *o,
		      const struct rn_progspec *p, const size_t *sel,
		      size_t nsel)
{
	const struct rn_progspec *q;
	size_t i, j;
	int timeout;

	for (i = 0; i < nsel; i++) {
		q = &p[sel[i]];
		timeout = o->timeout_s ? o->timeout_s : q->timeout_s;
		if (!q->list_ok)
			rn_stream_emit(s, "PLAN %s/%s %d", q->suite, q->name,
				       timeout);
		for (j = 0; q->list_ok && j < q->ncases; j++)
			rn_stream_emit(s, "PLAN %s/%s %d %s", q->suite,
				       q->name, timeout, q->cases[j]);
	}
	rn_stream_emit(s, "PLAN " RECHECK_PROG " 0 " RECHECK_CASE);
}

/* One line says what is wrong with --output and the fix. */
static int check_output(const char *output)
{
	return rn_output_check(output) < 0 ? RN_EXIT_USAGE : 0;
}

/*
 * The environment's window (env_hook.h): with a hook, as root on the real
 * tree (a recorded tree has no devices to set aside).
 */
static bool window_wanted(const struct run_opts *o)
{
	return o->env_hook && devpm_is_root() && !devpm_sysfs_root()[0];
}

/* The environment test programs inherit. */
static void set_env(const struct run_opts *o)
{
	char root[PATH_MAX];

	if (o->allow_sleep)
		setenv("DEVPM_ALLOW_SLEEP", "1", 1);
	else
		unsetenv("DEVPM_ALLOW_SLEEP");
	if (o->allow_disk)
		setenv("DEVPM_ALLOW_DISK", "1", 1);
	else
		unsetenv("DEVPM_ALLOW_DISK");
	unsetenv("DEVPM_TEST_GLOB");
	if (o->resume_budget_ms) {
		char v[16];

		snprintf(v, sizeof(v), "%d", o->resume_budget_ms);
		setenv(DEVPM_RESUME_BUDGET_ENV, v, 1);
	} else {
		unsetenv(DEVPM_RESUME_BUDGET_ENV);
	}
	/* Only the hook this run checked, never one from outside. */
	if (window_wanted(o))
		setenv(DEVPM_ENV_HOOK_VAR, o->env_hook, 1);
	else
		unsetenv(DEVPM_ENV_HOOK_VAR);
	if (devpm_sysfs_root()[0] && realpath(devpm_sysfs_root(), root))
		setenv("DEVPM_SYSFS_ROOT", root, 1);
	else if (devpm_sysfs_root()[0])
		setenv("DEVPM_SYSFS_ROOT", devpm_sysfs_root(), 1);
	else
		unsetenv("DEVPM_SYSFS_ROOT");
}

static int take_journal(void)
{
	/* It says itself when it put back what a killed run left. */
	int r = devpm_journal_open_owner(devpm_journal_dir());

	if (r < 0) {
		fprintf(stderr, "devpm: %s\n", devpm_error()[0] ?
			devpm_error() : strerror(-r));
		return RN_EXIT_USAGE;
	}
	return 0;
}

/* Does a quiet program of p's suite come before sel[last] or at it? */
static bool suite_has_quiet(const struct rn_progspec *p, const size_t *sel,
			    size_t last, const char *suite)
{
	size_t i;

	for (i = 0; i <= last; i++)
		if (p[sel[i]].quiet && !strcmp(p[sel[i]].suite, suite))
			return true;
	return false;
}

/*
 * With an environment's window, the programs whose sleep cycles judge
 * only their own devices run one after the other where the last of them
 * stood (after the bus suites, before the final re-check), so that the
 * hook sets devices aside once for all of them.  The other programs of
 * their suites (async/sleep) run just before them, the rest keep their
 * order: so async/sleep's timing cases do not run first, in the seconds
 * after boot, while the kernel still settles.  Returns how many are in
 * the window (0: none), the first at sel[*first].
 */
static size_t quiet_order(const struct run_opts *o,
			  const struct rn_progspec *p, size_t *sel,
			  size_t nsel, size_t *first)
{
	size_t *v, i, k = 0, nq = 0, last = 0;
	int pass;

	for (i = 0; i < nsel; i++)
		if (p[sel[i]].quiet)
			nq++, last = i;
	if (!nq || !window_wanted(o))
		return 0;
	v = rn_xmalloc(nsel * sizeof(*v));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < last; i++)
			if (!p[sel[i]].quiet &&
			    suite_has_quiet(p, sel, last, p[sel[i]].suite) ==
			    (pass == 1))
				v[k++] = sel[i];
	*first = k;
	for (i = 0; i <= last; i++)
		if (p[sel[i]].quiet)
			v[k++] = sel[i];
	for (i = last + 1; i < nsel; i++)
		v[k++] = sel[i];
	memcpy(sel, v, nsel * sizeof(*v));
	free(v);
	return nq;
}

static int execute(struct run_opts *o, struct rn_progspec *p,
		   size_t *sel, size_t nsel)
{
	struct run_state rs = { .taint = -1 };
	struct devpm_baseline bl;
	char base[64], iso[64], id[128], dir[PATH_MAX], path[PATH_MAX];
	char totals[256], why[512], *ktap, *name;
	const char *tl_why;
	struct stat st;
	size_t i, nq, qfirst = 0;
	int code, dfd, quiet;

	if (take_journal())
		return RN_EXIT_USAGE;
	devpm_trace_cleanup_stale();
	/* The programs' trace instances outlive each of them (trace.h). */
	devpm_trace_pool_share();
	/* And the floor's sleep probes and the verdict's watch (kept.h). */
	rn_kept_begin();
	rn_signals_install();
	set_env(o);
	rn_run_id_base(base, sizeof(base), iso, sizeof(iso));
	dfd = rn_run_dir(o->output, base, dir, sizeof(dir), id, sizeof(id));
	if (dfd < 0)
		return RN_EXIT_USAGE;
	o->baseline_us = rn_mono_us();
	if (take_baseline(&bl, dir, dfd))
		return RN_EXIT_USAGE;
	o->baseline_us = rn_mono_us() - o->baseline_us;
	o->baseline_passes = bl.passes;
	snprintf(path, sizeof(path), "%s/stream.log", dir);
	rs.st.path[0] = path;
	rs.st.fd[rs.st.nfd] = rn_result_open(dfd, "stream.log");
	if (rs.st.fd[rs.st.nfd++] < 0)
		fprintf(stderr, "devpm: cannot create %s: %s\n", path,
			strerror(errno));
	if (o->stream) {
		rs.st.path[1] = o->stream;
		rs.st.fd[rs.st.nfd++] = o->stream_fd;
		o->stream_fd = -1;
	}
	rs.st.run = rn_run_new();
	rs.kmsg = devpm_kmsg_open();
	rs.kfd = rs.kmsg ? devpm_kmsg_fd(rs.kmsg) : -1;
	if (rs.kfd >= 0 && !fstat(rs.kfd, &st) && S_ISREG(st.st_mode))
		rs.kfd = -1;
	rs.taint = devpm_taint_read();
	rn_progress_init(&rs.pg, stderr, rn_progress_live(STDERR_FILENO));

	rn_stream_emit(&rs.st, "%s", RN_STREAM_HEADER);
	rn_stream_emit(&rs.st, "RUN %s %s %" PRIu64, id, iso, rn_mono_us());
	rn_env_emit(&rs.st);
	rn_stream_emit(&rs.st, "ENV kmsg=%s", rs.kmsg ? "/dev/kmsg" :
		       "unavailable (no kernel log checks)");
	emit_options(&rs.st, o);
	nq = quiet_order(o, p, sel, nsel, &qfirst);
	emit_plan(&rs.st, o, p, sel, nsel);
	rn_kept_ready();
	rn_stream_emit(&rs.st, "ENV rpm_timeline=%s",
		       rn_kept_timeline(&tl_why) ? "trace" : tl_why);
	for (i = 0; i < nsel && !rn_interrupted; i++) {
		quiet = 0;
		if (nq && i == qfirst)
			quiet |= QUIET_OPEN;
		if (nq && i == qfirst + nq - 1)
			quiet |= QUIET_CLOSE;
		name = rn_xasprintf("%s/%s", p[sel[i]].suite, p[sel[i]].name);
		rn_progress_start(&rs.pg, i, nsel, name, o->timeout_s ?
				  o->timeout_s : p[sel[i]].timeout_s,
				  rn_mono_us());
		free(name);
		run_one(&rs, o, &p[sel[i]], quiet, nq);
		rn_rpm_timelines(&rs.st, &rs.st.run->progs[rs.st.run->nprogs - 1],
				 rn_kept_timeline(NULL));
		rn_progress_end(&rs.pg);
		progress(rs.st.run, i, nsel);
	}
	if (!rn_interrupted) {
		final_recheck(&rs, &bl);
		rn_rpm_timelines(&rs.st, &rs.st.run->progs[rs.st.run->nprogs - 1],
				 rn_kept_timeline(NULL));
		progress(rs.st.run, nsel, nsel + 1);
	} else {
		rn_stream_emit(&rs.st, "ENV " RN_ENV_STOPPED "=the run was interrupted by signal %d (SIG%s) before this program",
			       (int)rn_interrupted, sigabbrev_np(rn_interrupted) ?: "?");
	}
	devpm_baseline_free(&bl);
	/* Interrupted, the plan's rest is not run: DONE reports it so. */
	code = rn_interrupted ? RN_EXIT_FAIL : rn_exit_code(rs.st.run);
	rn_stream_emit(&rs.st, "DONE %" PRIu64 " %d", rn_mono_us(), code);
	if (rs.kmsg)
		devpm_kmsg_close(rs.kmsg);
	for (i = 0; i < (size_t)rs.st.nfd; i++)
		if (rs.st.fd[i] >= 0)
			close(rs.st.fd[i]);

	if (rn_results_write(rs.st.run, o->output, dir, dfd) < 0)
		code = RN_EXIT_USAGE;
	close(dfd);
	ktap = rn_out_ktap(rs.st.run);
	fputs(ktap, stdout);
	fflush(stdout);
	free(ktap);
	rn_totals_line(rs.st.run, totals, sizeof(totals));
	if (rn_interrupted)
		fprintf(stderr, "devpm: interrupted by signal %d; the cases not run are reported as such\n",
			(int)rn_interrupted);
	if (code == RN_EXIT_SKIP) {
		rn_untested_why(rs.st.run, why, sizeof(why));
		fprintf(stderr, "devpm: %s\n", why);
	}
	fprintf(stderr, "devpm: %s; results in %s\n", totals, dir);
	rn_run_free(rs.st.run);
	devpm_journal_restore_all();
	devpm_journal_close();
	rn_kept_end();
	devpm_trace_pool_end();
	return code;
}

int rn_cmd_run(int argc, char **argv)
{
	struct rn_progspec *progs = NULL;
	struct run_opts o;
	char sdir[PATH_MAX];
	size_t n = 0, nsel, *sel, i;
	uint64_t t0 = rn_mono_us();
	int code;

	code = parse_opts(argc, argv, &o);
	if (!code)
		code = check_output(o.output);
	/* Opened now: a directory, a FIFO or a planted link is refused first. */
	if (!code && o.stream) {
		o.stream_fd = rn_stream_open(o.stream);
		if (o.stream_fd < 0)
			code = RN_EXIT_USAGE;
	}
	if (!code && rn_suites_dir(sdir, sizeof(sdir)) < 0)
		code = RN_EXIT_USAGE;
	if (!code && rn_discover(sdir, &progs, &n) < 0)
		code = rn_usage_error("cannot read %s: %s", sdir,
				      strerror(errno));
	if (!code && !n)
		code = rn_usage_error("no test programs in %s; run 'make' first or set DEVPM_SUITES_DIR",
				      sdir);
	if (!code)
		code = check_suites(&o, progs, n);
	if (!code) {
		sel = rn_xmalloc(n * sizeof(*sel));
		nsel = select_progs(&o, progs, n, sel);
		o.start_us = t0;
		o.probe_us = rn_mono_us() - t0;
		for (i = 0; i < n; i++) {
			o.probed += progs[i].list_ok || progs[i].list_error;
			o.probe_cached += progs[i].cached;
		}
		if (!nsel && o.test)
			code = rn_usage_error("no case matches --test '%s'; 'devpm list' shows every case",
					      o.test);
		else if (!nsel)
			code = rn_usage_error("the selected programs in %s list no case; 'devpm list' shows them",
					      sdir);
		else
			code = execute(&o, progs, sel, nsel);
		free(sel);
	}
	rn_progspecs_free(progs, n);
	if (o.stream_fd >= 0)
		close(o.stream_fd);
	rn_strv_free(o.suites, o.nsuites);
	for (i = 0; i < o.nenv; i++)
		free(o.env[i]);
	free(o.env);
	return code;
}
