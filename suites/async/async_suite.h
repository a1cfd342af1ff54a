/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * async_suite.h - what the async test programs share: a wake source for a
 * real s2idle cycle (lib/sleep/platform_wake.h), the per-phase figures of a
 * cycle (lib/trace/sleep_phases.h), the cycles a program's cases share
 * (lib/sleep/sleep_cycle_cache.h) and the mock devices' name glob.
 */
#ifndef DEVPM_ASYNC_SUITE_H
#define DEVPM_ASYNC_SUITE_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devpm.h"
#include "core/host.h"

/* The mock devices (devpm_mock): their cycles trace only them. */
#define MOCK_GLOB	"devpm_mock.*"

#endif
