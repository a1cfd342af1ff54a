// SPDX-License-Identifier: GPL-2.0-only
/*
 * audit.c - `devpm audit [--all] [--json]` and `devpm why DEVICE`:
 * read-only; the devices with runtime PM (every device with a power/
 * directory with --all), their runtime status and, when one is not
 * suspended, every reason the kernel has to keep it so (diagnose.h).
 * Most devices of a machine (ttys, memory blocks, ACPI nodes) report
 * runtime_status "unsupported": runtime PM was never enabled for them,
 * rpm_suspend() would return -EACCES (drivers/base/power/runtime.c:
 * rpm_check_suspend_allowed), so nothing is to be learnt from them by
 * default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sysfs.h"
#include "rpm/device.h"
#include "rpm/diagnose.h"
#include "cli.h"
#include "output.h"

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static bool suspended(const struct devpm_dev *d)
{
	return d->rpm.have_status && !strcmp(d->rpm.status, "suspended");
}

/* Has runtime PM: a status other than "unsupported" (runtime.c: rpm_status_str). */
static bool has_rpm(const struct devpm_dev *d)
{
	return d->rpm.have_status && strcmp(d->rpm.status, "unsupported");
}

static int by_bus(const void *a, const void *b)
{
	const struct devpm_dev *x = a, *y = b;
	int r;

	/* Devices on no bus go last. */
	if (!x->bus[0] != !y->bus[0])
		return x->bus[0] ? -1 : 1;
	r = strcmp(x->bus, y->bus);
	return r ? r : strcmp(x->path, y->path);
}

static void diag_line(const struct devpm_dev *d, char *buf, size_t len)
{
	struct devpm_diag diag;

	memset(&diag, 0, sizeof(diag));
	buf[0] = '\0';
	if (suspended(d))
		return;
	if (devpm_diagnose(d, &diag) < 0) {
		snprintf(buf, len, "cannot diagnose: %s", devpm_error());
		return;
	}
	devpm_diag_line(&diag, buf, len);
}

static void audit_json(struct devpm_dev *v, size_t n, size_t total, bool all)
{
	struct rn_buf b = { 0 };
	struct devpm_diag diag;
	size_t i;
	int j;

	rn_buf_printf(&b, "{\"shown\": \"%s\", \"total\": %zu, \"devices\": [\n",
		      all ? "all" : "runtime_pm", total);
	for (i = 0; i < n; i++) {
		memset(&diag, 0, sizeof(diag));
		if (!suspended(&v[i]))
			devpm_diagnose(&v[i], &diag);
		rn_buf_add(&b, "  {\"path\": ");
		rn_json_escape(&b, v[i].path);
		rn_buf_add(&b, ", \"name\": ");
		rn_json_escape(&b, v[i].name);
		rn_buf_add(&b, ", \"bus\": ");
		rn_json_escape(&b, v[i].bus);
		rn_buf_add(&b, ", \"driver\": ");
		rn_json_escape(&b, v[i].driver);
		rn_buf_add(&b, ", \"status\": ");
		rn_json_escape(&b, v[i].rpm.have_status ? v[i].rpm.status : "");
		rn_buf_add(&b, ", \"control\": ");
		rn_json_escape(&b, v[i].rpm.have_control ? v[i].rpm.control :
			       "");
		rn_buf_add(&b, ",\n   \"reasons\": [");
		for (j = 0; j < diag.n && j < DEVPM_MAX_REASONS; j++) {
			rn_buf_add(&b, j ? ", {\"code\": " : "{\"code\": ");
			rn_json_escape(&b, devpm_reason_name(diag.r[j].code));
			rn_buf_add(&b, ", \"text\": ");
			rn_json_escape(&b, diag.r[j].text);
			rn_buf_add(&b, "}");
		}
		rn_buf_printf(&b, "]}%s\n", i + 1 < n ? "," : "");
	}
	rn_buf_add(&b, "]}\n");
	fputs(b.s, stdout);
	rn_buf_free(&b);
}

static void audit_text(struct devpm_dev *v, size_t n, size_t total, bool all)
{
	int wb = 3, wn = 6, wd = 6;
	size_t i, nsusp = 0;
	char why[2048];

	for (i = 0; i < n; i++)
		nsusp += suspended(&v[i]);
	if (all)
		printf("# %zu devices, %zu with runtime PM of them: %zu suspended, %zu not\n",
		       n, total, nsusp, total - nsusp);
	else
		printf("# %zu of %zu devices have runtime PM ('devpm audit --all' lists every one): %zu suspended, %zu not\n",
		       n, total, nsusp, n - nsusp);

	for (i = 0; i < n; i++) {
		wb = (int)strlen(v[i].bus) > wb ? (int)strlen(v[i].bus) : wb;
		wn = (int)strlen(v[i].name) > wn ? (int)strlen(v[i].name) : wn;
		wd = (int)strlen(v[i].driver) > wd ?
			(int)strlen(v[i].driver) : wd;
	}
	printf("%-*s  %-*s  %-*s  %-11s%s\n", wb, "BUS", wn, "DEVICE", wd,
	       "DRIVER", "STATUS", "  WHY NOT SUSPENDED");
	for (i = 0; i < n; i++) {
		diag_line(&v[i], why, sizeof(why));
		printf("%-*s  %-*s  %-*s  %-11s%s%s\n", wb, or_dash(v[i].bus),
		       wn, v[i].name, wd, or_dash(v[i].driver),
		       v[i].rpm.have_status ? v[i].rpm.status : "-",
		       why[0] ? "  " : "", why);
	}
}

