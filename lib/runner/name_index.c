// SPDX-License-Identifier: GPL-2.0-only
/* name_index.c - names to numbers, open addressing (name_index.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "name_index.h"
#include "util.h"

static size_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

void rn_name_index_init(struct rn_name_index *x)
{
	memset(x, 0, sizeof(*x));
}

static size_t slot(const struct rn_name_index *x, const char *key)
{
	size_t i = hash(key) & (x->cap - 1);

	while (x->key[i] && strcmp(x->key[i], key))
		i = (i + 1) & (x->cap - 1);
	return i;
}

static void grow(struct rn_name_index *x)
{
	struct rn_name_index old = *x;
	size_t i, j;

	x->cap = old.cap ? old.cap * 2 : 64;
	x->key = rn_xmalloc(x->cap * sizeof(*x->key));
	x->val = rn_xmalloc(x->cap * sizeof(*x->val));
	memset(x->key, 0, x->cap * sizeof(*x->key));
	for (i = 0; i < old.cap; i++) {
		if (!old.key[i])
			continue;
		j = slot(x, old.key[i]);
		x->key[j] = old.key[i];
		x->val[j] = old.val[i];
	}
	rn_name_index_free(&old);
}

void rn_name_index_put(struct rn_name_index *x, const char *key, size_t val)
{
	size_t i;

	if (2 * (x->n + 1) > x->cap)
		grow(x);
	i = slot(x, key);
	if (x->key[i])
		return;
	x->key[i] = key;
	x->val[i] = val;
	x->n++;
}

bool rn_name_index_get(const struct rn_name_index *x, const char *key,
		       size_t *val)
{
	size_t i;

	if (!x->cap)
		return false;
	i = slot(x, key);
	if (!x->key[i])
		return false;
	if (val)
		*val = x->val[i];
	return true;
}

void rn_name_index_free(struct rn_name_index *x)
{
	free(x->key);
	free(x->val);
	x->key = NULL;
	x->val = NULL;
	x->cap = x->n = 0;
}
