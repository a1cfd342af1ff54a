// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - the run directory: <output>/<run-id>/ with every result
 * file, and <output>/latest pointing at the newest run.
 *
 * Root-safe: as root, the output directory must belong to root and not be
 * writable by others (unless sticky); the run directory is made by devpm
 * (mkdirat) and every file is created in it through its descriptor with
 * O_CREAT | O_EXCL | O_NOFOLLOW, so a user who can rename or plant entries
 * cannot redirect a write.
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

/* Whose the directory of fd is: as root, root's and nobody else's to write. */
static int dir_trusted(int fd, const char *what, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (geteuid() != 0)
		return 0;
	if (st.st_uid != 0) {
		fprintf(stderr, "devpm: %s %s belongs to uid %u; as root devpm writes results only into a directory root owns: pass --output DIR owned by root\n",
			what, path, (unsigned int)st.st_uid);
		return -EPERM;
	}
	if ((st.st_mode & 0022) && !(st.st_mode & S_ISVTX)) {
		fprintf(stderr, "devpm: %s %s is writable by others (mode %04o); as root pass --output DIR that only root can write\n",
			what, path, (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int rn_output_check(const char *output)
{
	int fd, r;

	fd = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	r = dir_trusted(fd, "--output", output);
	close(fd);
	return r;
}

int rn_run_dir(const char *output, const char *base, char *dir, size_t len,
	       char *idout, size_t idlen)
{
	char id[128];
	int n, r, ofd, fd;

	r = mkdirs(output);
	if (r < 0) {
		fprintf(stderr, "devpm: cannot create output directory %s: %s; pass --output DIR with a writable directory\n",
			output, strerror(-r));
		return r;
	}
	ofd = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ofd < 0) {
		r = -errno;
		fprintf(stderr, "devpm: cannot open output directory %s: %s\n",
			output, strerror(errno));
		return r;
	}
	r = dir_trusted(ofd, "--output", output);
	if (r < 0) {
		close(ofd);
		return r;
	}
	for (n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(id, sizeof(id), "%s", base);
		else
			snprintf(id, sizeof(id), "%s-%d", base, n);
		if (snprintf(dir, len, "%s/%s", output, id) >= (int)len) {
			close(ofd);
			return -ENAMETOOLONG;
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
		fprintf(stderr, "devpm: %s: too many runs named %s-N\n", output,
			base);
		close(ofd);
		return -EEXIST;
	}
	fd = openat(ofd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(ofd);
	if (fd < 0) {
		r = -errno;
		fprintf(stderr, "devpm: cannot open %s: %s\n", dir,
			strerror(errno));
		return r;
	}
	r = dir_trusted(fd, "run directory", dir);
	if (r < 0) {
		close(fd);
		return r;
	}
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

/* latest -> id, replaced atomically, inside the (checked) output dir. */
static int point_latest(const char *output, const char *dir)
{
	char tmp[64];
	const char *id = strrchr(dir, '/');
	int ofd, r = 0;

	id = id ? id + 1 : dir;
	ofd = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ofd < 0 || dir_trusted(ofd, "--output", output) < 0) {
		if (ofd >= 0)
			close(ofd);
		return -EPERM;
	}
	snprintf(tmp, sizeof(tmp), ".latest.%d", (int)getpid());
	unlinkat(ofd, tmp, 0);
	if (symlinkat(id, ofd, tmp) < 0 ||
	    renameat(ofd, tmp, ofd, "latest") < 0) {
		r = -errno;
		fprintf(stderr, "devpm: cannot point %s/latest at %s: %s\n",
			output, id, strerror(errno));
		unlinkat(ofd, tmp, 0);
	}
	close(ofd);
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