int rn_cmd_audit(int argc, char **argv)
{
	struct devpm_dev *v = NULL;
	bool json = false, all = false;
	size_t n = 0, k, j, withrpm = 0;
	int i, r;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--all"))
			all = true;
		else
			return rn_usage_error("audit: unknown option '%s'; it takes --all and --json",
					      argv[i]);
	}
	r = devpm_dev_list(NULL, &v, &n);
	if (r < 0)
		return rn_usage_error("audit: cannot list devices: %s; check /sys (or --sysfs-root)",
				      devpm_error()[0] ? devpm_error() :
				      strerror(-r));
	qsort(v, n, sizeof(*v), by_bus);
	/* Without --all, the devices with runtime PM, in order. */
	for (j = 0, k = 0; j < n; j++) {
		withrpm += has_rpm(&v[j]);
		if (all || has_rpm(&v[j]))
			v[k++] = v[j];
	}
	if (json)
		audit_json(v, k, all ? n : withrpm, all);
	else
		audit_text(v, k, all ? withrpm : n, all);
	free(v);
	return RN_EXIT_OK;
}

static void field_long(const char *name, bool have, long v, const char *why)
{
	if (have)
		printf("%-22s %ld\n", name, v);
	else
		printf("%-22s unknown (%s)\n", name, why);
}

int rn_cmd_why(int argc, char **argv)
{
	static const char nodebug[] = "needs CONFIG_PM_ADVANCED_DEBUG";
	struct devpm_diag diag;
	struct devpm_dev d;
	int i, r;

	if (argc != 2 || argv[1][0] == '-')
		return rn_usage_error("why needs one DEVICE: a /sys/devices path or a name such as 0000:00:1f.2");
	memset(&d, 0, sizeof(d));
	r = devpm_dev_open(&d, argv[1]);
	if (r < 0)
		return rn_usage_error("why: %s; give a device under /sys/devices (see 'devpm audit')",
				      devpm_error()[0] ? devpm_error() :
				      strerror(-r));
	printf("%-22s %s\n", "device", d.path);
	printf("%-22s %s\n", "bus", or_dash(d.bus));
	printf("%-22s %s\n", "driver", or_dash(d.driver));
	printf("%-22s %s\n", "parent", or_dash(d.parent));
	printf("%-22s %s\n", "runtime_status",
	       d.rpm.have_status ? d.rpm.status : "-");
	printf("%-22s %s\n", "control",
	       d.rpm.have_control ? d.rpm.control : "- (no runtime PM callbacks)");
	field_long("runtime_usage", d.rpm.have_usage, d.rpm.usage, nodebug);
	field_long("runtime_active_kids", d.rpm.have_active_kids,
		   d.rpm.active_kids, nodebug);
	printf("%-22s %s\n", "runtime_enabled",
	       d.rpm.have_enabled ? d.rpm.enabled : "unknown (needs CONFIG_PM_ADVANCED_DEBUG)");
	field_long("autosuspend_delay_ms", d.rpm.have_autosuspend,
		   d.rpm.autosuspend_delay_ms, "not used by the driver");
	if (d.rpm.have_qos_latency && d.rpm.qos_latency_na)
		printf("%-22s n/a (never suspend)\n", "pm_qos_resume_latency");
	else
		field_long("pm_qos_resume_latency", d.rpm.have_qos_latency,
			   d.rpm.qos_latency_us, "not exposed");
	printf("%-22s %s\n", "wakeup", !d.wakeup.capable ? "not capable" :
	       d.wakeup.enabled ? "enabled" : "disabled");
	if (suspended(&d)) {
		printf("suspended: nothing keeps it active\n");
		return RN_EXIT_OK;
	}
	memset(&diag, 0, sizeof(diag));
	if (devpm_diagnose(&d, &diag) < 0)
		return rn_usage_error("why: cannot diagnose %s: %s", d.path,
				      devpm_error());
	printf("not suspended because:\n");
	for (i = 0; i < diag.n && i < DEVPM_MAX_REASONS; i++)
		printf("  - %s: %s\n", devpm_reason_name(diag.r[i].code),
		       diag.r[i].text);
	if (!diag.n)
		printf("  - no reason found (status %s)\n",
		       d.rpm.have_status ? d.rpm.status : "unknown");
	return RN_EXIT_OK;
}
