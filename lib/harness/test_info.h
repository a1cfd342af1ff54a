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

struct devpm_test_info {
	const char *suite;
	int timeout_s;		/* whole program; the runner's default is 60 */
	struct devpm_needs needs;
	/*
	 * Its sleep cycles need none of QEMU's controllers (their events
	 * come from mock devices, uinput, timers) and want them out (it
	 * unbinds them itself, lib/harness/qemu_xhci.h, or its cycles are only
	 * slower with them; a case that needs the xHCI binds it back for
	 * itself): the runner may run it in its quiet window
	 * (lib/harness/qemu_quiet.h).  --needs says
	 * "# NEEDS quiet-devices: yes".
	 */
	bool quiet_devices;
};

/* Hooks around test_harness_run(): see lib/harness/test_main.c. */
enum devpm_test_mode { DEVPM_MODE_RUN, DEVPM_MODE_LIST, DEVPM_MODE_NEEDS };
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
/* Put back what the case wrote since mark. */
void devpm_case_restore(off_t mark);
/* The verdict rules after a case: the number of failures. */
int devpm_case_verdict(const char *casename);

#endif
