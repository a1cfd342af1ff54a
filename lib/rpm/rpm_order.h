/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpm_order.h - the order of parent and child transitions in a trace.
 *
 * A parent (a hub, a controller) may runtime-suspend only after all its
 * children did, and a child's resume must resume the parent first
 * (rpm_resume() of the child calls rpm_resume() of the parent before its
 * own callback).  These read the completed transitions of transition.h
 * and say which promise a trace breaks.
 */
#ifndef DEVPM_RPM_ORDER_H
#define DEVPM_RPM_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include "trace/trace.h"

struct devpm_order {
	uint64_t parent_us;	/* the parent's completed transition */
	uint64_t child_us;	/* the (last) child's */
	char child[128];	/* which child */
};

/*
 * In [from_us, to_us]: the parent's last completed suspend came after the
 * last completed suspend of every child.  0 when kept, 1 when broken, or
 * -ENODATA when a transition is missing from the trace; why says which.
 */
int devpm_order_suspend(const struct devpm_event *ev, size_t n,
			const char *parent, const char *const *children,
			size_t nkids, uint64_t from_us, uint64_t to_us,
			struct devpm_order *o, char *why, size_t len);

/*
 * In [from_us, to_us]: the child's first completed resume was preceded by
 * a completed resume of the parent that began after the child's resume
 * began (the child's resume caused it).  Returns as above.
 */
int devpm_order_resume(const struct devpm_event *ev, size_t n,
		       const char *parent, const char *child, uint64_t from_us,
		       uint64_t to_us, struct devpm_order *o, char *why,
		       size_t len);

/*
 * Idle checks of dev in [from_us, to_us] that the PM core let through
 * (usage 0, no active child) and the driver's idle callback refused: the
 * rpm_idle returned -EBUSY with no rpm_suspend of dev inside it (USB's
 * idle callback asks for an autosuspend, inside the call, when
 * autosuspend_check() passes).  Returns how many; *last_us (may be NULL)
 * gets the time of the last one.
 */
int devpm_order_idle_refused(const struct devpm_event *ev, size_t n,
			     const char *dev, uint64_t from_us,
			     uint64_t to_us, uint64_t *last_us);

#endif
