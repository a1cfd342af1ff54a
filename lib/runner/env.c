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
#include "sha256.h"

/*
 * sha256 of a config, uncompressed (gzread reads plain files too): the
 * same digest as `zcat /proc/config.gz | sha256sum` and of the
 * /boot/config file it came from.
 */
static int hash_config(const char *kpath, char hex[65])
{
	char path[DEVPM_PATH_MAX], buf[8192];
	struct rn_sha256 h;
	gzFile f;
	int n;

	if (devpm_real_path(path, sizeof(path), kpath) < 0)
		snprintf(path, sizeof(path), "%s%s", devpm_sysfs_root(),
			 kpath);
	f = gzopen(path, "rb");
	if (!f)
		return -1;
	rn_sha256_init(&h);
	while ((n = gzread(f, buf, sizeof(buf))) > 0)
		rn_sha256_add(&h, buf, n);
	gzclose(f);
	rn_sha256_hex(&h, hex);
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
	char boot[300], hex[65];

	snprintf(boot, sizeof(boot), "/boot/config-%s", release);
	if (!hash_config("/proc/config.gz", hex)) {
		rn_stream_emit(s, "ENV config_file=/proc/config.gz");
	} else if (!hash_config(boot, hex)) {
		rn_stream_emit(s, "ENV config_file=%s", boot);
	} else {
		rn_stream_emit(s, "ENV config_file=none");
		rn_stream_emit(s, "ENV config_hash=unknown");
		rn_stream_emit(s, "ENV config_sha256=");
		return;
	}
	rn_stream_emit(s, "ENV config_hash=sha256:%s", hex);
	rn_stream_emit(s, "ENV config_sha256=%s", hex);
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
