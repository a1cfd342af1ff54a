/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * block.h - one device's block inside a case, in the spirit of IGT's
 * igt_dynamic(): the block ends in exactly one result line for its device
 * (subtest.h), and an assertion ends the device's block, not the case.
 *
 *	static void one(struct devpm_block *b, void *arg)
 *	{
 *		struct devpm_dev *d = arg;
 *
 *		devpm_block_defer_trace_stop(b, t = start_trace(d->name));
 *		if (devpm_dev_knob_write(d, "control", "on"))
 *			devpm_block_abort(b, "control=on: %s", devpm_error());
 *		DEVPM_BLOCK_ASSERT(b, usage == base,
 *				 "usage %ld, %ld at baseline", usage, base);
 *		devpm_block_pass(b, "usage %ld", usage);
 *	}
 *	...
 *	for (i = 0; i < n; i++)
 *		devpm_block_run(&sub, devs[i].name, one, &devs[i]);
 *
 * In the block:
 *	devpm_block_pass()	what was measured; the line is "ok" unless
 *				the block also failed.
 *	devpm_block_fail()	a failure; the block goes on (the first
 *				failure's message is the line's).
 *	devpm_block_abort()	a failure that ends the block here.
 *	DEVPM_BLOCK_ASSERT()	devpm_block_abort() when a condition is false.
 *	devpm_block_skip()	ends the block as a SKIP (subtest.h: only what
 *				the kernel does not promise); a skip after a
 *				failure stays a failure.
 *	devpm_block_name()	names the line after a device found inside
 *				the block.
 *	devpm_block_defer()	a clean-up that runs when the block ends, in
 *				reverse order, however it ends; its argument
 *				is taken as the call is made.  A clean-up may
 *				abort the block (the rest still run) or run
 *				a block of its own.
 *
 * A block that reports nothing passes.  The end of every block writes its
 * line through subtest.c, which applies the error rule (verdict.h): a
 * device whose runtime PM went into error fails, whatever the block said.
 *
 * An abort or skip leaves the block's function (and whatever it called)
 * with longjmp() to devpm_block_run(): what the block opened must be closed
 * by a devpm_block_defer(), not by code after the abort.  The block's
 * function is a function of its own so that none of the case's locals
 * live in the frame longjmp() returns to.
 */
#ifndef DEVPM_DEV_BLOCK_H
#define DEVPM_DEV_BLOCK_H

#include <stdbool.h>
#include "judge/subtest.h"

struct devpm_trace;
struct devpm_block;		/* block.c */

typedef void devpm_block_fn(struct devpm_block *b, void *arg);

/* fn(b, arg) as dev's block in sub: one result line, however it ends. */
void devpm_block_run(struct devpm_subtest *sub, const char *dev, devpm_block_fn *fn,
		   void *arg);

#define DEVPM_BLOCK_ASSERT(b, cond, fmt, ...) do { \
	if (!(cond)) \
		devpm_block_abort((b), "%s: " fmt, #cond, ##__VA_ARGS__); \
} while (0)

void devpm_block_pass(struct devpm_block *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void devpm_block_fail(struct devpm_block *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void devpm_block_abort(struct devpm_block *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void devpm_block_skip(struct devpm_block *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Whether the block has failed so far (to stop early where more proves nothing). */
bool devpm_block_failed(const struct devpm_block *b);
/*
 * The line's name, when the device the block is about is found inside it
 * (a client the block creates): the name stays the same in every run.
 */
void devpm_block_name(struct devpm_block *b, const char *name);
/* -ENOSPC (and fn run at once) when the block has too many. */
int devpm_block_defer(struct devpm_block *b, void (*fn)(void *arg),
		    void *arg);

/* A devpm_trace to stop at the block's end (NULL: nothing). */
void devpm_block_defer_trace_stop(struct devpm_block *b,
				struct devpm_trace *t);
/* An fd to close at the block's end (< 0: nothing). */
void devpm_block_defer_close(struct devpm_block *b, int fd);

#endif
