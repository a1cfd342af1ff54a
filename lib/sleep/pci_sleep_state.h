/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci_sleep_state.h - the D-state system sleep left each PCI device in,
 * from the kernel's own words.
 *
 * pci_pm_suspend_noirq() (drivers/pci/pci-driver.c) ends with
 * pci_dbg("PCI PM: Suspend power state: %s") of the device it just put
 * in pci_target_state() through pci_prepare_to_sleep()
 * (drivers/pci/pci.c); pci_save_state() logs every dword it saves with
 * pci_dbg("saving config space at offset ...").  devpm_pci_sleep_dbg_on()
 * turns both dynamic debug sites on for the cycles (journaled: the
 * sites' old flags are written back by the restore, also after a crash),
 * and devpm_pci_sleep_line() reads the kernel log's lines.
 *
 * The kernel's promise (pci_pm_suspend_noirq()): a device whose driver
 * has dev_pm_ops (else no line), not skipped (DPM_FLAG_SMART_SUSPEND,
 * no line either), whose driver did not save its state itself, that is
 * no bridge (skip_bus_pm: a bridge with a child in D0 stays in D0) and
 * has a PM capability the kernel uses (pci_pm_init(): version <= 3),
 * goes to pci_target_state(): the platform's choice when the platform
 * manages its power (ACPI: firmware_node/power_state; not judged), else
 * D3hot, or with wakeup enabled (power/wakeup) the deepest of D3hot..D1
 * it can signal PME# from (PMC bits 15:11), else D0 if PME# from D0,
 * else D3hot.  A save before the device's noirq callback began (its
 * "saving" lines before pm_print_times' "PM: calling
 * pci_pm_suspend_noirq+" line of it: without pm_print_times every save
 * counts as such) is the driver's own (nvme_suspend() keeps D0 by
 * choice): not judged.  A save by the driver's own suspend_noirq cannot
 * be told from the core's: such a driver that keeps D0 would fail.
 */
#ifndef DEVPM_PCI_SLEEP_STATE_H
#define DEVPM_PCI_SLEEP_STATE_H

#include <stdbool.h>
#include <stddef.h>

#define DEVPM_DYNDBG_CONTROL	"/sys/kernel/debug/dynamic_debug/control"
#define DEVPM_PCI_SLEEP_MAX	64

/* One PCI device in one cycle's kernel log. */
struct devpm_pci_sleep_seen {
	char dev[32];		/* "0000:00:02.0" */
	char driver[64];	/* as the log names it: the driver, or "pci" */
	int state;		/* at the end of suspend_noirq: 0..4, -1 none */
	bool noirq;		/* its pci_pm_suspend_noirq() began */
	bool saved_early;	/* pci_save_state() before that */
	int expect;		/* pci_target_state(), -1 not judged */
	char why_not[96];	/* why not judged (expect -1) */
};

/* One cycle's lines (devpm_pci_sleep_line() is a devpm_kmsg_drain cb). */
struct devpm_pci_sleep_log {
	struct devpm_pci_sleep_seen v[DEVPM_PCI_SLEEP_MAX];
	size_t n;
};

/*
 * Turn both sites' +p on, their old flags journaled first.  0, 1 with
 * why when the kernel has no such site (no CONFIG_DYNAMIC_DEBUG, no
 * debugfs, another kernel's lines), -1 with why (a path that fails
 * path_trust.h's rule, a write refused).
 */
int devpm_pci_sleep_dbg_on(char *why, size_t len);

/* A kernel log line into l (arg): state and save lines, others ignored. */
void devpm_pci_sleep_line(const char *line, void *arg);

/* d's entry in l, or NULL. */
const struct devpm_pci_sleep_seen *
devpm_pci_sleep_find(const struct devpm_pci_sleep_log *l, const char *dev);

/* What userspace reads of a device for pci_target_state(). */
struct devpm_pci_sleep_facts {
	int pm_cap;		/* offset, 0 none */
	unsigned int pmc;	/* its PMC register */
	bool bridge;		/* header type 1 */
	bool platform;		/* the platform manages its power */
	bool wakeup;		/* power/wakeup "enabled" */
	bool saved_early;
};

/* f's platform and wakeup, from dev's firmware node and power/wakeup. */
void devpm_pci_sleep_facts_read(const char *dev,
				struct devpm_pci_sleep_facts *f);

/*
 * The state pci_prepare_to_sleep() promises for f (0..3), or -1 with
 * why_not when the promise does not apply or cannot be decided.
 */
int devpm_pci_sleep_expect(const struct devpm_pci_sleep_facts *f,
			   char *why_not, size_t len);

/*
 * s against its expect: 1 with the failure's words when it stayed
 * shallower than promised ("left in D0 by system sleep
 * (pci_prepare_to_sleep()), expected D3hot"), else 0.
 */
int devpm_pci_sleep_judge(const struct devpm_pci_sleep_seen *s, char *why,
			  size_t len);

/* "D0" .. "D3cold", "none" for -1. */
const char *devpm_pci_sleep_state_name(int state);

#endif
