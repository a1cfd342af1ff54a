// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench.c - build/devpm-bench RUN_DIR: the performance figures of one run
 * (issue #17), from its summary.json and env.json.
 *
 * Per program: its time (without the runner's quiet-window unbind or bind
 * it holds, a row "runner/quiet_window" of its own), its floor (the sum
 * of its cases' "-" floor_ms metrics: the kernel delays it must wait out;
 * "sleep" is the part of it that is the kernel's own sleeps in PM
 * transitions, least_time_sleeps.h), time/floor, and the rule
 * time <= 2 x floor + 1 s; its cases' wait lag (the median of their
 * wait_lag_us_p50, the largest of their wait_lag_us_p99); how long the
 * CPUs were busy while it ran (cpu_s, env.json's cpu_busy_ms:<program>
 * from the runner, lib/runner/cpu_busy.h): time far above floor + cpu is
 * spent waiting on something the floor does not count.  Then the run:
 * QEMU start to the first test, the runner's probe phase, wall time, the
 * wait lag over all cases, and the time the programs spent outside their
 * cases (their start and exit, the harness between cases: the suites'
 * own infrastructure, which the host's noise in the cases hides).  "n/a" where a figure is absent (a program
 * that reports no floor, a run outside QEMU).
 *
 * Writes the figures to RUN_DIR/bench.json (format devpm-bench 1).
 * Exit 0, 1 when a program breaks the 2x + 1 s rule, 2 on bad input.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/cpu_busy.h"
#include "runner/json.h"
#include "runner/stream.h"
#include "runner/util.h"


#define RULE_FACTOR 2.0
#define RULE_SLACK_MS 1000.0
#define FIRST_TEST_TARGET_S 5.0
#define WALL_TARGET_S 90.0

struct prog {
	char name[256];
	double ms;		/* its duration */
	double floor_ms;	/* NAN: no case reported one */
	double sleep_ms;	/* of it, the kernel's own sleeps (NAN: none) */
	double window_ms;	/* the runner's quiet window, not in ms */
	double cpu_ms;		/* the CPUs busy meanwhile (NAN: unknown) */
	double cases_ms;	/* its cases' duration_ms */
	double *p50;		/* its cases' wait_lag_us_p50 */
	size_t np50;
	double p99;		/* the largest of its cases' p99; NAN none */
};

static struct rn_json *load(const char *dir, const char *file)
{
	char path[PATH_MAX], err[256];
	struct rn_json *j;
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = rn_read_file(path, NULL);
	if (!text) {
		fprintf(stderr, "devpm-bench: cannot read %s: %s; give a results directory of devpm run or make qemu\n",
			path, strerror(errno));
		return NULL;
	}
	j = rn_json_parse(text, err, sizeof(err));
	free(text);
	if (!j)
		fprintf(stderr, "devpm-bench: %s is not valid JSON (%s)\n", path,
			err);
	return j;
}

static struct prog *prog_of(struct prog *v, size_t n, const char *suite,
			    const char *name)
{
	char full[256];
	size_t i;

	snprintf(full, sizeof(full), "%s/%s", suite, name);
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, full))
			return &v[i];
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A case's "-" metrics into its program. */
static void add_metrics(struct prog *p, const struct rn_json *c)
{
	const struct rn_json *m = rn_json_get(c, "metrics"), *x;
	const char *dev, *name;
	double v;
	size_t i;

	for (i = 0; m && m->type == RN_J_ARR && i < m->n; i++) {
		x = m->items[i];
		dev = rn_json_str(x, "device");
		name = rn_json_str(x, "name");
		if (!dev || !name || strcmp(dev, "-") ||
		    !rn_json_num(x, "value", &v) || !isfinite(v))
			continue;
		if (!strcmp(name, "floor_ms")) {
			p->floor_ms = isnan(p->floor_ms) ? v : p->floor_ms + v;
		} else if (!strcmp(name, "floor_sleep_ms")) {
			p->sleep_ms = isnan(p->sleep_ms) ? v : p->sleep_ms + v;
		} else if (!strcmp(name, "wait_lag_us_p50")) {
			p->p50 = rn_xrealloc(p->p50, (p->np50 + 1) *
					     sizeof(*p->p50));
			p->p50[p->np50++] = v;
		} else if (!strcmp(name, "wait_lag_us_p99")) {
			p->p99 = isnan(p->p99) || v > p->p99 ? v : p->p99;
		}
	}
}

