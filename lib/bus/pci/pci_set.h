/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci_set.h - every PCI device with its config-space identity and
 * runtime-PM role, and the devices that take part in a case: the PCI
 * suite's set of devices.
 *
 * A device takes part when it may runtime-suspend: unbound, or bound to a
 * driver that holds no usage reference beyond control=on's.  A bound
 * device whose driver holds references while it has active children is
 * "busy": the references may be its children's (libahci takes one per
 * active ata port), so its subtree is let suspend too and it is judged
 * afterwards (pci_settle.h).  Unbound devices with a PM capability are
 * given to vfio-pci (vfio.h) in the cases that ask for it: that is the
 * runtime-D3hot path.
 */
#ifndef DEVPM_PCI_SET_H
#define DEVPM_PCI_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rpm/device.h"
#include "bus/pci/pci.h"
#include "bus/pci/pci_role.h"
#include "judge/block.h"
#include "rpm/subtree.h"
#include "trace/trace.h"

struct devpm_pci_dev {
	struct devpm_dev d;
	struct devpm_pci_info info;
	int info_r;			/* devpm_pci_info() result */
	char info_why[256];
	struct devpm_pci_role_info role;
	bool busy;			/* references held with active children */
	bool part;			/* takes part in the case */
	bool vfio;			/* given to vfio-pci by this case */
	bool no_bridge_d3;		/* a bridge pci_pm_init() denies D3 */
	char skip[384];			/* why it does not take part */
	long delay_ms;			/* longest autosuspend delay in its subtree */
	char on_status[16];		/* runtime_status right after control=on */
	uint64_t allow_us;		/* control=auto written */
	uint64_t deadline_us;		/* suspended by then */
};

struct devpm_pci_set {
	struct devpm_pci_dev *v;
	size_t n;
	struct devpm_pci *pci;
	struct devpm_trace *t;
	char trace_why[256];
	struct devpm_subtree_undo undo;	/* what subtree allows changed */
};

/*
 * Every PCI device with identity and role, parents first, and a trace of
 * them all (NULL when tracefs is unusable: waits then poll, trace_why says
 * why).  Read from /sys/bus/pci/devices: walking all of /sys/devices takes
 * seconds under TCG.  0 or -errno.
 */
int devpm_pci_set_open(struct devpm_pci_set *s);

/*
 * Put the subtrees back at once (devpm_subtree_undo); the journal restores
 * the rest, and this too if it did not happen.
 */
void devpm_pci_set_close(struct devpm_pci_set *s);

/* The device named name (a PCI address), or NULL. */
struct devpm_pci_dev *devpm_pci_set_find(struct devpm_pci_set *s,
					 const char *name);

/*
 * Role and "busy" from a fresh snapshot.  Busy: the driver holds no more
 * references than it has active children, and user space keeps one of
 * them active (control=on, the default of ata ports): then the references
 * may be the children's, so the device is judged with its subtree idle.
 */
void devpm_pci_dev_classify(struct devpm_pci_dev *p);

/* Is p's runtime_status status now? */
bool devpm_pci_dev_status_is(struct devpm_pci_dev *p, const char *status);

/*
 * A device below (or equal to) a mounted filesystem's may not be touched:
 * true with p->skip saying why (unless --allow-disk).
 */
bool devpm_pci_dev_protected(struct devpm_pci_dev *p);

/* A case's choice of devices: true, or false with why (a SKIP). */
typedef bool devpm_pci_want_fn(const struct devpm_pci_dev *p, char *why,
			       size_t len);

/*
 * Decide who takes part: unbound, capable, busy (its subtree decides),
 * and wanted by the case (want NULL: all).  vfio: give eligible unbound
 * devices to vfio-pci first.
 */
void devpm_pci_set_parts(struct devpm_pci_set *s, bool vfio,
			 devpm_pci_want_fn *want);

/* "8086:2922 ahci" in buf, which is returned. */
const char *devpm_pci_dev_label(const struct devpm_pci_dev *p, char *buf,
				size_t len);

/*
 * One block per device of s (judge/block.h), named after it: before each,
 * *at is the device's index and *dev the device, for fn to read from
 * arg.
 */
void devpm_pci_set_each(struct devpm_subtest *sub, struct devpm_pci_set *s,
			devpm_block_fn *fn, void *arg, size_t *at,
			struct devpm_pci_dev **dev);

#endif
