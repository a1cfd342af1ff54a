/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * untested.h - a run that tested nothing (model.h: rn_tested()) is not a
 * pass: it exits 4, kselftest's skip, with one line that says why, from
 * the reasons its programs skipped ("not root", "no --allow-sleep", "no
 * devices"), and each program's reason on its progress line.
 */
#ifndef DEVPM_RUNNER_UNTESTED_H
#define DEVPM_RUNNER_UNTESTED_H

#include <stddef.h>
#include "model.h"

/*
 * Why p skipped, for a terminal line: its own reason, else its first
 * skipped case's; "" when it did not skip.
 */
const char *rn_skip_reason(const struct rn_prog *p);

/*
 * "nothing was tested: 22 programs skipped: not root (20: run as root),
 * no --allow-sleep (2: add --allow-sleep)" into buf.
 */
void rn_untested_why(const struct rn_run *r, char *buf, size_t len);

#endif
