// SPDX-License-Identifier: GPL-2.0-only
/*
 * subtree.c - allow runtime suspend of a device's whole subtree
 * (subtree.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpm/subtree.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "state/journal.h"

/* Append the devices below d, depth first, parents before children. */
static int collect(const struct devpm_dev *d, struct devpm_dev **all,
		   size_t *n, size_t *cap)
{
	struct devpm_dev *kids, *grown;
	size_t i, k;
	int r;

	r = devpm_dev_children(d, &kids, &k);
	if (r < 0)
		return r;
	for (i = 0; i < k && r >= 0; i++) {
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			grown = realloc(*all, *cap * sizeof(**all));
			if (!grown) {
				r = devpm_fail(ENOMEM, "out of memory");
				break;
			}
			*all = grown;
		}
		(*all)[(*n)++] = kids[i];
		r = collect(&kids[i], all, n, cap);
	}
	free(kids);
	return r;
}

int devpm_subtree_list(const struct devpm_dev *top, struct devpm_dev **list,
		       size_t *n)
{
	size_t cap = 0;
	int r;

	*list = NULL;
	*n = 0;
	r = collect(top, list, n, &cap);
	if (r < 0) {
		free(*list);
		*list = NULL;
		*n = 0;
	}
	return r;
}

/*
 * A delay of 0 is no good for a negative one: a block device whose suspend
 * is refused while a request is in flight is retried only when the delay
 * moved its expiry on (blk_post_runtime_suspend() marks it busy; see
 * rpm_suspend()), so with 0 it stays active after I/O.
 */
#define SUBTREE_DELAY_MS 20

static int depth(const char *path)
{
	int n = 0;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

/* Write through the journal, noting the old value for the undo. */
static int change(const struct devpm_dev *d, const char *attr,
		  const char *old, const char *val, int base,
		  struct devpm_subtree_undo *undo)
{
	struct devpm_subtree_knob *k;
	char p[DEVPM_PATH_MAX];
	int r;

	r = devpm_dev_attr(d, attr, p, sizeof(p));
	if (r < 0)
		return r;
	r = devpm_knob_write(p, val);
	if (r < 0 || !undo)
		return r;
	if (undo->n == undo->cap) {
		size_t cap = undo->cap ? undo->cap * 2 : 32;

		k = realloc(undo->k, cap * sizeof(*k));
		if (!k)
			return devpm_fail(ENOMEM, "out of memory");
		undo->k = k;
		undo->cap = cap;
	}
	k = &undo->k[undo->n++];
	snprintf(k->path, sizeof(k->path), "%s", p);
	snprintf(k->old, sizeof(k->old), "%s", old);
	k->depth = depth(d->path) - base;
	return 0;
}

/* control=auto, and a negative autosuspend delay made SUBTREE_DELAY_MS. */
static int allow_one(struct devpm_dev *d, long *max_delay, int base,
		     struct devpm_subtree_undo *undo)
{
	char old[24], val[24];
	int r;

	if (d->rpm.have_control && strcmp(d->rpm.control, "auto")) {
		r = change(d, "control", d->rpm.control, "auto", base,
			   undo);
		if (r < 0)
			return r;
	}
	if (d->rpm.have_autosuspend && d->rpm.autosuspend_delay_ms < 0) {
		snprintf(old, sizeof(old), "%ld", d->rpm.autosuspend_delay_ms);
		snprintf(val, sizeof(val), "%d", SUBTREE_DELAY_MS);
		r = change(d, "autosuspend_delay_ms", old, val, base, undo);
		if (r < 0)
			return r;
		d->rpm.autosuspend_delay_ms = SUBTREE_DELAY_MS;
	}
	if (d->rpm.have_autosuspend && d->rpm.autosuspend_delay_ms > *max_delay)
		*max_delay = d->rpm.autosuspend_delay_ms;
	return 0;
}

/* Deeper first; among equals, by path. */
static int deeper_first(const void *a, const void *b)
{
	const struct devpm_dev *x = a, *y = b;
	int dx = depth(x->path), dy = depth(y->path);

	return dx != dy ? dy - dx : strcmp(x->path, y->path);
}

int devpm_subtree_allow(const struct devpm_dev *top, bool with_top,
			long *max_delay_ms, struct devpm_subtree_undo *undo)
{
	char why[256];
	struct devpm_dev *list, self;
	long max_delay = 0;
	int base = depth(top->path), r;
	size_t i, n;

	if (!devpm_allow_disk() &&
	    devpm_dev_protected(top->path, why, sizeof(why)))
		return devpm_fail(EPERM, "%s: %s; needs --allow-disk",
				  top->name, why);
	r = devpm_subtree_list(top, &list, &n);
	if (r < 0)
		return r;
	/* Level by level from the deepest: children before their parent. */
	qsort(list, n, sizeof(*list), deeper_first);
	for (i = 0; i < n && r >= 0; i++)
		r = allow_one(&list[i], &max_delay, base, undo);
	free(list);
	if (r >= 0 && with_top) {
		self = *top;
		r = devpm_dev_snapshot(&self);
		if (r >= 0)
			r = allow_one(&self, &max_delay, base, undo);
	}
	if (r < 0)
		return r;
	if (max_delay_ms)
		*max_delay_ms = max_delay;
	return 0;
}

struct put_back {
	const struct devpm_subtree_knob *k;
	pthread_t thread;
	bool started;
	int r;
};

static void *put_one(void *arg)
{
	struct put_back *b = arg;

	/* A raw write: the journal holds this knob and this value. */
	b->r = devpm_write_str(b->k->path, b->k->old);
	return NULL;
}

/* Shallower first; within a level the order does not matter. */
static int shallower_first(const void *a, const void *b)
{
	const struct devpm_subtree_knob *x = a, *y = b;

	return x->depth - y->depth;
}

int devpm_subtree_undo(struct devpm_subtree_undo *undo)
{
	struct put_back *b;
	size_t i, j, lvl;
	int first = 0;

	if (!undo->n)
		goto out;
	b = calloc(undo->n, sizeof(*b));
	if (!b) {
		first = devpm_fail(ENOMEM, "out of memory");
		goto out;
	}
	qsort(undo->k, undo->n, sizeof(*undo->k), shallower_first);
	for (lvl = 0; lvl < undo->n; lvl = j) {
		for (j = lvl; j < undo->n && undo->k[j].depth ==
		     undo->k[lvl].depth; j++) {
			b[j].k = &undo->k[j];
			b[j].started = !pthread_create(&b[j].thread, NULL,
						       put_one, &b[j]);
			if (!b[j].started)
				put_one(&b[j]);	/* no thread: in turn */
		}
		for (i = lvl; i < j; i++) {
			if (b[i].started)
				pthread_join(b[i].thread, NULL);
			if (b[i].r < 0 && !first)
				first = b[i].r;
		}
	}
	free(b);
out:
	free(undo->k);
	memset(undo, 0, sizeof(*undo));
	return first;
}
