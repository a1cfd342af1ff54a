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
 */
#ifndef DEVPM_TEST_H
#define DEVPM_TEST_H

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include "kselftest_harness.h"
#include "devpm.h"
#include "test_info.h"

/* The case's result from its per-device lines: fail, pass, or skip. */
#define DEVPM_SUB_END(s) do { \
	int __r = devpm_sub_end(s); \
	if (__r > 0) { \
		TH_LOG("%d of %d devices failed; first: %s", (s)->fail, \
		       (s)->n, (s)->first_fail); \
		_metadata->passed = 0; \
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
	devpm_case_restore(mark); \
	DEVPM_CASE_VERDICT(); \
} while (0)

/*
 * devpm_case_teardown() of a case that unbound QEMU's xHCI
 * (lib/qemu_xhci.h): the restore binds it again, every USB device comes
 * back (for the verdict and the cases after) or the case fails, then the
 * verdict.
 */
#define devpm_case_teardown_usb(mark) do { \
	devpm_case_restore(mark); \
	if (devpm_qemu_xhci_settle(DEVPM_XHCI_SETTLE_MS)) { \
		TH_LOG("%s", devpm_error()); \
		_metadata->skip = 0; \
		_metadata->passed = 0; \
	} \
	DEVPM_CASE_VERDICT(); \
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
		_metadata->skip = 0; \
		_metadata->passed = 0; \
	} \
} while (0)

/* Expected failure: the reason says exactly why the kernel behaves so. */
#define DEVPM_XFAIL(fmt, ...) do { \
	devpm_note("XFAIL " fmt, ##__VA_ARGS__); \
	SKIP(return, "XFAIL " fmt, ##__VA_ARGS__); \
} while (0)

static inline int devpm__filter_and_list(enum devpm_test_mode mode,
					 const char *glob)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t, *keep, **tail;

	for (f = __fixture_list; f; f = f->next) {
		keep = NULL;
		tail = &keep;
		for (t = f->tests; t; t = t->next) {
			if (glob && fnmatch(glob, t->name, 0))
				continue;
			if (mode == DEVPM_MODE_LIST)
				printf("%s\n", t->name);
			*tail = t;
			tail = &t->next;
		}
		/* Relink the kept cases (the skipped ones keep stale links). */
		*tail = NULL;
		f->tests = keep;
	}
	return 0;
}

#define DEVPM_TEST_MAIN(info) \
int main(int argc, char **argv) \
{ \
	enum devpm_test_mode mode; \
	const char *glob = NULL; \
	int ret = devpm_test_begin(&(info), argc, argv, &mode, &glob); \
	if (ret >= 0) \
		return ret; \
	devpm__filter_and_list(mode, glob); \
	if (mode != DEVPM_MODE_RUN) \
		return 0; \
	return test_harness_run(argc, argv); \
}

#endif
