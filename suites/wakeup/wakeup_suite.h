/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wakeup_suite.h - what the wakeup suite's programs include: how a cycle
 * sleeps (lib/sleep/wake_env.h), one mock wakeup event's cycle
 * (lib/mock/mock_cycle.h).
 */
#ifndef WAKEUP_SUITE_H
#define WAKEUP_SUITE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devpm.h"

#endif
