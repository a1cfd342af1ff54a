// SPDX-License-Identifier: GPL-2.0-only
/*
 * block.c - one device's block inside a case (block.h): the
 * block's outcome, its clean-ups, and its one result line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "judge/block.h"
#include "judge/sleep_verdict.h"
#include "judge/subtest.h"
#include "trace/trace.h"

#define DEFER_MAX 8
/* A block's function may run a block of its own (a child device's). */
#define DEPTH_MAX 4

struct devpm_block {
	struct devpm_subtest *sub;
	char dev[128];
	bool failed, skipped;
	char msg[1024];		/* the first failure, the skip, or the pass */
	struct {
		void (*fn)(void *arg);
		void *arg;
	} defer[DEFER_MAX];
	int ndefer;
	jmp_buf jb;
};

/*
 * Static, not on devpm_block_run()'s stack: what the block changes between
 * setjmp() and longjmp() must not be an automatic object of the frame
 * setjmp() returns to (C11 7.13.2.1).
 */
static struct devpm_block blocks[DEPTH_MAX];
static int depth;

/* The clean-ups run before the line: the verdict sees the device let go. */
static void run_defers(struct devpm_block *b)
{
	while (b->ndefer > 0) {
		b->ndefer--;
		b->defer[b->ndefer].fn(b->defer[b->ndefer].arg);
	}
}

/* Write b's one line, after its clean-ups. */
static void finish(struct devpm_block *b)
{
	run_defers(b);
	if (b->failed)
		devpm_subtest_fail(b->sub, b->dev, "%s", b->msg);
	else if (b->skipped)
		devpm_subtest_skip(b->sub, b->dev, "%s", b->msg);
	else
		devpm_subtest_pass(b->sub, b->dev, "%s", b->msg);
}

/*
 * An abort or skip of b from inside a block nested in it ends the nested
 * ones first, each with its line, as their own end would.
 */
static void unwind_to(struct devpm_block *b)
{
	while (depth > 0 && &blocks[depth - 1] != b) {
		struct devpm_block *in = &blocks[--depth];

		if (!in->failed) {
			in->failed = true;
			snprintf(in->msg, sizeof(in->msg),
				 "did not finish: %s's block ended", b->dev);
		}
		finish(in);
	}
}

void devpm_block_run(struct devpm_subtest *sub, const char *dev, devpm_block_fn *fn,
		   void *arg)
{
	struct devpm_block *const b = &blocks[depth];

	if (depth == DEPTH_MAX) {
		devpm_subtest_fail(sub, dev ? dev : "?",
			       "blocks nested deeper than %d: a bug in the case",
			       DEPTH_MAX);
		return;
	}
	memset(b, 0, sizeof(*b));
	b->sub = sub;
	snprintf(b->dev, sizeof(b->dev), "%s", dev ? dev : "?");
	/* The case's cycles are blocked by another device: nothing to run. */
	if (devpm_sleep_blame()[0]) {
		devpm_sleep_blame_short(b->msg, sizeof(b->msg));
		devpm_subtest_skip(sub, b->dev, "%s", b->msg);
		return;
	}
	depth++;
	/*
	 * Back here when fn ends it, or when one of its clean-ups does:
	 * finish() then goes on with the clean-ups left.  b stays the
	 * innermost block until its line is out, so that a clean-up's abort
	 * ends b alone and a block a clean-up runs takes the next slot.
	 */
	if (setjmp(b->jb) == 0)
		fn(b, arg);
	finish(b);
	depth--;
}

void devpm_block_pass(struct devpm_block *b, const char *fmt, ...)
{
	va_list ap;

	if (b->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(b->msg, sizeof(b->msg), fmt, ap);
	va_end(ap);
}

static void failv(struct devpm_block *b, const char *fmt, va_list ap)
{
	if (b->failed)
		return;
	b->failed = true;
	vsnprintf(b->msg, sizeof(b->msg), fmt, ap);
}

void devpm_block_fail(struct devpm_block *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	failv(b, fmt, ap);
	va_end(ap);
}

void devpm_block_abort(struct devpm_block *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	failv(b, fmt, ap);
	va_end(ap);
	unwind_to(b);
	longjmp(b->jb, 1);
}

void devpm_block_skip(struct devpm_block *b, const char *fmt, ...)
{
	va_list ap;

	if (!b->failed) {
		b->skipped = true;
		va_start(ap, fmt);
		vsnprintf(b->msg, sizeof(b->msg), fmt, ap);
		va_end(ap);
	}
	unwind_to(b);
	longjmp(b->jb, 1);
}

bool devpm_block_failed(const struct devpm_block *b)
{
	return b->failed;
}

void devpm_block_name(struct devpm_block *b, const char *name)
{
	snprintf(b->dev, sizeof(b->dev), "%s", name);
}

int devpm_block_defer(struct devpm_block *b, void (*fn)(void *arg),
		    void *arg)
{
	if (b->ndefer >= DEFER_MAX) {
		fn(arg);
		return -ENOSPC;
	}
	b->defer[b->ndefer].fn = fn;
	b->defer[b->ndefer].arg = arg;
	b->ndefer++;
	return 0;
}

static void stop_trace(void *t)
{
	devpm_trace_stop(t);
}

void devpm_block_defer_trace_stop(struct devpm_block *b,
				struct devpm_trace *t)
{
	if (t)
		devpm_block_defer(b, stop_trace, t);
}

static void close_fd(void *fd)
{
	close((int)(intptr_t)fd);
}

void devpm_block_defer_close(struct devpm_block *b, int fd)
{
	if (fd >= 0)
		devpm_block_defer(b, close_fd, (void *)(intptr_t)fd);
}
