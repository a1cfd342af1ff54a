/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h - helpers of the libFuzzer harnesses (tests/fuzz/fuzz_*.c, run
 * by `make fuzz`): the input as the NUL-terminated text every reader
 * takes, in a heap block of exactly its size so that ASan sees a read
 * past the end.
 */
#ifndef DEVPM_FUZZ_H
#define DEVPM_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *fz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A property of our own output failed: report it as a crash. */
#define FZ_CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz: " __VA_ARGS__); \
		fputc('\n', stderr); \
		abort(); \
	} \
} while (0)

#endif
