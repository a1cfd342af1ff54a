/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan.h - the run's plan: every program and case `devpm run` selected,
 * recorded in the stream before the first program starts, so that a run
 * cut short at any point (a guest panic, a host kill, SIGINT, a timeout of
 * the whole run) still reports every case it did not run, by name:
 *
 *	PLAN <suite>/<prog> <timeout_s> [<case>]
 *
 * one record per case (a program that could not list its cases has one
 * record without a case).  A planned program whose PROG never came gets
 * each case "not run" with why the run ended when the stream does
 * (rn_plan_unrun()); a program skipped as a whole reports each listed case
 * as skipped, with the program's reason (rn_plan_skip_whole()).
 */
#ifndef DEVPM_RUNNER_PLAN_H
#define DEVPM_RUNNER_PLAN_H

#include <stdint.h>
#include "model.h"

/* A PLAN record (without "PLAN "): 0, or -1 when malformed. */
int rn_plan_record(struct rn_run *r, const char *rec);

/* The program suite/name started (its PROG record). */
void rn_plan_started(struct rn_run *r, const char *suite, const char *name);

/*
 * The stream ended (DONE, or no more records): each planned program that
 * never started becomes a program of r whose cases are not run, reason
 * "not run: <why>".
 */
void rn_plan_unrun(struct rn_run *r, uint64_t ts_us, const char *why);

/*
 * A program that skipped as a whole ("1..0 # SKIP reason"): each case it
 * listed becomes a skipped case with that reason, and the program keeps
 * no result of its own.
 */
void rn_plan_skip_whole(struct rn_prog *p, uint64_t ts_us);

/* A case of p (names copied), with its result and reason. */
struct rn_case *rn_plan_add_case(struct rn_prog *p, const char *name,
				 enum rn_result res, const char *reason,
				 uint64_t ts_us);

#endif
