/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sha256.h - SHA-256 (FIPS 180-4) for the kernel config's digest in the
 * results: a consumer (KCIDB, a lab's database) compares configs by it.
 */
#ifndef DEVPM_RUNNER_SHA256_H
#define DEVPM_RUNNER_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct rn_sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed */
	unsigned char blk[64];
	size_t nblk;
};

void rn_sha256_init(struct rn_sha256 *s);
void rn_sha256_add(struct rn_sha256 *s, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a NUL. */
void rn_sha256_hex(struct rn_sha256 *s, char hex[65]);

#endif
