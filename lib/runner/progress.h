/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h - what `devpm run` says on stderr while a program runs.  On
 * a terminal a live line: the program, its timeout and, every
 * RN_HEARTBEAT_TTY_S, how long it has run and the case it is in; the
 * program's result line (run.c) replaces it.  Elsewhere (a CI log) a
 * line only for a program still running after RN_HEARTBEAT_LOG_S, then
 * as often, so that a long wakeup suite is seen alive.
 */
#ifndef DEVPM_RUNNER_PROGRESS_H
#define DEVPM_RUNNER_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RN_HEARTBEAT_TTY_S	10
#define RN_HEARTBEAT_LOG_S	60

struct rn_progress {
	FILE *out;
	bool tty;
	int every_s;
	size_t i, n;		/* this program's index, how many */
	char name[256];		/* suite/program */
	int timeout_s;
	uint64_t start_us, next_us;
	bool live;		/* a line without its newline is out */
};

/*
 * Whether fd is a terminal a line can be rewritten on: isatty() and TERM
 * set to other than "dumb" (a serial console read by a host line by line,
 * as devpm's QEMU image's, says TERM=dumb).
 */
bool rn_progress_live(int fd);
/* tty: a live line (rn_progress_live()), else log lines. */
void rn_progress_init(struct rn_progress *pg, FILE *out, bool tty);
void rn_progress_start(struct rn_progress *pg, size_t i, size_t n,
		       const char *name, int timeout_s, uint64_t now_us);
/* Called often; prints when a heartbeat is due.  kase may be NULL. */
void rn_progress_tick(struct rn_progress *pg, const char *kase,
		      unsigned int done, uint64_t now_us);
/* Before the program's result line: the live line goes. */
void rn_progress_end(struct rn_progress *pg);

/*
 * The text of a heartbeat (no newline): "[ 3/22] wakeup/stress: 20 s of
 * 450 s, in case stress_random_injection, 2 cases done"; at the start
 * (elapsed 0) "[ 3/22] wakeup/stress: running (timeout 450 s)".
 */
void rn_progress_text(const struct rn_progress *pg, const char *kase,
		      unsigned int done, uint64_t now_us, char *buf,
		      size_t len);

#endif
