/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * poll.h - wait for a condition with exponential back-off and a bound,
 * where there is no event to wait on (DESIGN: no fixed sleeps).  1 ms
 * doubling to 16 ms: a wait ends within 20 ms of the change it waits for.
 */
#ifndef DEVPM_POLL_H
#define DEVPM_POLL_H

#include <stdbool.h>

#define DEVPM_BACKOFF_MIN_MS	1
#define DEVPM_BACKOFF_MAX_MS	16

/* The next back-off step after ms. */
int devpm_backoff_next(int ms);

/*
 * Call cond(arg) until it returns true, with back-off, for at most
 * timeout_ms.  Returns whether it did.
 */
bool devpm_poll_until(bool (*cond)(void *arg), void *arg, int timeout_ms);

#endif
