// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_main.c - the part of every test program's main() that is not the
 * harness: options, needs, journal (test.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safety.h"
#include "core/sysfs.h"
#include "harness/needs.h"
#include "harness/environment.h"
#include "harness/test_info.h"
#include "judge/baseline.h"
#include "judge/run_record.h"
#include "judge/sleep_verdict.h"
#include "judge/verdict.h"
#include "state/journal.h"
#include "trace/least_time.h"
#include "trace/least_time_sleeps.h"
#include "trace/trace.h"
#include "trace/wait_latency.h"

/* On stderr, as the kselftest harness's -h (kselftest_harness.h). */
static void usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s [-h | -l | --list | --needs] [-t GLOB]\n"
		"\t-h       print help\n"
		"\t-l       list all tests (FIXTURE VARIANT TEST, on stderr)\n"
		"\t--list   the case names, one a line\n"
		"\t--needs  what the program needs (# NEEDS lines)\n"
		"\t-t GLOB  run only the cases whose name matches GLOB\n"
		"A devpm test program: 'devpm run' runs it for results; alone it\n"
		"prints KTAP and exits 0 (pass), 1 (fail) or 4 (skip).\n",
		prog);
}

/*
 * Judge every case against the run's baseline (verdict.h): read the one
 * `devpm run` wrote, or take one now when run by hand, before any case.
 */
static int verdict_begin(void)
{
	const char *file = getenv(DEVPM_BASELINE_ENV);
	const struct devpm_baseline *b = devpm_baseline();

	if (!b && file && file[0]) {
		fprintf(stderr, "%s; unset %s to take a baseline at start\n",
			devpm_error(), DEVPM_BASELINE_ENV);
		return DEVPM_EXIT_USAGE;
	}
	if (!b) {
		printf("# baseline: none (%s): verdict rules off\n",
		       devpm_error());
		return -1;
	}
	printf("# baseline: %s, %zu devices%s\n", b->source, b->n,
	       b->have_usage ? "" :
	       "; no runtime_usage (CONFIG_PM_ADVANCED_DEBUG off): usage leaks are not judged");
	devpm_verdict_watch();
	return -1;
}

/* Returns an exit code, or -1 to go on and run the harness. */
int devpm_test_begin(const struct devpm_test_info *info, int argc,
		     char **argv, enum devpm_test_mode *mode,
		     const char **glob)
{
	char why[512];
	int i, r;

	*mode = DEVPM_MODE_RUN;
	*glob = getenv("DEVPM_TEST_GLOB");
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			*mode = DEVPM_MODE_LIST;
		} else if (!strcmp(argv[i], "-l")) {
			*mode = DEVPM_MODE_LIST_TABLE;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			usage(argv[0]);
			return DEVPM_EXIT_SKIP;
		} else if (!strcmp(argv[i], "--needs")) {
			*mode = DEVPM_MODE_NEEDS;
		} else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
			*glob = argv[++i];
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", argv[0],
				argv[i]);
			usage(argv[0]);
			return DEVPM_EXIT_USAGE;
		}
	}
	if (*mode == DEVPM_MODE_NEEDS) {
		printf("# NEEDS timeout_s: %d\n",
		       info->timeout_s ? info->timeout_s : 60);
		devpm_needs_print(&info->needs);
		if (info->sleep_scope == DEVPM_SLEEP_OWN_DEVICES)
			printf("# NEEDS sleep-scope: own-devices\n");
		return 0;
	}
	if (*mode == DEVPM_MODE_LIST || *mode == DEVPM_MODE_LIST_TABLE)
		return -1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	devpm_run_record_program(info->suite, argv[0]);
	if (devpm_sysfs_root_from_env() < 0) {
		printf("TAP version 13\n1..0 # SKIP %s\n", devpm_error());
		return DEVPM_EXIT_SKIP;
	}
	r = devpm_needs_check(&info->needs, why, sizeof(why));
	if (r) {
		printf("TAP version 13\n1..0 # SKIP %s\n",
		       r > 0 ? why : devpm_error());
		return DEVPM_EXIT_SKIP;
	}
	/* Only tests that write knobs need the journal; those need root. */
	if (devpm_is_root() || devpm_sysfs_root()[0]) {
		r = devpm_journal_attach();
		if (r < 0) {
			printf("TAP version 13\n1..0 # SKIP journal: %s\n",
			       devpm_error());
			return DEVPM_EXIT_SKIP;
		}
	}
	/* The cases' traces share a few instances (trace.h). */
	devpm_trace_pool_begin();
	devpm_least_time_sleeps_watch();
	return verdict_begin();
}

off_t devpm_case_setup_named(const char *casename)
{
	devpm_run_record_case(casename);
	return devpm_case_setup();
}

const char *devpm_case_blame(void)
{
	return devpm_sleep_blame();
}

off_t devpm_case_setup(void)
{
	devpm_sleep_verdict_case_begin();
	devpm_verdict_case_begin();
	devpm_env_case_begin();
	devpm_least_time_begin();
	devpm_wait_latency_begin();
	return devpm_journal_mark();
}

int devpm_case_restore(off_t mark)
{
	if (devpm_journal_restore_since(mark) < 0)
		fprintf(stderr, "# restore: %s\n", devpm_error());
	return devpm_env_case_settle();
}

int devpm_case_verdict(const char *casename)
{
	int n = 0;

	if (devpm_verdict_active())
		n = devpm_verdict_case_end(casename);
	/* The case's timing (its verdict's waits too), for the bench. */
	devpm_least_time_sleeps_case_end();
	devpm_least_time_report();
	devpm_wait_latency_report();
	return n;
}

static pid_t shared_pid;
static void (*shared_cleanup)(void);

static void shared_atexit(void)
{
	if (getpid() == shared_pid && shared_cleanup)
		shared_cleanup();
}

void devpm_test_shared(void (*setup)(void), void (*cleanup)(void))
{
	if (cleanup) {
		shared_pid = getpid();
		shared_cleanup = cleanup;
		atexit(shared_atexit);
	}
	if (setup)
		setup();
}
