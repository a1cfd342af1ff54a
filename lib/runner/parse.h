/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.h - a test program's output (kselftest harness KTAP plus the
 * nested device lines and "# METRIC" lines of lib/judge/subtest.c) into the model.
 *
 * Lines are fed one at a time, as they arrive; rn_parse_end() closes the
 * program with how it ended, which decides the fate of a case still open.
 */
#ifndef DEVPM_RUNNER_PARSE_H
#define DEVPM_RUNNER_PARSE_H

#include <stdint.h>
#include "model.h"

/* Set up p for a program about to run (names are copied). */
void rn_prog_init(struct rn_prog *p, const char *suite, const char *name,
		  int timeout_s, uint64_t start_us);

/* One line of output (no newline; cleaned with rn_clean_text()). */
void rn_parse_line(struct rn_prog *p, uint64_t ts_us, const char *line);

/*
 * A kernel problem (splat line or new taint) while p runs: fails the open
 * case, else the program.  Returns the "suite/prog[/case]" it was charged
 * to (static buffer).
 */
const char *rn_parse_kernel(struct rn_prog *p, const char *what);

/*
 * Whether what says better than have (NULL: nothing yet) where a kernel
 * problem happened: the line a failure quotes is the splat's that names
 * the function and file (devpm_kmsg_bad_rank()), not "[ cut here ]".
 */
bool rn_kernel_better(const char *have, const char *what);

/*
 * The program ended.  status is the END record's: "exit:N", "signal:N",
 * "timeout", "interrupted:N" or "error:<text>".  status NULL means the
 * machine died during the program; crash is then the reason (may be NULL).
 */
void rn_parse_end(struct rn_prog *p, uint64_t ts_us, const char *status,
		  const char *crash);

/* The open case of p, or NULL. */
struct rn_case *rn_prog_open_case(struct rn_prog *p);

#endif
