// SPDX-License-Identifier: GPL-2.0-only
/*
 * path_trust.c - the rule for every path devpm did not make (path_trust.h):
 * a walk from / with openat(O_PATH | O_NOFOLLOW), one component at a
 * time, each checked before the next is looked up in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "core/path_trust.h"
#include "core/error.h"

/* As the kernel's path walk (fs/namei.c: MAXSYMLINKS). */
#define HOPS_MAX 40

bool devpm_path_trust_strict(void)
{
	return geteuid() == 0;
}

/* Writable by someone but root and us: others, or a group not root's. */
static bool others_write(const struct stat *st)
{
	return (st->st_mode & 0002) ||
	       ((st->st_mode & 0020) && st->st_gid != 0);
}

int devpm_path_trust_stat(const struct stat *st, const char *shown,
			  bool last, int flags)
{
	const char *name = shown[0] ? shown : "/";

	if (!devpm_path_trust_strict())
		return 0;
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return devpm_fail(EPERM, "%s %s uid %u", name,
				  S_ISLNK(st->st_mode) ? "is a symlink of" :
				  "belongs to", (unsigned int)st->st_uid);
	/*
	 * A symlink's own mode means nothing (its directory was checked);
	 * nor does a device's: writing to it changes no name or content.
	 */
	if (S_ISLNK(st->st_mode) || S_ISCHR(st->st_mode) || !others_write(st))
		return 0;
	/* Sticky: others cannot rename or remove our entries in it. */
	if (S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX) &&
	    (!last || (flags & DEVPM_TRUST_STICKY)))
		return 0;
	return devpm_fail(EPERM, "%s is writable by %s (mode %04o)", name,
			  (st->st_mode & 0002) ? "others" : "its group",
			  (unsigned int)(st->st_mode & 07777));
}

/* shown without its last component ("/a/b" -> "/a", "/a" -> ""). */
static void drop_last(char *shown)
{
	char *slash = strrchr(shown, '/');

	if (slash)
		*slash = '\0';
}

/* Is there a component other than "." left in p? */
static bool more(const char *p)
{
	size_t n;

	for (;;) {
		p += strspn(p, "/");
		if (!*p)
			return false;
		n = strcspn(p, "/");
		if (n != 1 || p[0] != '.')
			return true;
		p += n;
	}
}

struct walk {
	char rest[2 * PATH_MAX];	/* what is left to walk */
	char shown[2 * PATH_MAX];	/* what was walked, links resolved */
	int cur;			/* O_PATH fd of shown */
	int hops;
};

static int walk_root(struct walk *w, bool last, int flags)
{
	struct stat st;

	if (w->cur >= 0)
		close(w->cur);
	w->shown[0] = '\0';
	w->cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->cur < 0 || fstat(w->cur, &st) < 0)
		return devpm_fail(errno, "/: %s", strerror(errno));
	return devpm_path_trust_stat(&st, "/", last, flags);
}

/* Follow the link fd (at w->shown) and put its target before p. */
static int follow(struct walk *w, int fd, const char *p, bool last, int flags)
{
	char target[PATH_MAX], tmp[2 * PATH_MAX];
	ssize_t n;

	if (++w->hops > HOPS_MAX)
		return devpm_fail(ELOOP, "%s: more than %d symlinks", w->shown,
				  HOPS_MAX);
	n = readlinkat(fd, "", target, sizeof(target) - 1);
	if (n <= 0)
		return devpm_fail(n < 0 ? errno : ENOENT, "%s: %s", w->shown,
				  n < 0 ? strerror(errno) : "empty symlink");
	target[n] = '\0';
	if (devpm_fmt(tmp, sizeof(tmp), "%s/%s", target, p))
		return devpm_fail(ENAMETOOLONG, "%s: path too long after its symlink",
				  w->shown);
	memcpy(w->rest, tmp, strlen(tmp) + 1);
	drop_last(w->shown);
	if (target[0] == '/')
		return walk_root(w, last && !more(w->rest), flags);
	return 0;
}