static double env_num(const struct rn_json *env, const char *key);

/*
 * The runner's quiet-window unbind or bind that the program's time holds
 * (its NOTE, stream.h), in ms: the runner's work, not the program's.
 */
static double window_of(const struct rn_json *prog, const struct rn_json *env)
{
	const struct rn_json *notes = rn_json_get(prog, "notes");
	const char *s;
	double ms = 0, v;
	size_t i;

	for (i = 0; notes && notes->type == RN_J_ARR && i < notes->n; i++) {
		s = notes->items[i]->type == RN_J_STR ? notes->items[i]->str :
							NULL;
		v = NAN;
		if (s && !strncmp(s, RN_NOTE_QUIET_UNBOUND,
				  strlen(RN_NOTE_QUIET_UNBOUND)))
			v = env_num(env, "quiet_window_unbind_ms");
		else if (s && !strncmp(s, RN_NOTE_QUIET_BOUND,
				       strlen(RN_NOTE_QUIET_BOUND)))
			v = env_num(env, "quiet_window_bind_ms");
		if (!isnan(v) && v > 0)
			ms += v;
	}
	return ms;
}

/*
 * The programs of summary.json with their cases' metrics, each timed
 * without the runner's quiet window, which is a row of its own.
 */
static struct prog *programs(const struct rn_json *sum,
			     const struct rn_json *env, size_t *n)
{
	const struct rn_json *ps = rn_json_get(sum, "programs");
	const struct rn_json *cs = rn_json_get(sum, "cases");
	const char *suite, *name;
	struct prog *v = NULL, *p;
	double ms, window = 0, cms;
	char key[300];
	size_t i;

	*n = 0;
	for (i = 0; ps && ps->type == RN_J_ARR && i < ps->n; i++) {
		suite = rn_json_str(ps->items[i], "suite");
		name = rn_json_str(ps->items[i], "program");
		if (!suite || !name ||
		    !rn_json_num(ps->items[i], "duration_ms", &ms))
			continue;
		v = rn_xrealloc(v, (*n + 1) * sizeof(*v));
		p = &v[(*n)++];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s/%s", suite, name);
		snprintf(key, sizeof(key), "%s%s", RN_ENV_CPU_BUSY, p->name);
		p->cpu_ms = env_num(env, key);
		p->window_ms = window_of(ps->items[i], env);
		if (p->window_ms > ms)
			p->window_ms = ms;
		p->ms = ms - p->window_ms;
		window += p->window_ms;
		p->floor_ms = NAN;
		p->sleep_ms = NAN;
		p->p99 = NAN;
	}
	for (i = 0; cs && cs->type == RN_J_ARR && i < cs->n; i++) {
		suite = rn_json_str(cs->items[i], "suite");
		name = rn_json_str(cs->items[i], "program");
		p = suite && name ? prog_of(v, *n, suite, name) : NULL;
		if (!p)
			continue;
		add_metrics(p, cs->items[i]);
		if (rn_json_num(cs->items[i], "duration_ms", &cms) &&
		    isfinite(cms) && cms > 0)
			p->cases_ms += cms;
	}
	if (window > 0) {
		v = rn_xrealloc(v, (*n + 1) * sizeof(*v));
		p = &v[(*n)++];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "runner/quiet_window");
		p->ms = window;
		p->cases_ms = window;	/* the runner's, not outside a case */
		p->floor_ms = p->sleep_ms = p->p99 = p->cpu_ms = NAN;
	}
	return v;
}

