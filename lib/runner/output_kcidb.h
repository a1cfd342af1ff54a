/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_kcidb.h - a run as a KCIDB v4 submission (the KernelCI common
 * database's JSON, schema version 4.4): one checkout and one build for
 * the kernel the run tested, a test per case with the path
 * devpm.<suite>.<program>.<case> and a test per metric below it
 * (devpm.<suite>.<program>.<case>[.<device>].<metric>, its value a
 * "number").  Ids are "<origin>:<run-id>[:<path>]".
 */
#ifndef DEVPM_RUNNER_OUTPUT_KCIDB_H
#define DEVPM_RUNNER_OUTPUT_KCIDB_H

#include <stddef.h>
#include "model.h"

/* An origin KCIDB takes: ^[a-z0-9_]+$. */
#define RN_KCIDB_ORIGIN "devpm"

/* The submission (malloc'd); origin must match ^[a-z0-9_]+$. */
char *rn_out_kcidb(const struct rn_run *r, const char *origin);

/*
 * One name as one element of a KCIDB path (^[.a-zA-Z0-9_-]*$, dots
 * separate elements): every other character and every '.' becomes '_',
 * so "0000:00:1f.3" is "0000_00_1f_3".  An empty name is "_".
 */
void rn_kcidb_name(char *dst, size_t len, const char *name);

#endif
