// SPDX-License-Identifier: GPL-2.0-only
/*
 * least_time.c - the kernel delays a case must wait out, as the length of the
 * union of their intervals (least_time.h).  Waits run in a case's threads too:
 * one lock.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "trace/least_time.h"
#include "core/clock.h"
#include "core/note.h"

#define MAX_SPANS 256

struct span {
	uint64_t from, to;
};

static struct span spans[MAX_SPANS];
static size_t nspans;
static uint64_t case_begin_us;
static uint64_t folded_us;	/* spans dropped from a full table */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* Sort and merge overlapping spans in place. */
static void merge(void)
{
	size_t i, n = 0;

	if (!nspans)
		return;
	qsort(spans, nspans, sizeof(spans[0]), span_cmp);
	for (i = 1; i < nspans; i++) {
		if (spans[i].from <= spans[n].to) {
			if (spans[i].to > spans[n].to)
				spans[n].to = spans[i].to;
		} else {
			spans[++n] = spans[i];
		}
	}
	nspans = n + 1;
}

void devpm_least_time_begin(void)
{
	pthread_mutex_lock(&lock);
	nspans = 0;
	folded_us = 0;
	case_begin_us = devpm_now_us();
	pthread_mutex_unlock(&lock);
}

void devpm_least_time_add(uint64_t from_us, uint64_t len_us)
{
	uint64_t to = from_us + len_us;

	pthread_mutex_lock(&lock);
	/* Before the case began it was no wait of the case. */
	if (from_us < case_begin_us)
		from_us = case_begin_us;
	if (to <= from_us) {
		pthread_mutex_unlock(&lock);
		return;
	}
	if (nspans == MAX_SPANS)
		merge();
	if (nspans == MAX_SPANS) {
		/* Disjoint and full: count the oldest, drop it. */
		folded_us += spans[0].to - spans[0].from;
		memmove(&spans[0], &spans[1],
			(MAX_SPANS - 1) * sizeof(spans[0]));
		nspans--;
	}
	spans[nspans].from = from_us;
	spans[nspans].to = to;
	nspans++;
	pthread_mutex_unlock(&lock);
}

void devpm_least_time_add_before(uint64_t end_us, long ms)
{
	uint64_t len;

	if (ms <= 0)
		return;
	len = (uint64_t)ms * 1000;
	if (len > end_us)
		len = end_us;
	devpm_least_time_add(end_us - len, len);
}

uint64_t devpm_least_time_us(void)
{
	uint64_t sum;
	size_t i;

	pthread_mutex_lock(&lock);
	sum = folded_us;
	merge();
	for (i = 0; i < nspans; i++)
		sum += spans[i].to - spans[i].from;
	pthread_mutex_unlock(&lock);
	return sum;
}

void devpm_least_time_report(void)
{
	devpm_metric("-", "floor_ms", devpm_least_time_us() / 1000.0);
}
