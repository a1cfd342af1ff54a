// SPDX-License-Identifier: GPL-2.0-only
/*
 * module.c - kernel modules without the journal: names, modprobe,
 * finit_module(2), delete_module(2) (module.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/module.h"
#include "core/sysfs.h"

bool devpm_module_name_ok(const char *m)
{
	if (!*m)
		return false;
	for (; *m; m++)
		if (!(*m == '_' || *m == '-' || (*m >= '0' && *m <= '9') ||
		      (*m >= 'a' && *m <= 'z') || (*m >= 'A' && *m <= 'Z')))
			return false;
	return true;
}


bool devpm_module_loaded(const char *module)
{
	char kpath[DEVPM_PATH_MAX];
	size_t i, n;

	if (devpm_fmt(kpath, sizeof(kpath), "/sys/module/%s", module))
		return false;
	/* modprobe takes '-' and '_' alike; /sys/module has '_'. */
	n = strlen("/sys/module/");
	for (i = n; kpath[i]; i++)
		if (kpath[i] == '-')
			kpath[i] = '_';
	return devpm_exists(kpath);
}

/*
 * The kernel's name of module ('-' as '_') into name; -EINVAL with
 * devpm_error() for a bad or too long name.
 */
int devpm_module_kernel_name(const char *module, char *name, size_t len)
{
	size_t i;

	if (!module || !devpm_module_name_ok(module) ||
	    strlen(module) >= len)
		return devpm_fail(EINVAL, "bad module name '%s'",
				  module ? module : "(null)");
	for (i = 0; module[i]; i++)
		name[i] = module[i] == '-' ? '_' : module[i];
	name[i] = '\0';
	return 0;
}

int devpm_module_unload(const char *module)
{
	char name[DEVPM_MODULE_NAME_MAX];

	if (devpm_module_kernel_name(module, name, sizeof(name)))
		return -EINVAL;
	/* Gone already, or a kernel without modules: nothing to do. */
	if (syscall(SYS_delete_module, name, O_NONBLOCK) < 0 &&
	    errno != ENOENT && errno != ENOSYS)
		return devpm_fail(errno, "module %s: %s", name,
				  strerror(errno));
	return 0;
}

int devpm_modprobe(const char *module, const char *params)
{
	char args[512], out[512] = "", *argv[34], *save = NULL, *tok;
	int p[2], status, argc = 0, dn;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	snprintf(args, sizeof(args), "%s", params ? params : "");
	argv[argc++] = "modprobe";
	argv[argc++] = (char *)module;
	for (tok = strtok_r(args, " \t", &save); tok && argc < 33;
	     tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (pipe2(p, O_CLOEXEC) < 0)
		return devpm_fail(errno, "modprobe %s: %s", module,
				  strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return devpm_fail(errno, "modprobe %s: %s", module,
				  strerror(errno));
	}
	if (!pid) {
		dn = open("/dev/null", O_RDWR);
		if (dn >= 0)
			dup2(dn, STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execv("/sbin/modprobe", argv);
		execvp("modprobe", argv);
		dprintf(STDERR_FILENO, "cannot run modprobe: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		n = read(p[0], out + got, sizeof(out) - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
		if (got == sizeof(out) - 1)
			break;
	}
	out[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return devpm_fail(errno, "modprobe %s: %s", module,
					  strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	out[strcspn(out, "\n")] = '\0';
	if (out[0])
		return devpm_fail(ENOENT, "%s", out);
	if (WIFEXITED(status))
		return devpm_fail(ENOENT, "modprobe %s exited with status %d",
				  module, WEXITSTATUS(status));
	return devpm_fail(ENOENT, "modprobe %s killed by signal %d", module,
			  WTERMSIG(status));
}

/* A text file, whole, from its open fd (closed); NULL when unreadable. */
static char *text_of(int fd)
{
	size_t len = 0, cap = 16384;
	char *buf = malloc(cap), *p;
	ssize_t n;

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	for (;;) {
		if (len + 1 >= cap) {
			p = realloc(buf, cap * 2);
			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

char *devpm_module_list(void)
{
	return text_of(open("/proc/modules", O_RDONLY | O_CLOEXEC));
}

/* Is name the first word of a line of text? */
static bool listed(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == ' ')
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

int devpm_module_diff(const char *before, const char *after,
		      char names[][64], int max)
{
	const char *p = after;
	char name[64];
	size_t n;
	int count = 0;

	while (p && *p && count < max) {
		n = strcspn(p, "\n ");
		if (n && n < sizeof(name) && p[n] == ' ') {
			memcpy(name, p, n);
			name[n] = '\0';
			if (devpm_module_name_ok(name) && !listed(before, name))
				snprintf(names[count++], 64, "%s", name);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return count;
}

int devpm_module_dep_plain(const char *dep, const char *name, char *rel,
			   size_t len)
{
	const char *line, *end, *colon, *base, *p;
	char stem[DEVPM_MODULE_NAME_MAX];
	size_t n, i;

	for (line = dep; line && *line; line = *end ? end + 1 : NULL) {
		end = strchrnul(line, '\n');
		colon = memchr(line, ':', end - line);
		if (!colon)
			continue;
		for (base = colon; base > line && base[-1] != '/'; base--)
			;
		/* The module's name: the file's up to ".ko", '-' as '_'. */
		n = 0;
		for (p = base; p < colon && *p != '.' && n < sizeof(stem) - 1;
		     p++)
			stem[n++] = *p == '-' ? '_' : *p;
		stem[n] = '\0';
		if (p == colon || *p != '.' || strcmp(stem, name))
			continue;
		/* Compressed, or needing others: modprobe's work. */
		if (colon - p != 3 || strncmp(p, ".ko", 3))
			return 0;
		for (p = colon + 1; p < end; p++)
			if (*p != ' ' && *p != '\t' && *p != '\r')
				return 0;
		/* depmod writes paths relative to its directory. */
		n = colon - line;
		if (!n || n >= len || line[0] == '/')
			return 0;
		for (i = 0; i < n; i++)
			if (line[i] == '.' && i + 1 < n && line[i + 1] == '.' &&
			    (!i || line[i - 1] == '/'))
				return 0;
		memcpy(rel, line, n);
		rel[n] = '\0';
		return 1;
	}
	return 0;
}

/* A file root owns and only root may write; closes fd when it is not. */
static int trusted_fd(int fd)
{
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022)) {
		close(fd);
		return -1;
	}
	return fd;
}

int devpm_module_finit(const char *name, const char *params)
{
	char dir[PATH_MAX], rel[PATH_MAX], *dep;
	struct utsname u;
	int dfd, fd, ok;

	if (uname(&u) ||
	    devpm_fmt(dir, sizeof(dir), "/lib/modules/%s", u.release) < 0)
		return 1;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 1;
	dep = text_of(trusted_fd(openat(dfd, "modules.dep",
					O_RDONLY | O_NOFOLLOW | O_CLOEXEC)));
	ok = dep && devpm_module_dep_plain(dep, name, rel, sizeof(rel)) == 1;
	free(dep);
	fd = ok ? trusted_fd(openat(dfd, rel, O_RDONLY | O_NOFOLLOW |
					      O_CLOEXEC)) : -1;
	close(dfd);
	if (fd < 0)
		return 1;
	ok = syscall(SYS_finit_module, fd, params ? params : "", 0) == 0;
	close(fd);
	if (!ok)
		return devpm_fail(errno, "finit_module %s/%s: %s", dir, rel,
				  strerror(errno));
	return 0;
}
