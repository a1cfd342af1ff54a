// SPDX-License-Identifier: GPL-2.0-only
/*
 * pci_role.c - a PCI device's runtime-PM role from power/ (pci_role.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bus/pci/pci_role.h"
#include "core/clock.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "state/journal.h"
#include "trace/trace.h"

static const char *const role_names[] = {
	[DEVPM_PCI_UNKNOWN] = "unknown",
	[DEVPM_PCI_UNBOUND] = "unbound",
	[DEVPM_PCI_HELD] = "driver-without-runtime-PM",
	[DEVPM_PCI_CAPABLE] = "runtime-PM-capable",
};

const char *devpm_pci_role_name(enum devpm_pci_role role)
{
	if ((unsigned int)role >= sizeof(role_names) / sizeof(role_names[0]))
		return "?";
	return role_names[role];
}

static void contradiction(struct devpm_pci_role_info *r, const char *what)
{
	if (!r->consistent)
		return;		/* the first one is the one to fix */
	r->consistent = false;
	snprintf(r->why, sizeof(r->why), "%s", what);
}

/* The role, and why unless a contradiction already fills r->why. */
static void set_role(struct devpm_pci_role_info *r, enum devpm_pci_role role,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_role(struct devpm_pci_role_info *r, enum devpm_pci_role role,
		     const char *fmt, ...)
{
	va_list ap;

	r->role = role;
	if (!r->consistent)
		return;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

/* Role once the number of references beyond control=on's is known. */
static void role_from_held(const struct devpm_dev *d, struct devpm_pci_role_info *r)
{
	if (!d->driver[0])
		set_role(r, DEVPM_PCI_UNBOUND,
			 "no driver: suspends with control=auto and stays in D0");
	else if (r->held == 0)
		set_role(r, DEVPM_PCI_CAPABLE,
			 "driver %s released the probe's usage reference",
			 d->driver);
	else if (r->held == 1)
		set_role(r, DEVPM_PCI_HELD,
			 "driver %s keeps the usage reference local_pci_probe() took",
			 d->driver);
	else
		set_role(r, DEVPM_PCI_HELD,
			 "driver %s holds %ld usage references beyond control=on's",
			 d->driver, r->held);
}

int devpm_pci_role(const struct devpm_dev *d, struct devpm_pci_role_info *r)
{
	const struct devpm_rpm *p = &d->rpm;
	bool on = p->have_control && !strcmp(p->control, "on");
	bool suspended = p->have_status && !strcmp(p->status, "suspended");

	memset(r, 0, sizeof(*r));
	r->held = -1;
	r->consistent = true;
	if (strcmp(d->bus, "pci"))
		return devpm_fail(EINVAL, "%s is not a PCI device (bus '%s')",
				  d->name, d->bus);

	if (!p->have_control)
		contradiction(r, "no power/control: the PCI bus gives every device runtime PM callbacks");
	if (p->have_status && !strcmp(p->status, "error"))
		contradiction(r, "runtime_status error: a runtime PM callback failed and runtime_error stays set");
	if ((p->have_status && !strcmp(p->status, "unsupported")) ||
	    (p->have_enabled && strstr(p->enabled, "disabled")))
		contradiction(r, "runtime PM disabled: pci_pm_init() enables it for every device");
	if (on && suspended)
		contradiction(r, "control=on but runtime_status suspended: pm_runtime_forbid() resumes the device synchronously");
	if (p->have_usage) {
		if (on && p->usage < 1)
			contradiction(r, "control=on but runtime_usage 0: pm_runtime_forbid() holds a usage reference");
		r->held = p->usage - (on ? 1 : 0);
		if (r->held < 0) {
			contradiction(r, "runtime_usage negative");
			r->held = 0;
		}
		role_from_held(d, r);
		return 0;
	}

	/* No runtime_usage: only what the status proves. */
	if (!d->driver[0]) {
		set_role(r, DEVPM_PCI_UNBOUND,
			 "no driver: suspends with control=auto and stays in D0");
	} else if (suspended) {
		r->held = 0;
		set_role(r, DEVPM_PCI_CAPABLE,
			 "suspended with driver %s bound: it holds no usage reference",
			 d->driver);
	} else {
		set_role(r, DEVPM_PCI_UNKNOWN,
			 "no runtime_usage (kernel lacks CONFIG_PM_ADVANCED_DEBUG): whether driver %s holds a usage reference shows only in the trace",
			 d->driver);
	}
	return 0;
}

void devpm_pci_role_from_count(const struct devpm_dev *d, long count,
			       struct devpm_pci_role_info *r)
{
	r->held = count < 0 ? 0 : count;
	role_from_held(d, r);
}

/* First rpm_idle/rpm_usage event of dev at or after since: its count. */
static bool allow_event(struct devpm_trace *t, const char *dev,
			uint64_t since, long *count)
{
	const struct devpm_event *ev;
	size_t n, i;

	ev = devpm_trace_events(t, &n);
	for (i = 0; i < n; i++) {
		if (ev[i].ts_us < since || strcmp(ev[i].dev, dev))
			continue;
		if (ev[i].type == DEVPM_EV_RPM_IDLE ||
		    ev[i].type == DEVPM_EV_RPM_USAGE) {
			*count = ev[i].usage;
			return true;
		}
	}
	return false;
}

int devpm_pci_role_probe(struct devpm_dev *d, struct devpm_trace *t,
			 struct devpm_pci_role_info *r)
{
	char ctl[DEVPM_PATH_MAX];
	uint64_t since, end;
	long count;
	int ret;

	if (!t)
		return devpm_fail(EINVAL, "%s: role probe needs a trace",
				  d->name);
	ret = devpm_dev_attr(d, "control", ctl, sizeof(ctl));
	if (ret < 0)
		return ret;
	ret = devpm_knob_write(ctl, "on");
	if (ret < 0)
		return ret;
	devpm_trace_poll(t, 0);
	since = devpm_now_us();
	ret = devpm_knob_write(ctl, "auto");
	if (ret < 0)
		return ret;
	end = since + 500 * 1000;
	while (!allow_event(t, d->name, since, &count)) {
		uint64_t now = devpm_now_us();

		if (now >= end) {
			snprintf(r->why, sizeof(r->why),
				 "control=auto gave no rpm_idle/rpm_usage event within 500 ms: role unknown");
			return 1;
		}
		devpm_trace_poll(t, (int)((end - now) / 1000) + 1);
	}
	devpm_pci_role_from_count(d, count, r);
	return 0;
}
