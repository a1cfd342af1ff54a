/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test.h - what every devpm test program includes.
 *
 * A test program is a kselftest-harness executable (FIXTURE, TEST_F, fork
 * per case, KTAP on stdout, exit 0 pass / 1 fail / 4 skip) whose main()
 * comes from DEVPM_TEST_MAIN: it declares what the program needs, and
 * devpm_test_main() turns an unmet need into a SKIP with a reason, attaches
 * to the runner's journal and restores every knob the program wrote when
 * it exits.  See docs/writing-tests.md.
 *
 *	static const struct devpm_test_info info = {
 *		.suite = "i2c", .timeout_s = 60,
 *		.needs = { .root = true, .modules = (const char *[]){
 *				"i2c_i801", NULL } },
 *	};
 *	DEVPM_TEST_MAIN(info)
 *
 * The program also answers:
 *	--list		print its case names, one per line
 *	--needs		print its needs ("# NEEDS ...")
 *	-t GLOB		run only the cases whose name matches (DEVPM_TEST_GLOB too)
 *	-l, -h		as the kselftest harness's (6.2 and since): its table of
 *			cases, or the usage, on stderr, and exit 4
 */
#ifndef DEVPM_TEST_H
#define DEVPM_TEST_H

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "devpm.h"
#include "harness/environment.h"
#include "harness/test_info.h"

/*
 * Fail the running case, even one that skipped, in the field its harness
 * keeps the result in: passed and skip up to Linux 6.8, exit_code since
 * 6.9 (the kselftest_harness.h series that also brought XFAIL_ADD).
 */
#ifdef XFAIL_ADD
#define DEVPM_CASE_FAIL(m) ((m)->exit_code = KSFT_FAIL)
#else
#define DEVPM_CASE_FAIL(m) ((m)->skip = 0, (m)->passed = 0)
#endif

/*
 * Skip the running case with reason, even one that failed or asserted:
 * the harness's fields up to 6.8 (skip, passed) or since 6.9 (exit_code);
 * aborted cleared so that the ASSERT's abort() does not follow.
 */
#ifdef XFAIL_ADD
#define DEVPM_CASE_SKIP_NOW(m) ((m)->exit_code = KSFT_SKIP)
#else
#define DEVPM_CASE_SKIP_NOW(m) ((m)->skip = 1, (m)->passed = 1)
#endif
#define DEVPM_CASE_SKIP(m, why) do { \
	snprintf((m)->results->reason, sizeof((m)->results->reason), \
		 "%s", (why)); \
	DEVPM_CASE_SKIP_NOW(m); \
	(m)->aborted = false; \
} while (0)

/*
 * Each case names itself to the library (who recorded what in the run,
 * sleep_verdict.h): the FIXTURE_SETUP's devpm_case_setup() is this.
 */
#define devpm_case_setup() devpm_case_setup_named(_metadata->name)

/* The case's result from its per-device lines: fail, pass, or skip. */
#define DEVPM_SUBTEST_END(s) do { \
	int __r = devpm_subtest_end(s); \
	if (__r > 0) { \
		TH_LOG("%d of %d devices failed; first: %s", (s)->fail, \
		       (s)->n, (s)->first_fail); \
		DEVPM_CASE_FAIL(_metadata); \
	} else if (__r < 0) { \
		SKIP(return, "%s", (s)->n ? "every device skipped" : \
		     "no device to test"); \
	} \
} while (0)

/*
 * In FIXTURE_TEARDOWN: knobs back, then the verdict rules; a device left
 * broken fails the case, even one that passed or skipped.
 */
#define devpm_case_teardown(mark) do { \
	DEVPM_CASE_RESTORE(mark); \
	DEVPM_CASE_VERDICT(); \
} while (0)

/*
 * devpm_case_restore(), failing the case when what it put back did not
 * settle (environment.h: a device the environment set aside that did
 * not come back whole).
 */
#define DEVPM_CASE_RESTORE(mark) do { \
	if (devpm_case_restore(mark)) { \
		TH_LOG("%s", devpm_error()); \
		DEVPM_CASE_FAIL(_metadata); \
	} \
} while (0)

/*
 * The verdict alone, for a teardown that must let go of the devices
 * (close files, release holds) after devpm_case_restore() and before the
 * devices are judged.
 */
#define DEVPM_CASE_VERDICT() do { \
	int __n = devpm_case_verdict(_metadata->name); \
	if (__n > 0) { \
		TH_LOG("%s%s", devpm_verdict_first(), __n > 1 ? \
		       " (and more: see the verdict lines)" : ""); \
		DEVPM_CASE_FAIL(_metadata); \
	} else { \
		DEVPM_CASE_BLAMED(); \
	} \
} while (0)

/*
 * A device of the machine refused the case's system sleep or held it
 * awake (sleep_verdict.h): its promise could not be tested, and the
 * judging case fails that device.  One line, a SKIP, whatever the case's
 * own checks made of the cycle that did not happen; a device the
 * verdict failed (above) stays a failure.
 */
#define DEVPM_CASE_BLAMED() do { \
	if (devpm_case_blame()[0]) \
		DEVPM_CASE_SKIP(_metadata, devpm_case_blame()); \
} while (0)

