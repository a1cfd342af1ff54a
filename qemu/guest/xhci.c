// SPDX-License-Identifier: GPL-2.0-only
/*
 * xhci.c - QEMU's xHCI set aside and brought back (xhci.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/note.h"
#include "core/poll.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "judge/baseline.h"
#include "rpm/device.h"
#include "state/journal.h"
#include "xhci.h"

/*
 * A hub port's device name: "usbN-portM" below a root hub, "1-3-portM"
 * below a hub on port 3 (drivers/usb/core/port.c: usb_hub_create_port_device()).
 */
static bool port_name(const char *name)
{
	const char *p = strstr(name, "-port");
	char c;
	int m;

	return p && sscanf(p, "-port%d%c", &m, &c) == 1;
}

/* Hold the ports of one hub interface (its "...-portM" children). */
static int hold_hub_ports(const char *intf)
{
	char real[DEVPM_PATH_MAX], p[DEVPM_PATH_MAX];
	struct dirent *e;
	DIR *dir;
	int r = 0;

	if (devpm_real_path(real, sizeof(real), intf))
		return 0;
	dir = opendir(real);
	if (!dir)
		return 0;	/* went away */
	while (!r && (e = readdir(dir))) {
		if (!port_name(e->d_name))
			continue;
		r = devpm_fmt(p, sizeof(p), "%s/%s/power/control", intf,
			      e->d_name);
		if (!r)
			r = devpm_knob_write(p, "on");
	}
	closedir(dir);
	return r;
}

int xhci_hold_ports(const char *ctl)
{
	struct devpm_dev *u = NULL;
	size_t n, i, len = strlen(ctl);
	int r = 0;

	if (devpm_dev_list("usb", &u, &n))
		return 0;
	for (i = 0; i < n && !r; i++)
		if (!strncmp(u[i].path, ctl, len) && u[i].path[len] == '/' &&
		    strchr(u[i].name, ':'))	/* an interface: maybe a hub's */
			r = hold_hub_ports(u[i].path);
	free(u);
	return r;
}

/*
 * Unbind and bind again every xhci_hcd device of the PCI list d but those
 * with a mounted disk below (its ports held on, its bind journaled
 * first).  Frees d.  The number done, or -errno.
 */
static int xhci_rebind(struct devpm_dev *d, size_t n)
{
	char why[256];
	size_t i;
	int r = 0, done = 0;

	for (i = 0; i < n && !r; i++) {
		if (strcmp(d[i].driver, "xhci_hcd"))
			continue;
		if (devpm_dev_protected(d[i].path, why, sizeof(why))) {
			devpm_note("%s stays bound: %s", d[i].name, why);
			continue;
		}
		r = xhci_hold_ports(d[i].path);
		if (!r)
			r = devpm_journal_undo_write(XHCI_DRIVER "/bind",
						     d[i].name);
		if (!r)
			r = devpm_write_str(XHCI_DRIVER "/unbind",
					    d[i].name);
		if (!r)
			r = devpm_write_str(XHCI_DRIVER "/bind",
					    d[i].name);
		if (r)
			break;
		done++;
		devpm_note("QEMU: %s (xhci_hcd) unbound and bound again",
			   d[i].name);
	}
	free(d);
	return r ? r : done;
}

int xhci_reset(void)
{
	struct devpm_dev *d = NULL;
	size_t n;
	int r;

	r = devpm_dev_list("pci", &d, &n);
	return r ? r : xhci_rebind(d, n);
}

bool xhci_baseline_back(void *arg)
{
	const struct devpm_baseline *b = devpm_baseline();
	const char *ctl = arg;
	size_t i, len = strlen(ctl);

	for (i = 0; b && i < b->n; i++)
		if (!strcmp(b->v[i].bus, "usb") &&
		    !strncmp(b->v[i].path, ctl, len) &&
		    b->v[i].path[len] == '/' && !devpm_exists(b->v[i].path))
			return false;
	return true;
}

/* Bound to xhci_hcd when the run began, and to nothing now. */
static bool unbound_since_baseline(const struct devpm_dev *d)
{
	const struct devpm_baseline *b = devpm_baseline();
	const struct devpm_base_dev *at = b ? devpm_baseline_find(b, d->path) :
					      NULL;

	return !d->driver[0] && at && !strcmp(at->driver, "xhci_hcd");
}

int xhci_bind_case(int timeout_ms)
{
	struct devpm_dev *d = NULL;
	size_t n, i;
	int r = 0, done = 0;

	if (devpm_dev_list("pci", &d, &n))
		return 0;
	for (i = 0; i < n && !r; i++) {
		if (!unbound_since_baseline(&d[i]))
			continue;
		r = devpm_write_str(XHCI_DRIVER "/bind", d[i].name);
		if (!r && !devpm_poll_until(xhci_baseline_back, d[i].path,
					    timeout_ms))
			r = devpm_fail(ETIMEDOUT, "%s (xhci_hcd) bound, its usb devices not all back after %d ms",
				       d[i].name, timeout_ms);
		if (!r)
			r = xhci_hold_ports(d[i].path);
		if (!r)
			r = devpm_journal_undo_write(XHCI_DRIVER "/unbind",
						     d[i].name);
		if (r)
			break;
		done++;
		devpm_note("QEMU: %s (xhci_hcd) bound for this case, its usb devices back; unbound again at its end",
			   d[i].name);
	}
	free(d);
	return r ? r : done;
}

int xhci_qemu_count(void)
{
	char p[DEVPM_PATH_MAX], v[16], d[16];
	struct dirent *e;
	DIR *dir = opendir("/sys/bus/pci/devices");
	int n = 0;

	if (!dir)
		return 0;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/vendor",
			 e->d_name);
		if (devpm_read_str(p, v, sizeof(v)) < 0)
			continue;
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/device",
			 e->d_name);
		if (devpm_read_str(p, d, sizeof(d)) < 0)
			continue;
		n += !strcmp(v, "0x1b36") && !strcmp(d, "0x000d");
	}
	closedir(dir);
	return n;
}
