// SPDX-License-Identifier: GPL-2.0-only
/* needs_met.c - a need against this host, read-only (needs_met.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/kconfig.h"
#include "core/module.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "needs_met.h"
#include "util.h"

const char *rn_met_name(enum rn_met m)
{
	static const char *const names[] = {
		[RN_MET_YES] = "met", [RN_MET_NO] = "NOT MET",
		[RN_MET_OPTIN] = "opt-in", [RN_MET_UNKNOWN] = "unknown",
		[RN_MET_INFO] = "",
	};

	return names[m];
}

/* modules.dep or modules.builtin of the running kernel names it. */
static enum rn_met module_available(const char *name, char *why, size_t len)
{
	static const char *const lists[] = { "modules.dep", "modules.builtin" };
	char path[300], want[128], *text, *p, *q;
	struct utsname u;
	size_t i;

	if (devpm_module_loaded(name)) {
		snprintf(why, len, "module %s is loaded", name);
		return RN_MET_YES;
	}
	if (devpm_sysfs_root()[0] || uname(&u) < 0) {
		snprintf(why, len, "module %s: not loaded; its availability is not known with a recorded tree",
			 name);
		return RN_MET_UNKNOWN;
	}
	/* File names say '-' or '_' as they please: compare with '_'. */
	snprintf(want, sizeof(want), "/%s.ko", name);
	for (p = want; *p; p++)
		if (*p == '-')
			*p = '_';
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		snprintf(path, sizeof(path), "/lib/modules/%s/%s", u.release,
			 lists[i]);
		text = rn_read_file(path, NULL);
		if (!text)
			continue;
		for (p = text; *p; p++)
			if (*p == '-')
				*p = '_';
		for (p = strstr(text, want); p; p = strstr(p + 1, want)) {
			q = p + strlen(want);
			/* .ko, .ko.xz, .ko.zst at the end of the name */
			if (*q == ':' || *q == '\n' || *q == '.' || !*q)
				break;
		}
		free(text);
		if (p) {
			snprintf(why, len, "module %s %s", name, i ?
				 "is built in" : "will be loaded");
			return RN_MET_YES;
		}
	}
	snprintf(why, len, "no module %s for %s", name, u.release);
	return RN_MET_NO;
}

static enum rn_met kconfig(const char *need, char *why, size_t len)
{
	char opt[128], val[256];
	const char *eq = strchr(need, '=');
	int r;

	snprintf(opt, sizeof(opt), "%.*s", eq ? (int)(eq - need) :
		 (int)strlen(need), need);
	r = devpm_kconfig(opt, val, sizeof(val));
	if (r < 0) {
		snprintf(why, len, "no kernel config to check it against (/proc/config.gz, /boot/config-*)");
		return RN_MET_UNKNOWN;
	}
	if (eq ? !strcmp(val, eq + 1) : (!strcmp(val, "y") ||
					  !strcmp(val, "m"))) {
		snprintf(why, len, "%s=%s", opt, val);
		return RN_MET_YES;
	}
	snprintf(why, len, "%s is %s", opt, val[0] ? val : "not set");
	return RN_MET_NO;
}

static enum rn_met tracefs_met(char *why, size_t len)
{
	if (devpm_exists("/sys/kernel/tracing/trace") ||
	    devpm_exists("/sys/kernel/debug/tracing/trace")) {
		snprintf(why, len, "tracefs is mounted");
		return RN_MET_YES;
	}
	if (devpm_is_root() && devpm_exists("/sys/kernel/tracing")) {
		snprintf(why, len, "tracefs is not mounted; the program mounts it");
		return RN_MET_YES;
	}
	snprintf(why, len, "no tracefs at /sys/kernel/tracing%s",
		 devpm_is_root() ? "" : " (or not readable: not root)");
	return RN_MET_NO;
}

enum rn_met rn_need_met(const char *key, const char *value, char *why,
			size_t len)
{
	char name[128], kpath[DEVPM_PATH_MAX];
	const char *colon;

	why[0] = '\0';
	if (!strcmp(key, "timeout_s") || !strcmp(key, "sleep-scope"))
		return RN_MET_INFO;
	if (!strcmp(key, "root")) {
		snprintf(why, len, devpm_is_root() ? "running as root" :
			 "not root: its cases SKIP");
		return devpm_is_root() ? RN_MET_YES : RN_MET_NO;
	}
	if (!strcmp(key, "allow-sleep") || !strcmp(key, "allow-disk")) {
		snprintf(why, len, "devpm run --%s", key);
		return RN_MET_OPTIN;
	}
	if (!strcmp(key, "kconfig"))
		return kconfig(value, why, len);
	if (!strcmp(key, "module")) {
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(value, " "),
			 value);
		return module_available(name, why, len);
	}
	if (!strcmp(key, "driver")) {
		colon = strchr(value, ':');
		if (!colon)
			return RN_MET_UNKNOWN;
		snprintf(kpath, sizeof(kpath), "/sys/bus/%.*s/drivers/%s",
			 (int)(colon - value), value, colon + 1);
		if (devpm_exists(kpath)) {
			snprintf(why, len, "driver %s is registered", value);
			return RN_MET_YES;
		}
		return module_available(colon + 1, why, len);
	}
	if (!strcmp(key, "file")) {
		snprintf(why, len, devpm_exists(value) ? "present" : "absent");
		return devpm_exists(value) ? RN_MET_YES : RN_MET_NO;
	}
	if (!strcmp(key, "tracefs"))
		return tracefs_met(why, len);
	snprintf(why, len, "a need this devpm does not know");
	return RN_MET_UNKNOWN;
}