/* Whether the run holds a program of each of the seven suites. */
static bool all_seven(const struct prog *v, size_t n)
{
	static const char *const seven[] = { "pci", "usb", "i2c", "scsi",
		"async", "wakeup", "qos" };
	size_t i, k, len;
	bool found;

	for (k = 0; k < sizeof(seven) / sizeof(seven[0]); k++) {
		len = strlen(seven[k]);
		for (i = 0, found = false; i < n && !found; i++)
			found = !strncmp(v[i].name, seven[k], len) &&
				v[i].name[len] == '/';
		if (!found)
			return false;
	}
	return true;
}

/* An env.json figure (its values are strings); NAN when absent. */
static double env_num(const struct rn_json *env, const char *key)
{
	const char *s = env ? rn_json_str(env, key) : NULL;
	char *end;
	double v;

	if (!s || !s[0])
		return NAN;
	v = strtod(s, &end);
	return end != s ? v : NAN;
}

/* "%.*f" of v and its unit, or "n/a". */
static const char *fmtu(char *buf, size_t len, double v, int prec,
			const char *unit)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f%s", prec, v, unit);
	return buf;
}

static const char *fmt(char *buf, size_t len, double v, int prec)
{
	return fmtu(buf, len, v, prec, "");
}

/* A JSON number, or null. */
static void jnum(struct rn_buf *b, const char *key, double v, bool comma)
{
	if (isnan(v))
		rn_buf_printf(b, "\"%s\": null%s", key, comma ? ", " : "");
	else
		rn_buf_printf(b, "\"%s\": %.3f%s", key, v, comma ? ", " : "");
}

/*
 * Where the boot to the first test went: the guest's uptime at /init, at
 * the end of its driver loading, once the profile's late devices are
 * there, at the runner's start and at its first test (qemu/init,
 * lib/runner/run.c); the rest of the host's figure is QEMU's start
 * before the guest's clock runs.
 */
static void boot_steps(const struct rn_json *env, double first)
{
	double init = env_num(env, "uptime_init_s");
	double drv = env_num(env, "uptime_drivers_s");
	double set = env_num(env, "uptime_settled_s");
	double rs = env_num(env, "uptime_runner_start_s");
	double ft = env_num(env, "uptime_first_test_s");
	double bl = env_num(env, "baseline_ms");
	double passes = env_num(env, "baseline_passes");
	char a[32], b[32], c[32], d[32], e[32], f[32], g[96] = "";

	if (isnan(ft))
		return;
	if (isnan(set))		/* results of an /init before the step */
		set = drv;
	/* The baseline reads the counts again until a pass changes none. */
	if (!isnan(bl) && !isnan(passes))
		snprintf(g, sizeof(g), " (the baseline %.2f s: %.0f %s of the counts after the list)",
			 bl / 1000, passes, passes == 1 ? "read" : "reads");
	printf("  boot steps: QEMU start to guest clock %s, kernel to /init %s, drivers %s, devices settled %s, /init to runner %s, runner to first test %s%s\n",
	       fmtu(a, sizeof(a), first - ft, 2, " s"),
	       fmtu(b, sizeof(b), init, 2, " s"),
	       fmtu(c, sizeof(c), drv - init, 2, " s"),
	       fmtu(f, sizeof(f), set - drv, 2, " s"),
	       fmtu(d, sizeof(d), rs - set, 2, " s"),
	       fmtu(e, sizeof(e), ft - rs, 2, " s"), g);
}

static const char *rule_of(const struct prog *p)
{
	if (isnan(p->floor_ms))
		return "n/a";
	return p->ms <= RULE_FACTOR * p->floor_ms + RULE_SLACK_MS ? "pass" :
	       "fail";
}

static int write_json(const char *dir, const struct rn_buf *b)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	int fd, r;

	snprintf(path, sizeof(path), "%s/bench.json", dir);
	snprintf(tmp, sizeof(tmp), "%s/.bench.json.tmp", dir);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -errno;
	r = rn_write_all(fd, b->s, b->len);
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

