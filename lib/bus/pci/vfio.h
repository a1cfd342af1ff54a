/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vfio.h - vfio-pci as a runtime-PM driver for an otherwise unbound device.
 *
 * Since 6.0 vfio-pci drops its usage reference at probe and runtime-
 * suspends an idle device into D3hot; opening it through VFIO resumes it,
 * and VFIO_DEVICE_FEATURE_LOW_POWER_ENTRY/EXIT (6.1) suspend and resume it
 * while it stays open.  It needs an IOMMU group (Debian's kernels have no
 * CONFIG_VFIO_NOIOMMU): boot with intel_iommu=on (QEMU: -device
 * intel-iommu).
 *
 * Only unbound devices are taken: devpm_vfio_bind() writes driver_override
 * and drivers_probe, and journals the undo (unbind, then clear the
 * override), so the device is unbound again when the case ends, and after
 * a crash at the next `devpm restore`.  DEVPM_PCI_VFIO=0 in the
 * environment turns this off.
 */
#ifndef DEVPM_VFIO_H
#define DEVPM_VFIO_H

#include <stdbool.h>
#include <stddef.h>
#include "rpm/device.h"

#define DEVPM_VFIO_DRIVER "vfio-pci"

/*
 * May d be bound to vfio-pci?  An unbound PCI function with a PM
 * capability (pm_cap, from pci.h) that is no bridge and has an IOMMU group.
 * why gets the reason when not.
 */
bool devpm_vfio_eligible(const struct devpm_dev *d, int pm_cap, bool bridge,
			 char *why, size_t len);

/*
 * Bind d to vfio-pci (loads the module), journaled; d is re-read.  0 when
 * bound (also when it already was), -errno with devpm_error() otherwise.
 */
int devpm_vfio_bind(struct devpm_dev *d);

struct devpm_vfio;

/*
 * Open d through VFIO (group, type1 container, device fd), which resumes
 * it; loads vfio_iommu_type1.  NULL with devpm_error() on failure.
 */
struct devpm_vfio *devpm_vfio_open(const struct devpm_dev *d);

/* LOW_POWER_ENTRY (enter) or LOW_POWER_EXIT on an open device. */
int devpm_vfio_low_power(struct devpm_vfio *v, bool enter);

/* Close the device, group and container: the device may suspend. */
void devpm_vfio_close(struct devpm_vfio *v);

#endif
