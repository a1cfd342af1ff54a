/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qos_suite.h - the QoS programs' main: the bench (lib/qos_bench.h) is set
 * up once in the parent, after the needs are met and before the cases
 * are forked, and cleaned up after them.
 */
#ifndef DEVPM_QOS_SUITE_H
#define DEVPM_QOS_SUITE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devpm.h"
#include "mock.h"
#include "qos.h"

/*
 * test_harness_run() ends in exit(): the cleanup is an atexit handler,
 * run by the parent only (the forked cases exit too), and before the
 * journal's restore (registered earlier, so run later).
 */
static pid_t qos_main_pid;
static void (*qos_main_cleanup)(void);

static inline void qos_main_atexit(void)
{
	if (getpid() != qos_main_pid)
		return;
	qos_main_cleanup();
	devpm_qos_record_dump();
}

#define QOS_TEST_MAIN(info, setup, cleanup) \
int main(int argc, char **argv) \
{ \
	enum devpm_test_mode mode; \
	const char *glob = NULL; \
	int ret = devpm_test_begin(&(info), argc, argv, &mode, &glob); \
	if (ret >= 0) \
		return ret; \
	ret = devpm_test_select(mode, glob); \
	if (ret >= 0) \
		return ret; \
	qos_main_pid = getpid(); \
	qos_main_cleanup = cleanup; \
	atexit(qos_main_atexit); \
	devpm_qos_record_start(); \
	setup(); \
	return devpm_test_harness_run(argv); \
}

#endif
