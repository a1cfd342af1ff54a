// SPDX-License-Identifier: GPL-2.0-only
/*
 * wait_latency.c - the lag of runtime-status waits behind the kernel's
 * transitions, per case (wait_latency.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "trace/wait_latency.h"
#include "core/note.h"

#define MAX_LAGS 4096	/* beyond: every other sample is kept */

static uint64_t lags[MAX_LAGS];
static size_t nlags;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* threads wait */

void devpm_wait_latency_begin(void)
{
	pthread_mutex_lock(&lock);
	nlags = 0;
	pthread_mutex_unlock(&lock);
}

void devpm_wait_latency_add(uint64_t kernel_us, uint64_t seen_us)
{
	size_t i;

	pthread_mutex_lock(&lock);
	if (nlags == MAX_LAGS) {
		for (i = 0; i < MAX_LAGS / 2; i++)
			lags[i] = lags[2 * i + 1];
		nlags = MAX_LAGS / 2;
	}
	lags[nlags++] = seen_us > kernel_us ? seen_us - kernel_us : 0;
	pthread_mutex_unlock(&lock);
}

size_t devpm_wait_latency_count(void)
{
	size_t n;

	pthread_mutex_lock(&lock);
	n = nlags;
	pthread_mutex_unlock(&lock);
	return n;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int devpm_wait_latency_pct(unsigned int pct, uint64_t *us)
{
	size_t rank;

	pthread_mutex_lock(&lock);
	if (!nlags) {
		pthread_mutex_unlock(&lock);
		return -ENODATA;
	}
	if (pct > 100)
		pct = 100;
	qsort(lags, nlags, sizeof(lags[0]), u64_cmp);
	/* Nearest rank: the smallest sample with pct% at or below it. */
	rank = (nlags * pct + 99) / 100;
	*us = lags[rank ? rank - 1 : 0];
	pthread_mutex_unlock(&lock);
	return 0;
}

void devpm_wait_latency_report(void)
{
	uint64_t p50, p99;

	if (devpm_wait_latency_pct(50, &p50) || devpm_wait_latency_pct(99, &p99))
		return;
	devpm_metric("-", "wait_lag_us_p50", (double)p50);
	devpm_metric("-", "wait_lag_us_p99", (double)p99);
}
