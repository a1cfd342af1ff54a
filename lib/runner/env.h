/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env.h - what machine and kernel a run ran on (env.json): uname,
 * /proc/cmdline, a hash of the kernel config, DMI vendor and product,
 * CPUs and memory.  Emitted as ENV records of the stream.
 */
#ifndef DEVPM_RUNNER_ENV_H
#define DEVPM_RUNNER_ENV_H

#include <stddef.h>
#include <stdint.h>
#include "stream.h"

void rn_env_emit(struct rn_stream *s);

/* FNV-1a, 64 bit. */
uint64_t rn_fnv1a64(const void *data, size_t len, uint64_t h);
#define RN_FNV1A64_INIT 0xcbf29ce484222325ULL

#endif
