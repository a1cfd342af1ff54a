/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * needs_met.h - whether this host meets a test program's need, as `devpm
 * list` shows it, without changing anything: no module is loaded, no
 * tracefs mounted (the program itself does that when it runs,
 * needs.h: devpm_needs_check()).
 */
#ifndef DEVPM_RUNNER_NEEDS_MET_H
#define DEVPM_RUNNER_NEEDS_MET_H

#include <stddef.h>

enum rn_met {
	RN_MET_YES,
	RN_MET_NO,
	RN_MET_OPTIN,		/* a `devpm run` option: --allow-sleep */
	RN_MET_UNKNOWN,		/* cannot tell here (why says) */
	RN_MET_INFO,		/* no need: timeout_s, sleep-scope */
};

/*
 * One "# NEEDS key: value" of a program (needs.h: devpm_needs_print()).
 * why gets a word on it: "module i2c_i801 is loaded", "not root".
 */
enum rn_met rn_need_met(const char *key, const char *value, char *why,
			size_t len);

/* "met", "NOT MET", "opt-in", "unknown", "" (info). */
const char *rn_met_name(enum rn_met m);

#endif
