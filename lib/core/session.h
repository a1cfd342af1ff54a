/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - the sessions of the test programs a run started: the
 * runner starts each program as the leader of a session of its own and
 * journals it (journal.h "P <sid> <start>"); after a crash the next owner
 * ends whatever is left of those sessions before it restores.
 */
#ifndef DEVPM_SESSION_H
#define DEVPM_SESSION_H

#include <sys/types.h>

/*
 * Start time of a live process (/proc/PID/stat starttime, clock ticks
 * since boot): told apart from a later process given the same pid.
 * -ESRCH when it is gone.
 */
int devpm_session_start_time(pid_t pid, unsigned long long *start);

/*
 * SIGKILL every process of session sid whose leader started at start
 * (a leader pid alive with another start time was reused: not ours),
 * again until none is left, for at most 5 s.  Never this process.
 * Returns how many were killed; *stuck: how many were still there at
 * the bound (stuck in the kernel).
 */
int devpm_session_end(long sid, unsigned long long start, int *stuck);

#endif
