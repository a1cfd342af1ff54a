/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env.h - what machine and kernel a run ran on (env.json): uname,
 * /proc/cmdline, the kernel config's sha256, DMI vendor and product,
 * CPUs and memory.  Emitted as ENV records of the stream.
 */
#ifndef DEVPM_RUNNER_ENV_H
#define DEVPM_RUNNER_ENV_H

#include <stddef.h>
#include <stdint.h>
#include "stream.h"

void rn_env_emit(struct rn_stream *s);

#endif
