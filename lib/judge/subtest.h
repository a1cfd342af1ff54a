/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * subtest.h - per-device results inside one test case.
 *
 * A generic case runs over many devices; each device gets a nested KTAP
 * line so that a failure names the device:
 *
 *	    # Subtest: idle_devices_suspend
 *	    # suspended 1.2 ms after control=auto
 *	    ok 1 0000:00:1f.2
 *	    # still active after 1200 ms: control=on
 *	    not ok 2 0000:00:02.0
 *	    ok 3 0000:00:03.0 # SKIP no PM capability
 *	    1..3
 *
 * The result line's name is the device alone, the same in every run; the
 * message of a pass or failure is a "# " line just before it, a skip's
 * reason its SKIP directive.
 */
#ifndef DEVPM_REPORT_H
#define DEVPM_REPORT_H

#include <stdbool.h>
#include <stddef.h>

struct devpm_subtest {
	int n, pass, fail, skip;
	char first_fail[256];	/* "<dev>: <why>" of the first failure */
};

void devpm_subtest_begin(struct devpm_subtest *s, const char *casename);
void devpm_subtest_pass(struct devpm_subtest *s, const char *dev, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
void devpm_subtest_fail(struct devpm_subtest *s, const char *dev, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
void devpm_subtest_skip(struct devpm_subtest *s, const char *dev, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
/* Prints the plan.  Returns 1 if any failed, 0 if any passed, -1 if all
 * skipped or none ran (see DEVPM_SUBTEST_END in test.h). */
int devpm_subtest_end(struct devpm_subtest *s);

/*
 * The name a device's result line carries when the kernel numbers it in
 * probe order ("1-1:1.0/input" for input12): 1 and buf set, else 0 (its
 * own name is stable).  Its metrics use it too, so that they compare
 * across runs.
 */
int devpm_subtest_stable_name(const char *dev, char *buf, size_t len);

#endif
