/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_info.h - a test program's declaration of itself (see test.h), apart
 * from the kselftest harness so that lib/ can implement it.
 */
#ifndef DEVPM_TEST_INFO_H
#define DEVPM_TEST_INFO_H

#include <sys/types.h>
#include "harness/needs.h"

#define DEVPM_EXIT_PASS 0
#define DEVPM_EXIT_FAIL 1
#define DEVPM_EXIT_USAGE 2
#define DEVPM_EXIT_SKIP 4	/* KSFT_SKIP */

/* The devices a program's system-sleep cycles judge (sleep_scope below). */
enum devpm_sleep_scope {
	DEVPM_SLEEP_ALL_DEVICES,	/* every device of the machine */
	DEVPM_SLEEP_OWN_DEVICES,	/* only those the program makes */
};

struct devpm_test_info {
	const char *suite;
	int timeout_s;		/* whole program; the runner's default is 60 */
	struct devpm_needs needs;
	/*
	 * The devices its system-sleep cycles judge: DEVPM_SLEEP_OWN_DEVICES
	 * when only those it makes itself (devpm_mock, uinput, timers).
	 * An environment may then set aside slow devices for its cycles
	 * (environment.h).  --needs says "# NEEDS sleep-scope: own-devices".
	 */
	enum devpm_sleep_scope sleep_scope;
};

/* Hooks around test_harness_run(): see lib/harness/test_main.c. */
/*
 * --list prints the case names on stdout; -l the kselftest harness's
 * table (FIXTURE VARIANT TEST) on stderr and exit 4, as its -l does.
 */
enum devpm_test_mode {
	DEVPM_MODE_RUN,
	DEVPM_MODE_LIST,
	DEVPM_MODE_NEEDS,
	DEVPM_MODE_LIST_TABLE,
};
int devpm_test_begin(const struct devpm_test_info *info, int argc,
		     char **argv, enum devpm_test_mode *mode,
		     const char **glob);

/*
 * For DEVPM_TEST_MAIN_SHARED: run setup now, in the parent, before the
 * harness forks the cases, and cleanup when the parent exits.
 * test_harness_run() ends in exit(), so cleanup is an atexit handler
 * that only the parent runs (the forked cases exit too), and it runs
 * before the journal's restore (registered earlier, so run later).
 * Either may be NULL (DEVPM_TEST_MAIN: neither).
 */
void devpm_test_shared(void (*setup)(void), void (*cleanup)(void));

/*
 * Journal mark taken at the start of each case; restore at its end.  Use
 * in FIXTURE_SETUP / FIXTURE_TEARDOWN:
 *	self->mark = devpm_case_setup();
 *	devpm_case_teardown(self->mark);
 * devpm_case_teardown() (test.h) puts the knobs back, then judges every
 * device against the baseline (verdict.h) and fails the case for each
 * device it left in error, with a leaked reference or unable to suspend.
 */
off_t devpm_case_setup(void);
/* The same, for the case of that name (test.h's devpm_case_setup()). */
off_t devpm_case_setup_named(const char *casename);
/* Why the case's promise could not be tested ("": it could). */
const char *devpm_case_blame(void);
/*
 * Put back what the case wrote since mark, then let what came back
 * settle (environment.h).  0, or -errno with devpm_error(): the case
 * fails.
 */
int devpm_case_restore(off_t mark);
/* The verdict rules after a case: the number of failures. */
int devpm_case_verdict(const char *casename);

#endif