int main(int argc, char **argv)
{
	struct rn_json *sum, *env;
	struct rn_buf b = { 0 };
	struct prog *v;
	double *all50 = NULL, all99 = NAN, first, wall, boot, run, probe;
	double lag50, lag99, limit, outside, outside_all = 0;
	size_t n, i, j, nall = 0;
	int npass = 0, nfail = 0, nna = 0, r;
	char f1[32], f2[32], f3[32], f4[32], f5[32], f6[32], f7[32];
	const char *rule, *suites, *accel, *cached;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: devpm-bench RUN_DIR (a results directory: summary.json, env.json)\n");
		return 2;
	}
	sum = load(argv[1], "summary.json");
	if (!sum)
		return 2;
	env = load(argv[1], "env.json");
	if (!env) {
		rn_json_free(sum);
		return 2;
	}
	v = programs(sum, env, &n);

	rn_buf_printf(&b, "{\n  \"format\": \"devpm-bench\", \"format_version\": 1,\n  \"run_id\": \"%s\",\n  \"rule\": \"time <= 2 x floor + 1 s\",\n  \"programs\": [\n",
		      rn_json_str(sum, "run_id") ?: "");
	printf("  %-24s %8s %8s %8s %6s %8s %5s %10s %10s %6s\n", "program",
	       "time_s", "floor_s", "sleep_s", "ratio", "limit_s", "rule",
	       "lag_p50_us", "lag_p99_us", "cpu_s");
	for (i = 0; i < n; i++) {
		struct prog *p = &v[i];
		double ratio = !isnan(p->floor_ms) && p->floor_ms > 0 ?
			       p->ms / p->floor_ms : NAN;

		limit = isnan(p->floor_ms) ? NAN :
			(RULE_FACTOR * p->floor_ms + RULE_SLACK_MS) / 1000;
		rule = rule_of(p);
		npass += !strcmp(rule, "pass");
		nfail += !strcmp(rule, "fail");
		nna += !strcmp(rule, "n/a");
		for (j = 0; j < p->np50; j++) {
			all50 = rn_xrealloc(all50, (nall + 1) * sizeof(*all50));
			all50[nall++] = p->p50[j];
		}
		if (!isnan(p->p99) && (isnan(all99) || p->p99 > all99))
			all99 = p->p99;
		lag50 = median(p->p50, p->np50);
		outside = fmax(p->ms - p->cases_ms, 0);
		outside_all += outside;
		printf("  %-24s %8.1f %8s %8s %6s %8s %5s %10s %10s %6s\n",
		       p->name, p->ms / 1000,
		       fmt(f1, sizeof(f1), p->floor_ms / 1000, 1),
		       fmt(f6, sizeof(f6), p->sleep_ms / 1000, 1),
		       fmt(f2, sizeof(f2), ratio, 1),
		       fmt(f3, sizeof(f3), limit, 1), rule,
		       fmt(f4, sizeof(f4), lag50, 0),
		       fmt(f5, sizeof(f5), p->p99, 0),
		       fmt(f7, sizeof(f7), p->cpu_ms / 1000, 1));
		rn_buf_printf(&b, "    {\"program\": \"%s\", ", p->name);
		jnum(&b, "time_ms", p->ms, true);
		jnum(&b, "floor_ms", p->floor_ms, true);
		jnum(&b, "floor_sleep_ms", p->sleep_ms, true);
		/* What the summary's duration_ms holds beyond time_ms. */
		jnum(&b, "quiet_window_ms", p->window_ms > 0 ? p->window_ms :
			 NAN, true);
		jnum(&b, "cpu_busy_ms", p->cpu_ms, true);
		jnum(&b, "ratio", ratio, true);
		jnum(&b, "limit_ms", isnan(limit) ? NAN : limit * 1000, true);
		rn_buf_printf(&b, "\"rule\": \"%s\", ", rule);
		jnum(&b, "wait_lag_us_p50", lag50, true);
		jnum(&b, "wait_lag_us_p99", p->p99, true);
		jnum(&b, "outside_cases_ms", outside, false);
		rn_buf_printf(&b, "}%s\n", i + 1 < n ? "," : "");
	}
	rn_buf_add(&b, "  ],\n  ");

	first = env_num(env, "first_test_s");
	boot = env_num(env, "boot_s");
	run = env_num(env, "run_s");
	wall = env_num(env, "wall_s");
	probe = env_num(env, "probe_ms");
	lag50 = median(all50, nall);
	suites = rn_json_str(env, "opt_suites") ?: "?";
	accel = rn_json_str(env, "accel") ?: "none (not a QEMU run)";
	cached = rn_json_str(env, "probe_cached") ?: "n/a";
	printf("  2x+1 s rule: %d pass, %d fail, %d n/a (no floor reported)\n",
	       npass, nfail, nna);
	printf("  boot to first test %s (target <= %.0f s: %s); probe of the programs %s (%s from the cache)\n",
	       fmtu(f1, sizeof(f1), first, 2, " s"), FIRST_TEST_TARGET_S,
	       isnan(first) ? "n/a" : first <= FIRST_TEST_TARGET_S ? "met" :
	       "missed", fmtu(f2, sizeof(f2), probe, 0, " ms"), cached);
	printf("  wall %s: boot %s, run %s (suites %s, %s; target <= %.0f s with all seven on TCG: %s)\n",
	       fmtu(f3, sizeof(f3), wall, 1, " s"),
	       fmtu(f4, sizeof(f4), boot, 1, " s"),
	       fmtu(f5, sizeof(f5), run, 1, " s"), suites, accel,
	       WALL_TARGET_S, isnan(wall) || !all_seven(v, n) ? "n/a" :
	       wall <= WALL_TARGET_S ? "met" : "missed");
	boot_steps(env, first);
	lag99 = all99;
	printf("  wait_lag_us p50 %s, p99 %s (median of the cases' p50, largest p99; %zu cases)\n",
	       fmt(f6, sizeof(f6), lag50, 0), fmt(f1, sizeof(f1), lag99, 0),
	       nall);
	printf("  outside cases %.1f s in all (the programs' start and exit, the harness between cases)\n",
	       outside_all / 1000);
	jnum(&b, "first_test_s", first, true);
	jnum(&b, "probe_ms", probe, true);
	jnum(&b, "uptime_init_s", env_num(env, "uptime_init_s"), true);
	jnum(&b, "uptime_drivers_s", env_num(env, "uptime_drivers_s"), true);
	jnum(&b, "uptime_settled_s", env_num(env, "uptime_settled_s"), true);
	jnum(&b, "uptime_runner_start_s",
	     env_num(env, "uptime_runner_start_s"), true);
	jnum(&b, "uptime_first_test_s", env_num(env, "uptime_first_test_s"),
	     true);
	jnum(&b, "baseline_ms", env_num(env, "baseline_ms"), true);
	jnum(&b, "baseline_passes", env_num(env, "baseline_passes"), true);
	rn_buf_printf(&b, "\"probe_cached\": \"%s\",\n  ", cached);
	jnum(&b, "boot_s", boot, true);
	jnum(&b, "run_s", run, true);
	jnum(&b, "wall_s", wall, true);
	rn_buf_add(&b, "\n  ");
	jnum(&b, "wait_lag_us_p50", lag50, true);
	jnum(&b, "wait_lag_us_p99", lag99, true);
	rn_buf_printf(&b, "\"wait_lag_cases\": %zu,\n  ", nall);
	jnum(&b, "outside_cases_ms", outside_all, true);
	rn_buf_printf(&b, "\"rule_pass\": %d, \"rule_fail\": %d, \"rule_na\": %d\n}\n",
		      npass, nfail, nna);
	r = write_json(argv[1], &b);
	if (r < 0)
		fprintf(stderr, "devpm-bench: cannot write %s/bench.json: %s\n",
			argv[1], strerror(-r));
	else
		printf("  figures in %s/bench.json\n", argv[1]);

	for (i = 0; i < n; i++)
		free(v[i].p50);
	free(v);
	free(all50);
	rn_buf_free(&b);
	rn_json_free(sum);
	rn_json_free(env);
	if (r < 0)
		return 2;
	return nfail ? 1 : 0;
}
