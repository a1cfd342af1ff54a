/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util.h - small helpers shared by the runner: allocation that cannot fail
 * silently, growable arrays, text that is safe to put into XML and JSON.
 */
#ifndef DEVPM_RUNNER_UTIL_H
#define DEVPM_RUNNER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of devpm (DESIGN.md "Contracts"). */
#define RN_EXIT_OK	0
#define RN_EXIT_FAIL	1
#define RN_EXIT_USAGE	2
#define RN_EXIT_SKIP	4	/* nothing tested: kselftest's KSFT_SKIP */

void *rn_xmalloc(size_t n);
void *rn_xrealloc(void *p, size_t n);
char *rn_xstrdup(const char *s);
char *rn_xstrndup(const char *s, size_t n);
char *rn_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (elements of size sz) so that index n fits; zeroes new room. */
void rn_grow(void *arr, size_t *cap, size_t n, size_t sz);

/*
 * Append a copy of s to a string array that rn_strv_push() made from
 * NULL (its room follows from n: 8, then the next power of two).
 */
void rn_strv_push(char ***v, size_t *n, const char *s);
void rn_strv_free(char **v, size_t n);

bool rn_starts(const char *s, const char *prefix);

/*
 * Copy of s made valid UTF-8 without control characters other than tab:
 * anything else becomes '?'.  Every text the runner reads from a program or
 * the kernel goes through this once, so the writers need not care.
 */
char *rn_clean_text(const char *s);

/* Print "devpm: <msg>" on stderr and return RN_EXIT_USAGE. */
int rn_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* CLOCK_MONOTONIC in µs. */
uint64_t rn_mono_us(void);

/*
 * Read a whole file into a NUL-terminated buffer; NULL with errno set.
 * Only a regular file (else EINVAL: opened O_NONBLOCK, so a FIFO never
 * hangs the reader) of at most RN_READ_MAX bytes (else EFBIG, also when
 * it grows past that while read).  Every input devpm reads whole (a
 * stream, summary.json, a KTAP file, a probe cache) comes through here.
 */
#define RN_READ_MAX		(256L << 20)
#define RN_READ_MAX_TEXT	"256 MiB"
char *rn_read_file(const char *path, size_t *len);
/* What rn_read_file()'s errno means, for a message. */
const char *rn_read_error(int err);

/* Write all of buf to fd, fsync and close it: 0 or the first -errno. */
int rn_write_all(int fd, const char *buf, size_t len);
/* A growing text buffer. */
struct rn_buf {
	char *s;
	size_t len, cap;
};

void rn_buf_add(struct rn_buf *b, const char *s);
void rn_buf_addn(struct rn_buf *b, const char *s, size_t n);
void rn_buf_printf(struct rn_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rn_buf_free(struct rn_buf *b);

#endif
