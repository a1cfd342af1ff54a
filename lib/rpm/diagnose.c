// SPDX-License-Identifier: GPL-2.0-only
/*
 * diagnose.c - why a device is not runtime-suspended (diagnose.h).
 *
 * The reasons mirror rpm_check_suspend_allowed() and rpm_suspend() in
 * drivers/base/power/runtime.c: a usage count, active children, a resume
 * latency request of 0, runtime PM disabled or in error.  control=on and
 * a negative autosuspend delay each hold one usage reference, so they are
 * subtracted before the rest of runtime_usage is blamed on someone else.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpm/diagnose.h"
#include "core/sysfs.h"
#include "rpm/device.h"

static const char *const reason_names[] = {
	[DEVPM_R_SUSPENDED]		= "suspended",
	[DEVPM_R_CONTROL_ON]		= "control_on",
	[DEVPM_R_USAGE_HELD]		= "usage_held",
	[DEVPM_R_PROBE_USAGE]		= "probe_usage",
	[DEVPM_R_ACTIVE_CHILDREN]	= "active_children",
	[DEVPM_R_QOS_NO_SUSPEND]	= "qos_no_suspend",
	[DEVPM_R_DISABLED]		= "disabled",
	[DEVPM_R_ERROR]			= "error",
	[DEVPM_R_NO_DRIVER]		= "no_driver",
	[DEVPM_R_NO_CALLBACKS]		= "no_callbacks",
	[DEVPM_R_AUTOSUSPEND_PENDING]	= "autosuspend_pending",
	[DEVPM_R_AUTOSUSPEND_NEGATIVE]	= "autosuspend_negative",
	[DEVPM_R_UNKNOWN]		= "unknown",
};

const char *devpm_reason_name(enum devpm_reason_code code)
{
	if ((unsigned int)code >= sizeof(reason_names) / sizeof(reason_names[0]))
		return "invalid";
	return reason_names[code];
}

static void add(struct devpm_diag *g, enum devpm_reason_code code,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add(struct devpm_diag *g, enum devpm_reason_code code,
		const char *fmt, ...)
{
	struct devpm_reason *r;
	va_list ap;

	if (g->n >= DEVPM_MAX_REASONS)
		return;
	r = &g->r[g->n++];
	r->code = code;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
}

/* Is the device's subsystem a bus (as opposed to a class)? */
static bool on_a_bus(const struct devpm_dev *d)
{
	char p[DEVPM_PATH_MAX], real[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	if (devpm_fmt(p, sizeof(p), "%s/subsystem", d->path) < 0 ||
	    devpm_real_path(real, sizeof(real), p) < 0)
		return false;
	n = readlink(real, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return strstr(target, "/bus/") != NULL;
}

static bool has_power_dir(const struct devpm_dev *d)
{
	char p[DEVPM_PATH_MAX];

	return !devpm_fmt(p, sizeof(p), "%s/power", d->path) &&
	       devpm_exists(p);
}

static bool counts_as_active(const char *status)
{
	return !strcmp(status, "active") || !strcmp(status, "resuming") ||
	       !strcmp(status, "suspending");
}

/* Names of the children whose status counts them active; returns count. */
static long active_children(const struct devpm_dev *d, char *buf, size_t len)
{
	struct devpm_dev *kids;
	size_t n, i, used = 0;
	long found = 0;

	buf[0] = '\0';
	if (devpm_dev_children(d, &kids, &n) < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!kids[i].rpm.have_status ||
		    !counts_as_active(kids[i].rpm.status))
			continue;
		if (used < len)
			used += snprintf(buf + used, len - used, "%s%s",
					 found ? ", " : "", kids[i].name);
		found++;
	}
	free(kids);
	return found;
}

static bool pci_bound(const struct devpm_dev *d)
{
	return !strcmp(d->bus, "pci") && d->driver[0];
}

/*
 * PCI drivers that release local_pci_probe()'s usage reference in their
 * probe on every device (6.1), and what takes references later: their
 * usage is not the probe's.  Drivers not listed are assumed to keep it.
 */
static const struct {
	const char *driver;
	const char *holder;
} pci_probe_releasers[] = {
	/* ahci.c:ahci_init_one():2052; libahci.c:ahci_port_resume():2350 */
	{ "ahci", "ahci_port_resume() holds one per ata port not suspended" },
	/* i2c-i801.c:i801_probe():1781, i801_access():800, :1596 */
	{ "i801_smbus", "i801_access() holds one per transfer, i801_acpi_io_handler() one for good" },
};

/* What holds usage on a bound PCI device whose driver released probe's. */
static const char *pci_usage_holder(const struct devpm_dev *d)
{
	size_t i;

	if (!pci_bound(d))
		return NULL;
	for (i = 0; i < sizeof(pci_probe_releasers) /
		    sizeof(pci_probe_releasers[0]); i++)
		if (!strcmp(d->driver, pci_probe_releasers[i].driver))
			return pci_probe_releasers[i].holder;
	return NULL;
}

static void diagnose_usage(const struct devpm_dev *d, struct devpm_diag *g,
			   bool on, bool neg)
{
	const struct devpm_rpm *r = &d->rpm;
	long u = r->usage - on - neg;
	const char *holder = pci_usage_holder(d);
	bool probe = pci_bound(d) && !holder;
	char parts[96] = "";

	if (u <= 0)
		return;
	if (on || neg || probe)
		snprintf(parts, sizeof(parts), " (runtime_usage=%ld:%s%s%s)",
			 r->usage, on ? " 1 control=on," : "",
			 neg ? " 1 delay -1," : "", probe ? " 1 probe," : "");
	/* Drop the last comma inside the parentheses. */
	if (parts[0])
		memmove(strrchr(parts, ','), ")", 2);
	if (probe) {
		add(g, DEVPM_R_PROBE_USAGE,
		    "usage 1 held since probe: driver %s does not support runtime PM on this device (pci local_pci_probe keeps the reference)",
		    d->driver);
		if (u > 1)
			add(g, DEVPM_R_USAGE_HELD,
			    "usage %ld more held by pm_runtime_get() callers%s",
			    u - 1, parts);
		return;
	}
	if (holder) {
		add(g, DEVPM_R_USAGE_HELD,
		    "usage %ld held by driver %s or kernel%s: %s released local_pci_probe's reference, %s",
		    u, d->driver, parts, d->driver, holder);
		return;
	}
	add(g, DEVPM_R_USAGE_HELD,
	    "usage %ld held by pm_runtime_get() callers, driver or kernel%s",
	    u, parts);
}

static void diagnose_children(const struct devpm_dev *d,
			      struct devpm_diag *g)
{
	const struct devpm_rpm *r = &d->rpm;
	char names[160];
	long seen;

	if (r->have_active_kids && r->active_kids <= 0)
		return;
	seen = active_children(d, names, sizeof(names));
	if (!r->have_active_kids) {
		/* Without the count, children only hint: it may ignore them. */
		if (seen)
			add(g, DEVPM_R_ACTIVE_CHILDREN,
			    "active children keep it active unless it ignores them: %s",
			    names);
		return;
	}
	if (seen >= r->active_kids)
		add(g, DEVPM_R_ACTIVE_CHILDREN, "%ld active %s: %s",
		    r->active_kids, r->active_kids == 1 ? "child" : "children",
		    names);
	else if (seen)
		add(g, DEVPM_R_ACTIVE_CHILDREN,
		    "%ld active children: %s and %ld whose runtime PM is disabled",
		    r->active_kids, names, r->active_kids - seen);
	else
		add(g, DEVPM_R_ACTIVE_CHILDREN,
		    "%ld active %s, none visible: children with runtime PM disabled count while set active",
		    r->active_kids, r->active_kids == 1 ? "child" : "children");
}

static void diagnose_disabled(const struct devpm_dev *d,
			      struct devpm_diag *g)
{
	const struct devpm_rpm *r = &d->rpm;

	if (r->have_enabled)
		add(g, DEVPM_R_DISABLED,
		    "runtime PM disabled (runtime_status=unsupported, runtime_enabled=%s)",
		    r->enabled);
	else
		add(g, DEVPM_R_DISABLED,
		    "runtime PM disabled (runtime_status=unsupported)");
	/* Only where the kernel says what an unbound device gets. */
	if (d->driver[0] || !on_a_bus(d))
		return;
	if (!strcmp(d->bus, "usb") && strchr(d->name, ':'))
		add(g, DEVPM_R_NO_DRIVER,
		    "no driver: usb disables runtime PM of an unbound interface (it does not hold its device)");
	else if (!strcmp(d->bus, "platform") || !strcmp(d->bus, "i2c"))
		add(g, DEVPM_R_NO_DRIVER,
		    "no driver bound: on the %s bus only a driver's probe enables runtime PM",
		    d->bus);
}

/* Status absent: say what that means on this kernel. */
static int diagnose_no_status(const struct devpm_dev *d,
			      struct devpm_diag *g)
{
	if (!has_power_dir(d))
		add(g, DEVPM_R_DISABLED,
		    "no power/ directory: the device takes no part in PM (device_pm_not_required)");
	else if (!d->rpm.have_control)
		add(g, DEVPM_R_NO_CALLBACKS,
		    "no control file: runtime PM without callbacks (pm_runtime_no_callbacks); its status cannot be read without CONFIG_PM_ADVANCED_DEBUG");
	else
		add(g, DEVPM_R_UNKNOWN,
		    "no power/runtime_status file: the status cannot be read");
	return g->n;
}

int devpm_diagnose(const struct devpm_dev *d, struct devpm_diag *g)
{
	const struct devpm_rpm *r = &d->rpm;
	bool on, neg, known = false, off = false;

	memset(g, 0, sizeof(*g));
	if (!r->have_status)
		return diagnose_no_status(d, g);
	if (!strcmp(r->status, "suspended"))
		return 0;
	if (!strcmp(r->status, "suspending")) {
		add(g, DEVPM_R_UNKNOWN,
		    "runtime_status=suspending: a suspend is in progress");
		return g->n;
	}

	if (!strcmp(r->status, "error")) {
		add(g, DEVPM_R_ERROR,
		    "runtime_status=error: a runtime PM callback failed; runtime PM stays off until the status is set again (e.g. rebind the driver)");
		off = true;
	} else if (!strcmp(r->status, "unsupported")) {
		diagnose_disabled(d, g);
		off = true;
	}

	on = r->have_control && !strcmp(r->control, "on");
	neg = r->have_autosuspend && r->autosuspend_delay_ms < 0;
	if (on)
		add(g, DEVPM_R_CONTROL_ON,
		    "control=on: user space forbids runtime PM (write auto to allow)");
	if (r->have_usage)
		diagnose_usage(d, g, on, neg);
	if (r->have_active_kids || !off)
		diagnose_children(d, g);
	if (r->have_qos_latency && r->qos_latency_na)
		add(g, DEVPM_R_QOS_NO_SUSPEND,
		    "resume latency limit 0 (n/a): suspend is never allowed");
	if (neg)
		add(g, DEVPM_R_AUTOSUSPEND_NEGATIVE,
		    "autosuspend_delay_ms=%ld: never autosuspends%s (write a delay >= 0 to allow)",
		    r->autosuspend_delay_ms,
		    !strcmp(d->driver, "sd") ? " (sd default)" : "");
	/*
	 * Without callbacks runtime PM is allowed unless something forbade
	 * it: only then (or when runtime_enabled cannot be read) is the
	 * missing control file a reason, since user space cannot undo it.
	 */
	if (!r->have_control && !off &&
	    (!r->have_enabled || strstr(r->enabled, "forbidden")))
		add(g, DEVPM_R_NO_CALLBACKS,
		    "no control file: runtime PM without callbacks (pm_runtime_no_callbacks), user space cannot allow it");
	known = g->n > 0;

	if (!off && (!r->have_usage || !r->have_active_kids))
		add(g, DEVPM_R_UNKNOWN,
		    "usage count and active children cannot be read: kernel lacks CONFIG_PM_ADVANCED_DEBUG%s%s%s",
		    pci_bound(d) ? " (driver " : "", pci_bound(d) ? d->driver : "",
		    pci_bound(d) ? " keeps local_pci_probe's usage reference unless it supports runtime PM)" : "");
	if (!off && !known && r->have_autosuspend &&
	    r->autosuspend_delay_ms > 0)
		add(g, DEVPM_R_AUTOSUSPEND_PENDING,
		    "may still be within its autosuspend delay of %ld ms",
		    r->autosuspend_delay_ms);
	if (!g->n)
		add(g, DEVPM_R_UNKNOWN,
		    "nothing in sysfs holds it: its runtime_idle or runtime_suspend callback may refuse (-EBUSY/-EAGAIN), or no idle check ran since the last change (trace rpm_suspend/rpm_return_int)");
	return g->n;
}

void devpm_diag_line(const struct devpm_diag *diag, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < diag->n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s",
				 i ? "; " : "", diag->r[i].text);
}
