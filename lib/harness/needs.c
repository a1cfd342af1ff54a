// SPDX-License-Identifier: GPL-2.0-only
/*
 * needs.c - check a test program's needs before it runs (needs.h).  The
 * first unmet need is the SKIP reason.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/needs.h"
#include "core/kconfig.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "state/module_load.h"
#include "trace/trace.h"

/* "bus:driver" registered, after loading a module of that name once. */
static int check_driver(const char *need, char *why, size_t len)
{
	char bus[64], drv[128], kpath[DEVPM_PATH_MAX];
	const char *colon = strchr(need, ':');
	int r;

	if (!colon || colon == need || !colon[1] ||
	    (size_t)(colon - need) >= sizeof(bus) ||
	    strlen(colon + 1) >= sizeof(drv))
		return devpm_fail(EINVAL, "bad driver need '%s': write it as bus:driver, e.g. pci:ahci",
				  need);
	snprintf(bus, sizeof(bus), "%.*s", (int)(colon - need), need);
	snprintf(drv, sizeof(drv), "%s", colon + 1);
	if (devpm_fmt(kpath, sizeof(kpath), "/sys/bus/%s/drivers/%s", bus,
		      drv))
		return -ENAMETOOLONG;
	if (devpm_exists(kpath))
		return 0;
	r = devpm_module_load(drv, NULL);
	if (!r && devpm_exists(kpath))
		return 0;
	if (r)
		snprintf(why, len, "driver %s not available (%s)", drv,
			 devpm_error());
	else
		snprintf(why, len, "driver %s not available on bus %s", drv,
			 bus);
	return 1;
}

/* "name param=v ..." loaded now if it was not (the unload is journaled). */
static int check_module(const char *need, char *why, size_t len)
{
	char name[128];
	const char *params;
	size_t n = strcspn(need, " \t");

	if (!n || n >= sizeof(name))
		return devpm_fail(EINVAL, "bad module need '%s'", need);
	snprintf(name, sizeof(name), "%.*s", (int)n, need);
	params = need + n + strspn(need + n, " \t");
	if (!devpm_module_load(name, params))
		return 0;
	snprintf(why, len, "module %s not available: %s", name, devpm_error());
	return 1;
}

int devpm_needs_check(const struct devpm_needs *n, char *why, size_t len)
{
	const char *const *p;
	int r;

	if (!why || !len)
		return devpm_fail(EINVAL, "needs: no room for the reason");
	why[0] = '\0';
	if (n->root && !devpm_is_root()) {
		snprintf(why, len, "needs root: run as root (sudo)");
		return 1;
	}
	if (n->sleep && !devpm_allow_sleep()) {
		snprintf(why, len, "needs --allow-sleep: this test enters system sleep");
		return 1;
	}
	if (n->disk && !devpm_allow_disk()) {
		snprintf(why, len, "needs --allow-disk: this test may touch devices that hold mounted filesystems");
		return 1;
	}
	for (p = n->kconfigs; p && *p; p++) {
		r = devpm_kconfig_check(*p, why, len);
		if (r)
			return r;
	}
	for (p = n->drivers; p && *p; p++) {
		r = check_driver(*p, why, len);
		if (r)
			return r;
	}
	for (p = n->modules; p && *p; p++) {
		r = check_module(*p, why, len);
		if (r)
			return r;
	}
	for (p = n->files; p && *p; p++) {
		if (!devpm_exists(*p)) {
			snprintf(why, len, "no %s", *p);
			return 1;
		}
	}
	if (n->tracefs && !devpm_tracefs()[0]) {
		snprintf(why, len, "no tracefs: mount it (mount -t tracefs nodev /sys/kernel/tracing)");
		return 1;
	}
	return 0;
}

static void print_list(const char *key, const char *const *p)
{
	for (; p && *p; p++)
		printf("# NEEDS %s: %s\n", key, *p);
}

void devpm_needs_print(const struct devpm_needs *n)
{
	if (n->root)
		printf("# NEEDS root: yes\n");
	if (n->sleep)
		printf("# NEEDS allow-sleep: yes\n");
	if (n->disk)
		printf("# NEEDS allow-disk: yes\n");
	print_list("kconfig", n->kconfigs);
	print_list("driver", n->drivers);
	print_list("module", n->modules);
	print_list("file", n->files);
	if (n->tracefs)
		printf("# NEEDS tracefs: yes\n");
	fflush(stdout);
}
