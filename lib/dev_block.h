/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dev_block.h - one device's block inside a case, in the spirit of IGT's
 * igt_dynamic(): the block ends in exactly one result line for its device
 * (report.h), and an assertion ends the device's block, not the case.
 *
 *	static void one(struct devpm_dev_block *b, void *arg)
 *	{
 *		struct devpm_dev *d = arg;
 *
 *		devpm_dev_defer_trace_stop(b, t = start_trace(d->name));
 *		if (devpm_dev_knob_write(d, "control", "on"))
 *			devpm_dev_abort(b, "control=on: %s", devpm_error());
 *		DEVPM_DEV_ASSERT(b, usage == base,
 *				 "usage %ld, %ld at baseline", usage, base);
 *		devpm_dev_pass(b, "usage %ld", usage);
 *	}
 *	...
 *	for (i = 0; i < n; i++)
 *		devpm_dev_run(&sub, devs[i].name, one, &devs[i]);
 *
 * In the block:
 *	devpm_dev_pass()	what was measured; the line is "ok" unless
 *				the block also failed.
 *	devpm_dev_fail()	a failure; the block goes on (the first
 *				failure's message is the line's).
 *	devpm_dev_abort()	a failure that ends the block here.
 *	DEVPM_DEV_ASSERT()	devpm_dev_abort() when a condition is false.
 *	devpm_dev_skip()	ends the block as a SKIP (report.h: only what
 *				the kernel does not promise); a skip after a
 *				failure stays a failure.
 *	devpm_dev_name()	names the line after a device found inside
 *				the block.
 *	devpm_dev_defer()	a clean-up that runs when the block ends, in
 *				reverse order, however it ends; its argument
 *				is taken as the call is made.  A clean-up may
 *				abort the block (the rest still run) or run
 *				a block of its own.
 *
 * A block that reports nothing passes.  The end of every block writes its
 * line through report.c, which applies the error rule (verdict.h): a
 * device whose runtime PM went into error fails, whatever the block said.
 *
 * An abort or skip leaves the block's function (and whatever it called)
 * with longjmp() to devpm_dev_run(): what the block opened must be closed
 * by a devpm_dev_defer(), not by code after the abort.  The block's
 * function is a function of its own so that none of the case's locals
 * live in the frame longjmp() returns to.
 */
#ifndef DEVPM_DEV_BLOCK_H
#define DEVPM_DEV_BLOCK_H

#include <stdbool.h>
#include "report.h"

struct devpm_trace;
struct devpm_dev_block;		/* dev_block.c */

typedef void devpm_dev_fn(struct devpm_dev_block *b, void *arg);

/* fn(b, arg) as dev's block in sub: one result line, however it ends. */
void devpm_dev_run(struct devpm_sub *sub, const char *dev, devpm_dev_fn *fn,
		   void *arg);

#define DEVPM_DEV_ASSERT(b, cond, fmt, ...) do { \
	if (!(cond)) \
		devpm_dev_abort((b), "%s: " fmt, #cond, ##__VA_ARGS__); \
} while (0)

void devpm_dev_pass(struct devpm_dev_block *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void devpm_dev_fail(struct devpm_dev_block *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void devpm_dev_abort(struct devpm_dev_block *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void devpm_dev_skip(struct devpm_dev_block *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Whether the block has failed so far (to stop early where more proves nothing). */
bool devpm_dev_failed(const struct devpm_dev_block *b);
/*
 * The line's name, when the device the block is about is found inside it
 * (a client the block creates): the name stays the same in every run.
 */
void devpm_dev_name(struct devpm_dev_block *b, const char *name);
/* -ENOSPC (and fn run at once) when the block has too many. */
int devpm_dev_defer(struct devpm_dev_block *b, void (*fn)(void *arg),
		    void *arg);

/* A devpm_trace to stop at the block's end (NULL: nothing). */
void devpm_dev_defer_trace_stop(struct devpm_dev_block *b,
				struct devpm_trace *t);
/* An fd to close at the block's end (< 0: nothing). */
void devpm_dev_defer_close(struct devpm_dev_block *b, int fd);

#endif
