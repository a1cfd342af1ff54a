// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - the run directory: <output>/<run-id>/ with every result
 * file, and <output>/latest pointing at the newest run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "output.h"

void rn_run_id_base(char *id, size_t idlen, char *iso, size_t isolen)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(id, idlen, "%Y%m%d-%H%M%S", &tm);
	strftime(iso, isolen, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* mkdir -p */
static int mkdirs(const char *path)
{
	char buf[4096], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int rn_run_dir(const char *output, const char *base, char *dir, size_t len,
	       char *idout, size_t idlen)
{
	char id[128];
	int n, r;

	r = mkdirs(output);
	if (r < 0) {
		fprintf(stderr, "devpm: cannot create output directory %s: %s; pass --output DIR with a writable directory\n",
			output, strerror(-r));
		return r;
	}
	for (n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(id, sizeof(id), "%s", base);
		else
			snprintf(id, sizeof(id), "%s-%d", base, n);
		if (snprintf(dir, len, "%s/%s", output, id) >= (int)len)
			return -ENAMETOOLONG;
		if (!mkdir(dir, 0755)) {
			snprintf(idout, idlen, "%s", id);
			return 0;
		}
		if (errno != EEXIST) {
			r = -errno;
			fprintf(stderr, "devpm: cannot create %s: %s; pass --output DIR with a writable directory\n",
				dir, strerror(errno));
			return r;
		}
	}
	fprintf(stderr, "devpm: %s: too many runs named %s-N\n", output, base);
	return -EEXIST;
}

char *rn_out_dmesg(const struct rn_run *r)
{
	struct rn_buf b = { 0 };
	const char *where = NULL;
	const char *src = rn_env_get(r, "kmsg");
	size_t i;
	uint64_t ts;

	rn_buf_printf(&b, "# kernel log during run %s (%s)\n", r->run_id,
		      src ? src : "source unknown");
	for (i = 0; i < r->nklog; i++) {
		if (!where || strcmp(where, r->klog[i].where)) {
			where = r->klog[i].where;
			rn_buf_printf(&b, "# devpm: %s\n",
				      where[0] ? where : "(between programs)");
		}
		ts = r->klog[i].ts_us;
		rn_buf_printf(&b, "[%5" PRIu64 ".%06" PRIu64 "] %s%s\n",
			      ts / 1000000, ts % 1000000,
			      r->klog[i].bad ? "BAD " : "", r->klog[i].text);
	}
	return b.s;
}

static int put(const char *dir, const char *name, char *text)
{
	char path[4096];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	r = rn_write_file(path, text, strlen(text));
	if (r < 0)
		fprintf(stderr, "devpm: cannot write %s: %s\n", path,
			strerror(-r));
	free(text);
	return r;
}

static int point_latest(const char *output, const char *dir)
{
	char link[4096], tmp[4096];
	const char *id = strrchr(dir, '/');

	id = id ? id + 1 : dir;
	snprintf(link, sizeof(link), "%s/latest", output);
	snprintf(tmp, sizeof(tmp), "%s/.latest.%d", output, (int)getpid());
	unlink(tmp);
	if (symlink(id, tmp) < 0 || rename(tmp, link) < 0) {
		fprintf(stderr, "devpm: cannot point %s at %s: %s\n", link, id,
			strerror(errno));
		unlink(tmp);
		return -errno;
	}
	return 0;
}

int rn_results_write(const struct rn_run *r, const char *output,
		     const char *dir)
{
	int ret = 0;

	ret |= put(dir, "results.ktap", rn_out_ktap(r));
	ret |= put(dir, "junit.xml", rn_out_junit(r));
	ret |= put(dir, "summary.json", rn_out_summary(r));
	ret |= put(dir, "env.json", rn_out_env(r));
	ret |= put(dir, "dmesg.log", rn_out_dmesg(r));
	ret |= put(dir, "lava.sh", rn_out_lava(r));
	ret |= point_latest(output, dir);
	return ret ? -EIO : 0;
}

void rn_totals_line(const struct rn_run *r, char *buf, size_t len)
{
	struct rn_totals t;
	uint64_t us = r->end_us > r->start_us ? r->end_us - r->start_us : 0;
	char notrun[32] = "";

	rn_totals(r, &t);
	if (t.not_run)
		snprintf(notrun, sizeof(notrun), ", %u not run", t.not_run);
	snprintf(buf, len, "%u pass, %u fail, %u skip, %u xfail%s in %.1f s%s",
		 t.pass, t.fail, t.skip, t.xfail, notrun, us / 1e6,
		 r->incomplete ? " (incomplete run)" : "");
}
