/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wake_account.h - every wakeup event a test injects is accounted for.
 *
 * An event is produced by a device (it fired; its record is queued for
 * user space), reported to the PM core (the device's wakeup source
 * event_count grew) and consumed by user space (the record was read after
 * the resume).  An event missing from either path is lost: the PM core
 * cannot stop a suspend for an event it never saw, and an event user space
 * never read is a key that never arrived.  A cycle's outcome says what the
 * suspend did while the event was there.
 */
#ifndef DEVPM_WAKE_ACCOUNT_H
#define DEVPM_WAKE_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sleep/system_sleep.h"

enum devpm_wake_outcome {
	DEVPM_WAKE_ABORTED,	/* the write to state failed: aborted */
	DEVPM_WAKE_WOKE,	/* went to sleep and woke by itself at once */
	DEVPM_WAKE_SLEPT,	/* slept until woken from outside (or ran
				 * to its pm_test level)
				 */
	DEVPM_WAKE_NR
};

/* "aborted", "woke", "slept". */
const char *devpm_wake_outcome_name(enum devpm_wake_outcome o);

/*
 * The outcome of a cycle.  pm_test: it ran at a pm_test level (no real
 * sleep, so never "woke"); outside_irq: the IRQ of the outside waker
 * (the QEMU agent's console character: ttyS0's), -1 when there is none.
 */
enum devpm_wake_outcome devpm_wake_outcome_of(const struct devpm_sleep *s,
					      bool pm_test, long outside_irq);

struct devpm_wake_tally {
	unsigned long cycles, outcome[DEVPM_WAKE_NR];
	unsigned long produced, reported, consumed, lost;
	uint64_t last_seq;	/* the highest record sequence seen */
	char first_lost[160];	/* "POINT: why" of the first loss */
};

/*
 * Account one cycle at point (a label).  fired: events the device fired
 * (an armed one-shot that fired: 1); seqs: the sequence numbers of the
 * records read (a gap after last_seq counts as produced and not
 * consumed); reported: the growth of the device's wakeup source
 * event_count.  Returns the events lost in this cycle; the first loss is
 * described in first_lost.
 */
unsigned long devpm_wake_tally_cycle(struct devpm_wake_tally *t,
				     const char *point, unsigned long fired,
				     const uint64_t *seqs, size_t nseq,
				     unsigned long reported,
				     enum devpm_wake_outcome o);

#endif
