/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci_role.h - what a PCI device's runtime PM can be expected to do.
 *
 * The PCI core forbids runtime PM for every device (control=on, one usage
 * reference) and local_pci_probe() takes one more reference that the
 * driver must drop to support runtime PM (KERNEL-FACTS.md §10).  So from
 * power/ a device is one of:
 *   unbound	no driver: runtime-suspends (with control=auto) but stays in D0
 *   held	bound, its driver keeps references: never runtime-suspends
 *   capable	bound, no reference beyond control=on's: can suspend
 * Without CONFIG_PM_ADVANCED_DEBUG there is no runtime_usage; then the
 * role of an active bound device is unknown until devpm_pci_role_probe()
 * reads the usage count from the rpm trace events that control=auto emits.
 */
#ifndef DEVPM_PCI_ROLE_H
#define DEVPM_PCI_ROLE_H

#include <stdbool.h>
#include <stddef.h>
#include "rpm/device.h"
#include "trace/trace.h"

enum devpm_pci_role {
	DEVPM_PCI_UNKNOWN,
	DEVPM_PCI_UNBOUND,
	DEVPM_PCI_HELD,
	DEVPM_PCI_CAPABLE,
};

struct devpm_pci_role_info {
	enum devpm_pci_role role;
	long held;		/* references beyond control=on's, -1 unknown */
	bool consistent;	/* false: power/ contradicts the PM core */
	char why[256];		/* how the role follows, or the contradiction */
};

/*
 * Classify from a snapshot (d->rpm).  Sets r->consistent = false, with
 * the contradiction in r->why, when power/ breaks an invariant of the PM
 * core: control=on with usage 0 or while suspended, runtime_status error,
 * runtime PM disabled.  Returns 0 (or -EINVAL for a non-PCI device).
 */
int devpm_pci_role(const struct devpm_dev *d, struct devpm_pci_role_info *r);

/*
 * Resolve DEVPM_PCI_UNKNOWN (no runtime_usage) from the trace: write
 * control=on, then control=auto (journaled; the caller's journal mark puts
 * control back), and read the usage count of the rpm_idle or rpm_usage
 * event that pm_runtime_allow() emits.  t must trace d.  Returns 0 with
 * r->role set, 1 when no event told (r->why says so), -errno on error.
 */
int devpm_pci_role_probe(struct devpm_dev *d, struct devpm_trace *t,
			 struct devpm_pci_role_info *r);

/*
 * Role from the usage count a trace event showed after pm_runtime_allow();
 * exposed for unit tests.
 */
void devpm_pci_role_from_count(const struct devpm_dev *d, long count,
			       struct devpm_pci_role_info *r);

const char *devpm_pci_role_name(enum devpm_pci_role role);

#endif
