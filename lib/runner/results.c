// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - the run directory: <output>/<run-id>/ with every result
 * file, and <output>/latest pointing at the newest run.
 *
 * Root-safe: the output directory is walked by path_trust.h's rule (as
 * root every component root's and no one else's to write, sticky allowed
 * at the end) and kept open; the run directory is made by devpm (mkdirat)
 * in it and every file is created through the run directory's descriptor
 * with O_CREAT | O_EXCL | O_NOFOLLOW, so a user who can rename or plant
 * entries cannot redirect a write.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/path_trust.h"
#include "output.h"
#include "util.h"

void rn_run_id_base(char *id, size_t idlen, char *iso, size_t isolen)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(id, idlen, "%Y%m%d-%H%M%S", &tm);
	strftime(iso, isolen, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * The output directory, walked by path_trust.h's rule and made when
 * missing (sticky allowed: --output /tmp/x), kept open from rn_run_dir()
 * for point_latest(): never looked up by name again.
 */
static int output_fd = -1;

/* One line on stderr: what is wrong with --output and the fix. */
static int output_refused(const char *output, int err)
{
	const char *fix;

	if (err == -EPERM)
		fix = "as root pass --output DIR on a path that only root owns and can write";
	else if (err == -ENAMETOOLONG)
		fix = "give a shorter --output";
	else
		fix = "pass --output DIR with a directory devpm can create and write";
	fprintf(stderr, "devpm: --output %.200s%s: %s; %s\n", output,
		strlen(output) > 200 ? "..." : "", devpm_error(), fix);
	return err;
}

int rn_output_check(const char *output)
{
	struct stat st;
	int r;

	r = devpm_path_trust_open(output, DEVPM_TRUST_CHECK,
				  DEVPM_TRUST_STICKY, 0, NULL, 0);
	if (r < 0)
		return output_refused(output, r);
	if (!stat(output, &st) && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "devpm: --output %s is not a directory; give a directory for the results\n",
			output);
		return -ENOTDIR;
	}
	if (!stat(output, &st) && access(output, W_OK | X_OK)) {
		devpm_fail(errno, "%s", strerror(errno));
		return output_refused(output, -EACCES);
	}
	return 0;
}

int rn_run_dir(const char *output, const char *base, char *dir, size_t len,
	       char *idout, size_t idlen)
{
	char id[128];
	int n, r, ofd, fd;

	ofd = devpm_path_trust_open(output, DEVPM_TRUST_MKDIR,
				    DEVPM_TRUST_STICKY, 0755, NULL, 0);
	if (ofd < 0)
		return output_refused(output, ofd);
	for (n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(id, sizeof(id), "%s", base);
		else
			snprintf(id, sizeof(id), "%s-%d", base, n);
		if (snprintf(dir, len, "%s/%s", output, id) >= (int)len) {
			close(ofd);
			devpm_fail(ENAMETOOLONG, "longer than %zu bytes", len);
			return output_refused(output, -ENAMETOOLONG);
		}
		if (!mkdirat(ofd, id, 0755))
			break;
		if (errno != EEXIST) {
			r = -errno;
			fprintf(stderr, "devpm: cannot create %s: %s; pass --output DIR with a writable directory\n",
				dir, strerror(errno));
			close(ofd);
			return r;
		}
	}
	if (n == 1000) {
		fprintf(stderr, "devpm: %s: too many runs named %s-N; remove old ones or pass another --output\n",
			output, base);
		close(ofd);
		return -EEXIST;
	}
	fd = openat(ofd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		fprintf(stderr, "devpm: cannot open %s: %s\n", dir,
			strerror(errno));
		close(ofd);
		return r;
	}
	if (output_fd >= 0)
		close(output_fd);
	output_fd = ofd;
	snprintf(idout, idlen, "%s", id);
	return fd;
}

int rn_result_open(int dirfd, const char *name)
{
	return openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_CLOEXEC, 0644);
}

int rn_result_put(int dirfd, const char *name, const char *buf, size_t len)
{
	int fd = rn_result_open(dirfd, name);

	if (fd < 0)
		return -errno;
	return rn_write_all(fd, buf, len);
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

static int put(int dirfd, const char *dir, const char *name, char *text)
{
	int r;

	r = rn_result_put(dirfd, name, text, strlen(text));
	if (r < 0)
		fprintf(stderr, "devpm: cannot write %s/%s: %s\n", dir, name,
			strerror(-r));
	free(text);
	return r;
}

/* latest -> id, replaced atomically, in the output directory kept open. */
static int point_latest(const char *output, const char *dir)
{
	char tmp[64];
	const char *id = strrchr(dir, '/');
	int r = 0;

	id = id ? id + 1 : dir;
	if (output_fd < 0)
		return -EBADF;
	snprintf(tmp, sizeof(tmp), ".latest.%d", (int)getpid());
	unlinkat(output_fd, tmp, 0);
	if (symlinkat(id, output_fd, tmp) < 0 ||
	    renameat(output_fd, tmp, output_fd, "latest") < 0) {
		r = -errno;
		fprintf(stderr, "devpm: cannot point %s/latest at %s: %s\n",
			output, id, strerror(errno));
		unlinkat(output_fd, tmp, 0);
	}
	return r;
}

int rn_results_write(const struct rn_run *r, const char *output,
		     const char *dir, int dirfd)
{
	int ret = 0;

	ret |= put(dirfd, dir, "results.ktap", rn_out_ktap(r));
	ret |= put(dirfd, dir, "junit.xml", rn_out_junit(r));
	ret |= put(dirfd, dir, "summary.json", rn_out_summary(r));
	ret |= put(dirfd, dir, "env.json", rn_out_env(r));
	ret |= put(dirfd, dir, "dmesg.log", rn_out_dmesg(r));
	ret |= put(dirfd, dir, "lava.sh", rn_out_lava(r));
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
	snprintf(buf, len, "%u pass, %u fail, %u skip, %u xfail%s in %.1f s%s; device lines: %u pass, %u fail, %u skip, %u xfail",
		 t.pass, t.fail, t.skip, t.xfail, notrun, us / 1e6,
		 r->incomplete ? " (incomplete run)" : "", t.dev.pass,
		 t.dev.fail, t.dev.skip, t.dev.xfail);
}
