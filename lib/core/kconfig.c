// SPDX-License-Identifier: GPL-2.0-only
/*
 * kconfig.c - read the running kernel's config, check a need of one of
 * its options (kconfig.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "core/kconfig.h"
#include "core/sysfs.h"

/*
 * The kernel's config: /proc/config.gz (gzopen reads plain text too), else
 * /boot/config-<release>.  Under a sysfs root only the tree's
 * /proc/config.gz counts: the host's /boot says nothing about a recording.
 */
static gzFile open_config(char *used, size_t len)
{
	struct utsname u;
	gzFile f;

	devpm_real_path(used, len, "/proc/config.gz");
	f = gzopen(used, "rb");
	if (f || devpm_sysfs_root()[0] || uname(&u) < 0)
		return f;
	snprintf(used, len, "/boot/config-%s", u.release);
	return gzopen(used, "rb");
}

int devpm_kconfig(const char *opt, char *val, size_t len)
{
	char name[128], line[4096], used[DEVPM_PATH_MAX];
	size_t n, vlen;
	char *v;
	gzFile f;

	if (!len)
		return devpm_fail(EINVAL, "kconfig %s: no room for the value",
				  opt);
	val[0] = '\0';
	if (devpm_fmt(name, sizeof(name), "%s%s",
		      strncmp(opt, "CONFIG_", 7) ? "CONFIG_" : "", opt))
		return devpm_fail(EINVAL, "kconfig name %s too long", opt);
	n = strlen(name);
	f = open_config(used, sizeof(used));
	if (!f)
		return devpm_fail(ENOENT, "no kernel config (/proc/config.gz or /boot/config-$(uname -r))");
	while (gzgets(f, line, sizeof(line))) {
		if (strncmp(line, name, n) || line[n] != '=')
			continue;
		v = line + n + 1;
		v[strcspn(v, "\n")] = '\0';
		vlen = strlen(v);
		if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
			v[vlen - 1] = '\0';
			v++;
		}
		snprintf(val, len, "%s", v);
		break;
	}
	gzclose(f);
	return 0;
}

/* "CONFIG_X" wants y or m; "CONFIG_X=v" wants exactly v.  1 unmet. */
int devpm_kconfig_check(const char *need, char *why, size_t len)
{
	char opt[128], val[256];
	const char *want = strchr(need, '=');
	int r;

	snprintf(opt, sizeof(opt), "%.*s",
		 want ? (int)(want - need) : (int)strlen(need), need);
	r = devpm_kconfig(opt, val, sizeof(val));
	if (r == -ENOENT) {
		/* Cannot know: run, and let the log say it was not checked. */
		fprintf(stderr, "devpm: %s: %s not checked\n", devpm_error(),
			need);
		return 0;
	}
	if (r < 0)
		return r;
	if (!val[0]) {
		snprintf(why, len, "no %s", opt);
		return 1;
	}
	if (want ? strcmp(val, want + 1) :
		   strcmp(val, "y") && strcmp(val, "m")) {
		snprintf(why, len, "%s=%s, needs %s", opt, val,
			 want ? want + 1 : "y or m");
		return 1;
	}
	return 0;
}
