// SPDX-License-Identifier: GPL-2.0-only
/* env.c - the machine a run ran on, as ENV records (env.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "core/sysfs.h"
#include "core/version.h"
#include "env.h"

uint64_t rn_fnv1a64(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Hash of a (possibly gzip'd: gzread reads plain files too) config. */
static int hash_config(const char *kpath, uint64_t *h)
{
	char path[DEVPM_PATH_MAX], buf[8192];
	gzFile f;
	int n;

	if (devpm_real_path(path, sizeof(path), kpath) < 0)
		snprintf(path, sizeof(path), "%s%s", devpm_sysfs_root(),
			 kpath);
	f = gzopen(path, "rb");
	if (!f)
		return -1;
	*h = RN_FNV1A64_INIT;
	while ((n = gzread(f, buf, sizeof(buf))) > 0)
		*h = rn_fnv1a64(buf, n, *h);
	gzclose(f);
	return n < 0 ? -1 : 0;
}

static void env_file(struct rn_stream *s, const char *key, const char *kpath)
{
	char buf[4096];

	if (devpm_read_str(kpath, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "unknown");
	rn_stream_emit(s, "ENV %s=%s", key, buf);
}

static void env_config(struct rn_stream *s, const char *release)
{
	char boot[300];
	uint64_t h;

	snprintf(boot, sizeof(boot), "/boot/config-%s", release);
	if (!hash_config("/proc/config.gz", &h)) {
		rn_stream_emit(s, "ENV config_file=/proc/config.gz");
	} else if (!hash_config(boot, &h)) {
		rn_stream_emit(s, "ENV config_file=%s", boot);
	} else {
		rn_stream_emit(s, "ENV config_file=none");
		rn_stream_emit(s, "ENV config_hash=unknown");
		return;
	}
	rn_stream_emit(s, "ENV config_hash=fnv1a64:%016" PRIx64, h);
}

static void env_mem(struct rn_stream *s)
{
	char buf[16384], *p;
	long kb = -1;

	if (devpm_read_str("/proc/meminfo", buf, sizeof(buf)) >= 0) {
		p = strstr(buf, "MemTotal:");
		if (p)
			sscanf(p, "MemTotal: %ld", &kb);
	}
	if (kb >= 0)
		rn_stream_emit(s, "ENV mem_total_kb=%ld", kb);
	else
		rn_stream_emit(s, "ENV mem_total_kb=unknown");
}

void rn_env_emit(struct rn_stream *s)
{
	struct utsname u;
	char host[256];

	rn_stream_emit(s, "ENV devpm_version=%s", DEVPM_VERSION);
	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	rn_stream_emit(s, "ENV kernel_release=%s", u.release);
	rn_stream_emit(s, "ENV kernel_version=%s", u.version);
	rn_stream_emit(s, "ENV arch=%s", u.machine);
	if (gethostname(host, sizeof(host)) < 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	rn_stream_emit(s, "ENV hostname=%s", host);
	env_file(s, "cmdline", "/proc/cmdline");
	env_config(s, u.release);
	env_file(s, "sys_vendor", "/sys/class/dmi/id/sys_vendor");
	env_file(s, "product_name", "/sys/class/dmi/id/product_name");
	rn_stream_emit(s, "ENV nproc=%ld", sysconf(_SC_NPROCESSORS_ONLN));
	env_mem(s);
	rn_stream_emit(s, "ENV sysfs_root=%s", devpm_sysfs_root());
}
