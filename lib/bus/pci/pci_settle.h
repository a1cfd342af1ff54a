/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci_settle.h - letting the parts of a PCI set (pci_set.h) runtime-
 * suspend, and waiting until each has, with a bound per device.
 */
#ifndef DEVPM_PCI_SETTLE_H
#define DEVPM_PCI_SETTLE_H

#include <stdbool.h>

#include "bus/pci/pci_set.h"
#include "rpm/wait.h"

/*
 * How long past a device's autosuspend delays a case waits for it to
 * suspend (a SATA chain under TCG takes 0.1 s): a wait bound, not a
 * limit.  When the suspend came is judged by the kernel's promise
 * (rpm/autosuspend_timer.h) in idle.c's idle_devices_suspend and
 * access.c's autosuspend_delay_honoured.
 */
#define DEVPM_PCI_BOUND_MS 2000

/* A short autosuspend delay, for cases that do not measure the delay. */
#define DEVPM_PCI_SHORT_DELAY_MS 20

/* Write power/control (journaled); 0 or -errno with devpm_error() set. */
int devpm_pci_dev_control(struct devpm_pci_dev *p, const char *val);

/*
 * Let every part suspend: its subtree first, then control=auto.  active:
 * write control=on before, so that each starts active (a measured
 * suspend).  short_delay: a longer autosuspend delay of a part is made
 * DEVPM_PCI_SHORT_DELAY_MS.  A write refused (protected) makes the device
 * skip.  Sets each part's allow_us and deadline_us.
 */
void devpm_pci_set_allow(struct devpm_pci_set *s, bool active,
			 bool short_delay);

/* ms left until p's deadline, 0 when it has passed. */
int devpm_pci_dev_left_ms(const struct devpm_pci_dev *p);

/*
 * A busy device: wait for its children to suspend, then its references
 * show whether its driver holds any of its own.  0: it may suspend now,
 * 1: it does not take part (p->skip says why).
 */
int devpm_pci_dev_unbusy(struct devpm_pci_dev *p);

/*
 * Wait for p to be suspended until its deadline.  Returns 0 when it is,
 * 1 when it turned out not to take part (p->skip says why), -ETIMEDOUT
 * with w->why filled otherwise.
 */
int devpm_pci_dev_wait_suspended(struct devpm_pci_set *s,
				 struct devpm_pci_dev *p,
				 struct devpm_wait_result *w);

/* Every part suspended (those that fail to are marked: part = false). */
void devpm_pci_set_settle(struct devpm_pci_set *s);

#endif
