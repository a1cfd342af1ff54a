/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu_busy.h - how long the machine's CPUs were busy while a program ran,
 * from /proc/stat: every CPU's user, nice, system, irq, softirq and steal
 * time, not idle or iowait.  Beside a program's time and floor (bench/) it
 * says whether the rest was CPU (under TCG, the emulation) or waiting:
 * for the kernel, for a device, or in a poll.  Every CPU and every task
 * counts, other users' too.
 */
#ifndef DEVPM_RUNNER_CPU_BUSY_H
#define DEVPM_RUNNER_CPU_BUSY_H

/* The busy time in /proc/stat's text, in its ticks; -1 if malformed. */
long long rn_cpu_busy_ticks(const char *stat);

/* The machine's busy time so far, ms; -1 when /proc/stat is unreadable. */
double rn_cpu_busy_ms(void);

/* The ENV key of a program's busy time: "cpu_busy_ms:<suite>/<name>". */
#define RN_ENV_CPU_BUSY "cpu_busy_ms:"

#endif
