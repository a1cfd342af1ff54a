/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci.h - PCI config space through libpci (pciutils): identity, class name
 * from pci.ids, the PM capability and the power state in its PMCSR.
 *
 * libpci reads the kernel's sysfs "config" file of each device (its
 * linux_sysfs method, under the sysfs root of sysfs.h), so a read here is
 * the same access as `lspci -vv`: it never resumes a device in D3hot, only
 * its parent bridge (KERNEL-FACTS.md §10, pci_config_pm_runtime_get()).
 * Capabilities lie beyond the first 64 bytes, which only root may read.
 *
 * Devices are named as in sysfs: "0000:00:1f.3".
 */
#ifndef DEVPM_PCI_H
#define DEVPM_PCI_H

#include <stdbool.h>
#include <stddef.h>

struct devpm_pci;

/* Open a libpci session on the sysfs root; NULL with devpm_error() set. */
struct devpm_pci *devpm_pci_open(void);
void devpm_pci_close(struct devpm_pci *p);

/* "0000:00:1f.3" -> numbers; -EINVAL with a message naming the input. */
int devpm_pci_parse_name(const char *name, int *domain, int *bus, int *dev,
			 int *func);

/* PMCSR power states; DEVPM_PCI_D3COLD means config reads return ~0. */
enum devpm_pci_dstate {
	DEVPM_PCI_D0 = 0,
	DEVPM_PCI_D1 = 1,
	DEVPM_PCI_D2 = 2,
	DEVPM_PCI_D3HOT = 3,
	DEVPM_PCI_D3COLD = 4,
};

struct devpm_pci_info {
	unsigned int vendor, device;
	unsigned int class_code;	/* base class << 8 | sub class */
	unsigned int prog_if;
	bool bridge;			/* header type 1 (PCI-to-PCI bridge) */
	char class_name[96];		/* "SATA controller" (or "Class 0106") */
	char name[160];			/* vendor and device from pci.ids */
	int pm_cap;			/* offset of the PM capability, 0 none */
	unsigned int pmc;		/* its PMC register (capabilities) */
	bool d3hot_pme;			/* PME# from D3hot (PMC bit 14) */
};

/*
 * Identity and PM capability of one device (class_name and name stay
 * empty).  -ENOENT when it does not exist, -EACCES when the capability list
 * cannot be read (not root), -EIO when config space reads fail.
 */
int devpm_pci_info(struct devpm_pci *p, const char *name,
		   struct devpm_pci_info *info);

/*
 * Fill info->class_name and info->name from pci.ids.  Separate because
 * libpci parses the whole file on first use (half a second under TCG).
 */
void devpm_pci_names(struct devpm_pci *p, struct devpm_pci_info *info);

/*
 * Read PMCSR fresh from the device.  Returns the D-state (enum
 * devpm_pci_dstate) and stores the raw register in *pmcsr (may be NULL);
 * -ENODEV when the device has no PM capability, other -errno on error.
 */
int devpm_pci_pmcsr(struct devpm_pci *p, const char *name,
		    unsigned int *pmcsr);

/* Read len bytes of config space from offset 0 (up to 4096). */
int devpm_pci_read_config(struct devpm_pci *p, const char *name, void *buf,
			  size_t len);

/* "D0", "D1", "D2", "D3hot", "D3cold" - as the kernel's power_state. */
const char *devpm_pci_dstate_name(int state);

/* The kernel's power_state attribute as an enum (-1 for "unknown"). */
int devpm_pci_dstate_parse(const char *s);

#endif