/* Expected failure: the reason says exactly why the kernel behaves so. */
#define DEVPM_XFAIL(fmt, ...) do { \
	devpm_note("XFAIL " fmt, ##__VA_ARGS__); \
	SKIP(return, "XFAIL " fmt, ##__VA_ARGS__); \
} while (0)

/*
 * Case selection (-t GLOB, DEVPM_TEST_GLOB) through the harness's own
 * registration, never through its lists.  Every TEST() and TEST_F()
 * registers its case from a constructor by calling __register_test()
 * (kselftest_harness.h, 6.1 and since).  From here on that call is
 * devpm__hold_case(): the case waits in devpm__cases, and main() hands
 * the harness those the glob selects, in the order the constructors
 * offered them, so that the harness orders them as it would have.
 * (__register_test) with parentheses is the harness's own function.
 */
static struct {
	struct __test_metadata **t;
	size_t n, cap;
	const char *glob;	/* the selection: NULL every case */
} devpm__cases;

static inline void devpm__hold_case(struct __test_metadata *t)
{
	struct __test_metadata **p;
	size_t cap;

	if (devpm__cases.n == devpm__cases.cap) {
		cap = devpm__cases.cap ? 2 * devpm__cases.cap : 32;
		p = realloc(devpm__cases.t, cap * sizeof(*p));
		if (!p) {
			fprintf(stderr, "devpm: out of memory registering case %s\n",
				t->name);
			abort();
		}
		devpm__cases.t = p;
		devpm__cases.cap = cap;
	}
	devpm__cases.t[devpm__cases.n++] = t;
}

#define __register_test(t) devpm__hold_case(t)

/* The harness's cases, walked as its test_harness_run() walks them. */
static inline size_t devpm__harness_cases(bool print)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	size_t n = 0;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next, n++)
			if (print)
				printf("%s\n", t->name);
	return n;
}

/*
 * -l: the table test_harness_list_tests() prints in kselftest_harness.h
 * (6.2 and since), whose 6.1 has no -l: a fixture's name on its first
 * row, its variants and its tests beside each other.
 */
static inline void devpm__harness_table(void)
{
	struct __fixture_variant_metadata *v;
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next) {
		v = f->variant;
		t = f->tests;
		if (f == __fixture_list)
			fprintf(stderr, "%-20s %-25s %s\n", "# FIXTURE",
				"VARIANT", "TEST");
		else
			fprintf(stderr, "--------------------------------------------------------------------------------\n");
		do {
			fprintf(stderr, "%-20s %-25s %s\n",
				t == f->tests ? f->name : "",
				v ? v->name : "", t ? t->name : "");
			v = v ? v->next : NULL;
			t = t ? t->next : NULL;
		} while (v || t);
	}
}

/*
 * Register the cases whose name matches glob (all without one) with the
 * harness.  Returns -1 to go on and run them, 0 after --list printed
 * them (in the order they run), DEVPM_EXIT_SKIP after -l printed its
 * table, DEVPM_EXIT_USAGE when a case reached the harness without
 * devpm__hold_case() (a harness that registers another way: selection
 * would not hold).
 */
static inline int devpm_test_select(enum devpm_test_mode mode,
				    const char *glob)
{
	size_t i;

	if (devpm__harness_cases(false)) {
		fprintf(stderr, "devpm: this kselftest harness registers cases without __register_test(); devpm's case selection must be taught its way (KSRC=)\n");
		return DEVPM_EXIT_USAGE;
	}
	devpm__cases.glob = glob;
	for (i = 0; i < devpm__cases.n; i++)
		if (!glob || !fnmatch(glob, devpm__cases.t[i]->name, 0))
			(__register_test)(devpm__cases.t[i]);
	if (mode == DEVPM_MODE_LIST_TABLE) {
		devpm__harness_table();
		return DEVPM_EXIT_SKIP;
	}
	if (mode != DEVPM_MODE_LIST)
		return -1;
	devpm__harness_cases(true);
	return 0;
}

/*
 * Does this run of the program run the case name (-t GLOB)?  For work a
 * case does for another one of the same run (a cycle it saves for it).
 */
static inline bool devpm_test_selected(const char *name)
{
	size_t i;

	for (i = 0; i < devpm__cases.n; i++)
		if (!strcmp(devpm__cases.t[i]->name, name))
			return !devpm__cases.glob ||
			       !fnmatch(devpm__cases.glob, name, 0);
	return false;
}

/*
 * Run the registered cases.  The harness gets no option of ours: a newer
 * one parses its command line (-t NAME there is an exact name, -l a
 * list) and would undo the selection.
 */
static inline int devpm_test_harness_run(char **argv)
{
	char *args[2];

	args[0] = argv[0];
	args[1] = NULL;
	return test_harness_run(1, args);
}

#define DEVPM_TEST_MAIN(info) DEVPM_TEST_MAIN_SHARED(info, NULL, NULL)

/*
 * DEVPM_TEST_MAIN with a setup run once in the parent, before the cases
 * are forked (a module load or a trace shared by every case), and a
 * cleanup when the program ends (devpm_test_shared(); NULL: none).
 */
#define DEVPM_TEST_MAIN_SHARED(info, setup, cleanup) \
int main(int argc, char **argv) \
{ \
	enum devpm_test_mode mode; \
	const char *glob = NULL; \
	int ret = devpm_test_begin(&(info), argc, argv, &mode, &glob); \
	if (ret >= 0) \
		return ret; \
	ret = devpm_test_select(mode, glob); \
	if (ret >= 0) \
		return ret; \
	devpm_test_shared(setup, cleanup); \
	return devpm_test_harness_run(argv); \
}

#endif
