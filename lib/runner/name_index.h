/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * name_index.h - names to numbers, hashed: what makes the report and the
 * listing of unrun cases linear in the size of a run, not quadratic.
 * Keys are borrowed: they must outlive the index.
 */
#ifndef DEVPM_RUNNER_NAME_INDEX_H
#define DEVPM_RUNNER_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>

struct rn_name_index {
	const char **key;
	size_t *val;
	size_t cap;		/* a power of two, at least twice n */
	size_t n;
};

void rn_name_index_init(struct rn_name_index *x);
/* key -> val unless key is there already: the first value stays. */
void rn_name_index_put(struct rn_name_index *x, const char *key, size_t val);
bool rn_name_index_get(const struct rn_name_index *x, const char *key,
		       size_t *val);
void rn_name_index_free(struct rn_name_index *x);

#endif