int devpm_path_trust_open(const char *path, enum devpm_trust_kind kind,
			  int flags, mode_t mode, char *base, size_t blen)
{
	struct walk w = { .cur = -1 };
	char cwd[PATH_MAX], comp[NAME_MAX + 1];
	const char *p;
	struct stat st;
	bool last;
	size_t n;
	int fd, r, e;

	if (!path || !path[0])
		return devpm_fail(ENOENT, "the path is empty");
	if (strlen(path) >= PATH_MAX)
		return devpm_fail(ENAMETOOLONG, "%.60s...: longer than %d bytes",
				  path, PATH_MAX - 1);
	if (path[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return devpm_fail(errno, "%s: the working directory: %s", path,
				  strerror(errno));
	snprintf(w.rest, sizeof(w.rest), "%s%s%s", path[0] == '/' ? "" : cwd,
		 path[0] == '/' ? "" : "/", path);
	r = walk_root(&w, !more(w.rest), flags);
	p = w.rest;
	while (!r) {
		p += strspn(p, "/");
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			r = devpm_fail(ENAMETOOLONG, "%s/%.40s...: a name longer than %d bytes",
				       w.shown, p, NAME_MAX);
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		last = !more(p);
		if (!strcmp(comp, "."))
			continue;
		/* A file's own name: never followed, its open checks it. */
		if (last && kind == DEVPM_TRUST_PARENT) {
			if (!strcmp(comp, ".."))
				r = devpm_fail(EISDIR, "%s: names a directory, not a file",
					       path);
			snprintf(base, blen, "%s", comp);
			break;
		}
		if (!strcmp(comp, "..")) {
			fd = openat(w.cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			e = errno;
			drop_last(w.shown);
		} else {
			fd = openat(w.cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0 && errno == ENOENT && kind == DEVPM_TRUST_MKDIR &&
			    (!mkdirat(w.cur, comp, mode) || errno == EEXIST))
				fd = openat(w.cur, comp,
					    O_PATH | O_NOFOLLOW | O_CLOEXEC);
			e = errno;
			if (strlen(w.shown) + n + 2 > sizeof(w.shown)) {
				if (fd >= 0)
					close(fd);
				r = devpm_fail(ENAMETOOLONG, "%.60s...: deeper than %zu bytes",
					       w.shown, sizeof(w.shown));
				break;
			}
			strcat(w.shown, "/");
			strcat(w.shown, comp);
		}
		if (fd < 0 && e == ENOENT && kind == DEVPM_TRUST_CHECK)
			break;
		if (fd < 0) {
			r = devpm_fail(e, "%s: %s", w.shown, strerror(e));
			break;
		}
		if (fstat(fd, &st) < 0) {
			r = devpm_fail(errno, "%s: %s", w.shown, strerror(errno));
			close(fd);
			break;
		}
		r = devpm_path_trust_stat(&st, w.shown, last &&
					  !S_ISLNK(st.st_mode), flags);
		if (!r && S_ISLNK(st.st_mode) && last &&
		    (flags & DEVPM_TRUST_NOLINK))
			r = devpm_fail(ELOOP, "%s is a symlink", w.shown);
		if (!r && S_ISLNK(st.st_mode))
			r = follow(&w, fd, p, last, flags);
		if (r || S_ISLNK(st.st_mode)) {
			close(fd);
			p = w.rest;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			close(fd);
			if (last && kind == DEVPM_TRUST_CHECK)
				break;
			r = devpm_fail(ENOTDIR, "%s is not a directory", w.shown);
			break;
		}
		close(w.cur);
		w.cur = fd;
	}
	if (!r && kind == DEVPM_TRUST_PARENT && (!base[0] || !strcmp(base, "..")))
		r = devpm_fail(EISDIR, "%s: names a directory, not a file", path);
	if (r || kind == DEVPM_TRUST_CHECK) {
		close(w.cur);
		return r;
	}
	fd = openat(w.cur, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == EACCES)
		return w.cur;	/* search but no read permission: O_PATH */
	close(w.cur);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", w.shown[0] ? w.shown : "/",
				  strerror(errno));
	return fd;
}

/* devpm_path_trust_file(), its messages naming shown. */
static int file_at(int dfd, const char *name, const char *shown, int oflags,
		   mode_t mode, int flags)
{
	bool wr = (oflags & O_ACCMODE) != O_RDONLY;
	struct stat st;
	int fd, r = 0;

	/* Truncated only once it passed: never another user's file. */
	fd = openat(dfd, name, (oflags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC, mode);
	if (fd < 0) {
		r = errno;
		/* fs.protected_symlinks may answer EACCES first: name the link. */
		if (r == ELOOP ||
		    (!fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
		     S_ISLNK(st.st_mode)))
			return devpm_fail(ELOOP, "%s is a symlink", shown);
		if (r == EISDIR)
			return devpm_fail(EISDIR, "%s is a directory", shown);
		return devpm_fail(r, "%s: %s", shown, strerror(r));
	}
	if (fstat(fd, &st) < 0)
		r = devpm_fail(errno, "%s: %s", shown, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		r = devpm_fail(EISDIR, "%s is a directory", shown);
	else if (!S_ISREG(st.st_mode) &&
		 !(S_ISCHR(st.st_mode) && (flags & DEVPM_TRUST_CHARDEV)))
		r = devpm_fail(EINVAL, "%s is not a regular file (a %s)", shown,
			       S_ISFIFO(st.st_mode) ? "FIFO" :
			       S_ISCHR(st.st_mode) ? "character device" :
			       S_ISBLK(st.st_mode) ? "block device" :
			       S_ISSOCK(st.st_mode) ? "socket" : "special file");
	else
		r = devpm_path_trust_stat(&st, shown, true, 0);
	if (!r && wr && S_ISREG(st.st_mode) && st.st_nlink != 1 &&
	    devpm_path_trust_strict())
		r = devpm_fail(EPERM, "%s has %lu hard links", shown,
			       (unsigned long)st.st_nlink);
	if (!r && (oflags & O_TRUNC) && S_ISREG(st.st_mode) &&
	    ftruncate(fd, 0) < 0)
		r = devpm_fail(errno, "%s: %s", shown, strerror(errno));
	if (r) {
		close(fd);
		return r;
	}
	if (wr && S_ISCHR(st.st_mode))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int devpm_path_trust_file(int dfd, const char *name, int oflags,
			  mode_t mode, int flags)
{
	return file_at(dfd, name, name, oflags, mode, flags);
}

int devpm_path_trust_open_file(const char *path, int oflags, mode_t mode,
			       int flags)
{
	char base[NAME_MAX + 1] = "";
	int dfd, fd;

	dfd = devpm_path_trust_open(path, DEVPM_TRUST_PARENT, 0, 0, base,
				    sizeof(base));
	if (dfd < 0)
		return dfd;
	fd = file_at(dfd, base, path, oflags, mode, flags);
	close(dfd);
	return fd;
}

const char *devpm_path_trust_env(const char *name)
{
	static char warned[8][32];
	const char *v = getenv(name);
	size_t i;

	if (!v || !v[0])
		return NULL;
	if (!devpm_path_trust_strict() ||
	    !devpm_path_trust_open(v, DEVPM_TRUST_CHECK, 0, 0, NULL, 0))
		return v;
	for (i = 0; i < 8 && warned[i][0] && strcmp(warned[i], name); i++)
		;
	if (i < 8 && !warned[i][0]) {
		snprintf(warned[i], sizeof(warned[i]), "%s", name);
		fprintf(stderr, "devpm: ignoring %s=%s: %s; as root devpm takes a path only when root owns it and no one else can write it (unset it or chown root it)\n",
			name, v, devpm_error());
	}
	return NULL;
}

int devpm_path_trust_beneath(int dfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = flags | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};

	return syscall(SYS_openat2, dfd, rel, &how, sizeof(how));
}
