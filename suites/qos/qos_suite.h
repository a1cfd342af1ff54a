/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qos_suite.h - the QoS programs' main: the bench (lib/mock/qos_bench.h) is set
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
#include "mock/qos_bench.h"

/*
 * DEVPM_TEST_MAIN_SHARED (lib/harness/test.h) with the QoS record
 * (DEVPM_QOS_RECORD=1, lib/mock/qos_bench.h) around the program's own setup
 * and cleanup.
 */
#define QOS_TEST_MAIN(info, setup, cleanup) \
static void qos_main_setup(void) \
{ \
	devpm_qos_record_start(); \
	setup(); \
} \
static void qos_main_cleanup(void) \
{ \
	cleanup(); \
	devpm_qos_record_dump(); \
} \
DEVPM_TEST_MAIN_SHARED(info, qos_main_setup, qos_main_cleanup)

#endif
