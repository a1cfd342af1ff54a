// SPDX-License-Identifier: GPL-2.0-only
/*
 * wake_account.c - accounting of injected wakeup events (wake_account.h).
 */
#include <stdio.h>
#include <string.h>

#include "sleep/wake_account.h"
#include "sleep/system_sleep.h"

static const char *const names[DEVPM_WAKE_NR] = {
	[DEVPM_WAKE_ABORTED] = "aborted",
	[DEVPM_WAKE_WOKE] = "woke",
	[DEVPM_WAKE_SLEPT] = "slept",
};

const char *devpm_wake_outcome_name(enum devpm_wake_outcome o)
{
	return o < DEVPM_WAKE_NR ? names[o] : "?";
}

enum devpm_wake_outcome devpm_wake_outcome_of(const struct devpm_sleep *s,
					      bool pm_test, long outside_irq)
{
	if (devpm_sleep_failed(s))
		return DEVPM_WAKE_ABORTED;
	if (pm_test)
		return DEVPM_WAKE_SLEPT;
	if (outside_irq >= 0 && s->wake_irq == outside_irq)
		return DEVPM_WAKE_SLEPT;
	return DEVPM_WAKE_WOKE;
}

unsigned long devpm_wake_tally_cycle(struct devpm_wake_tally *t,
				     const char *point, unsigned long fired,
				     const uint64_t *seqs, size_t nseq,
				     unsigned long reported,
				     enum devpm_wake_outcome o)
{
	unsigned long produced = fired, unreported = 0, unread = 0, lost;
	uint64_t top = t->last_seq;
	size_t i;

	for (i = 0; i < nseq; i++)
		if (seqs[i] > top)
			top = seqs[i];
	/* Records numbered past the last seen were produced. */
	if (top - t->last_seq > produced)
		produced = top - t->last_seq;
	t->last_seq = top;
	if (produced > reported)
		unreported = produced - reported;
	if (produced > nseq)
		unread = produced - nseq;
	lost = unreported > unread ? unreported : unread;
	t->cycles++;
	if (o < DEVPM_WAKE_NR)
		t->outcome[o]++;
	t->produced += produced;
	t->reported += reported;
	t->consumed += nseq;
	if (lost && !t->lost)
		snprintf(t->first_lost, sizeof(t->first_lost),
			 "%s: %lu produced, %lu not reported to the PM core, %lu not read by user space",
			 point, produced, unreported, unread);
	t->lost += lost;
	return lost;
}
