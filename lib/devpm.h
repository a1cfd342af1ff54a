/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devpm.h - what every devpm test calls (docs/architecture.md): the
 * harness's declaration of a program, the device model and its waits,
 * the knob journal, the trace, and the judgment of each device.  A test
 * includes harness/test.h, which includes this; a bus, system sleep,
 * QoS or devpm_mock helper it includes by its own header, from the
 * layer it lives in (lib/bus/pci/pci_set.h, lib/sleep/system_sleep.h).
 */
#ifndef DEVPM_H
#define DEVPM_H

#include "core/clock.h"
#include "core/kmsg.h"
#include "core/note.h"
#include "core/poll.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "core/version.h"
#include "state/journal.h"
#include "state/module_load.h"
#include "trace/least_time.h"
#include "trace/trace.h"
#include "rpm/device.h"
#include "rpm/diagnose.h"
#include "rpm/wait.h"
#include "judge/baseline.h"
#include "judge/block.h"
#include "judge/subtest.h"
#include "judge/sleep_verdict.h"
#include "judge/verdict.h"
#include "harness/test_info.h"

#endif
