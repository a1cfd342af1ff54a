/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * program.h - run one test program: its own process group, stdout and
 * stderr merged into one pipe read with poll(), each line timestamped
 * (CLOCK_MONOTONIC), a timeout after which the program's group and every
 * descendant left (the runner is their subreaper) are killed.
 */
#ifndef DEVPM_RUNNER_PROGRAM_H
#define DEVPM_RUNNER_PROGRAM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "util.h"

struct rn_child_ops {
	/* Each output line, without its newline, as it arrives. */
	void (*line)(void *arg, uint64_t ts_us, const char *line);
	/*
	 * Before each chunk of output is handled, and when kfd is
	 * readable: read the kernel log so it is ordered before the output
	 * that follows it.
	 */
	void (*poke)(void *arg);
	/* At least once a second while the program runs (may be NULL). */
	void (*tick)(void *arg);
	int kfd;		/* polled as well; -1 none */
	bool quiet_stderr;	/* stderr to /dev/null (queries) */
	void *arg;
};

enum rn_how {
	RN_EXITED,
	RN_SIGNALED,
	RN_TIMEDOUT,
	RN_INTERRUPTED,		/* the runner got SIGINT/SIGTERM/SIGHUP */
};

struct rn_child_end {
	enum rn_how how;
	int code;		/* exit status, or signal number */
	uint64_t start_us, end_us;
	int leftovers;		/* descendants still alive at the end */
	int stuck;		/* processes that SIGKILL did not end */
};

/*
 * Run argv (argv[0] a path) to its end or timeout_ms (0: none).  Returns
 * 0 with *end filled, or -errno when it could not be started.
 */
int rn_child_run(char *const argv[], int timeout_ms,
		 const struct rn_child_ops *ops, struct rn_child_end *end);

/* Run argv and collect its stdout (stderr discarded) into out. */
int rn_child_capture(char *const argv[], int timeout_ms, struct rn_buf *out,
		     struct rn_child_end *end);

/* "exit:N", "signal:N", "timeout" or "interrupted:N". */
void rn_child_status(const struct rn_child_end *end, char *buf, size_t len);

/*
 * SIGINT/SIGTERM/SIGHUP: kill the running program's group and let the
 * runner finish and write results; a second signal goes to the handler
 * that was installed before (the journal's: restore and exit).
 */
void rn_signals_install(void);
extern volatile sig_atomic_t rn_interrupted;

/*
 * Kill every remaining child of this process (and its group), but the
 * one rn_child_keep() names; returns how many were alive.  *stuck counts
 * those that did not die.
 */
int rn_kill_descendants(int *stuck);

/*
 * A child of the runner that outlives the programs (the environment's
 * window, env_hook.h), spared by rn_kill_descendants(); 0: none.
 */
void rn_child_keep(pid_t pid);

#endif
