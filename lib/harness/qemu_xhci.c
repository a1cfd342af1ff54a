// SPDX-License-Identifier: GPL-2.0-only
/*
 * qemu_xhci.c - unbinding QEMU's xHCI for mock cases (qemu_xhci.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/qemu_xhci.h"
#include "core/note.h"
#include "core/poll.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "judge/baseline.h"
#include "rpm/device.h"
#include "state/journal.h"

static long usb_before;		/* usb devices before this process unbound */

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

/*
 * A port whose hub goes away under it runtime-suspends and fails with
 * -EINVAL (port.c: usb_port_runtime_suspend(), no hub), which the verdict
 * would blame on the case; seen on 1-3-port1 under 6.12.
 */
int devpm_qemu_xhci_hold_ports(const char *ctl)
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
 * Unbind every xhci_hcd device of the PCI list d but those with a mounted
 * disk below (its ports held on, its bind journaled first) and, when
 * rebind, bind it again at once.  Frees d.  The number done, or -errno.
 */
static int xhci_each(struct devpm_dev *d, size_t n, bool rebind,
		     const char *keep_var)
{
	long before = devpm_usb_dev_count();
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
		r = devpm_qemu_xhci_hold_ports(d[i].path);
		if (!r)
			r = devpm_journal_undo_write(DEVPM_XHCI_DRIVER "/bind",
						     d[i].name);
		if (!r)
			r = devpm_write_str(DEVPM_XHCI_DRIVER "/unbind",
					    d[i].name);
		if (!r && rebind)
			r = devpm_write_str(DEVPM_XHCI_DRIVER "/bind",
					    d[i].name);
		if (r)
			break;
		done++;
		if (rebind)
			devpm_note("QEMU: %s (xhci_hcd) unbound and bound again",
				   d[i].name);
		else
			devpm_note("QEMU: %s (xhci_hcd) unbound for this case (its reset-resume costs ~1.5 s a cycle; %s=1 keeps it)",
				   d[i].name, keep_var ? keep_var : "-");
	}
	free(d);
	if (done && before > usb_before)
		usb_before = before;
	return r ? r : done;
}

int devpm_qemu_xhci_unbind(bool in_qemu, const char *keep_var)
{
	const char *keep = keep_var ? getenv(keep_var) : NULL;
	struct devpm_dev *d = NULL;
	size_t n;

	if (!in_qemu || (keep && !strcmp(keep, "1")) ||
	    devpm_dev_list("pci", &d, &n))
		return 0;
	return xhci_each(d, n, false, keep_var);
}

int devpm_qemu_xhci_reset(bool in_qemu)
{
	struct devpm_dev *d = NULL;
	size_t n;
	int r;

	if (!in_qemu)
		return devpm_fail(EOPNOTSUPP, "an xHCI rebind is for devpm's QEMU image only");
	r = devpm_dev_list("pci", &d, &n);
	return r ? r : xhci_each(d, n, true, NULL);
}

/* The usb devices of the run's baseline below ctl are all back. */
static bool baseline_back(void *arg)
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

int devpm_qemu_xhci_bind_case(bool in_qemu, int timeout_ms)
{
	struct devpm_dev *d = NULL;
	size_t n, i;
	int r = 0, done = 0;

	if (!in_qemu || devpm_dev_list("pci", &d, &n))
		return 0;
	for (i = 0; i < n && !r; i++) {
		if (!unbound_since_baseline(&d[i]))
			continue;
		r = devpm_write_str(DEVPM_XHCI_DRIVER "/bind", d[i].name);
		if (!r && !devpm_poll_until(baseline_back, d[i].path,
					    timeout_ms))
			r = devpm_fail(ETIMEDOUT, "%s (xhci_hcd) bound, its usb devices not all back after %d ms",
				       d[i].name, timeout_ms);
		if (!r)
			r = devpm_qemu_xhci_hold_ports(d[i].path);
		if (!r)
			r = devpm_journal_undo_write(DEVPM_XHCI_DRIVER "/unbind",
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

long devpm_usb_dev_count(void)
{
	struct devpm_dev *d = NULL;
	size_t n = 0;
	int r = devpm_dev_list("usb", &d, &n);

	free(d);
	return r ? r : (long)n;
}

struct usb_want {
	long want, seen;
};

static bool usb_back(void *arg)
{
	struct usb_want *w = arg;

	w->seen = devpm_usb_dev_count();
	return w->seen >= w->want;
}

int devpm_qemu_xhci_settle(int timeout_ms)
{
	struct usb_want w = { .want = usb_before, .seen = -1 };

	if (usb_before <= 0)
		return 0;
	usb_before = 0;
	if (devpm_poll_until(usb_back, &w, timeout_ms))
		return 0;
	return devpm_fail(ETIMEDOUT, "%ld usb devices %d ms after the xHCI bind, want %ld",
			  w.seen, timeout_ms, w.want);
}
