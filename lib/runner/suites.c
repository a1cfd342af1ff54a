// SPDX-License-Identifier: GPL-2.0-only
/* suites.c - find test programs and ask them about themselves (suites.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/path_trust.h"
#include "probe_cache.h"
#include "program.h"
#include "suites.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * As root, devpm runs only programs no other user could have put there:
 * the suites directory passes path_trust.h's rule (not even sticky).
 */
static int suites_trusted(const char *dir)
{
	int fd = devpm_path_trust_open(dir, DEVPM_TRUST_DIR, 0, 0, NULL, 0);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	fprintf(stderr, "devpm: test programs in %s: %s; as root devpm runs only programs that root owns and no one else can write ('make install', or chown -R root and chmod -R go-w that directory)\n",
		dir, devpm_error());
	return -EPERM;
}

/*
 * A suite or a program in it: as root, one no other user could change,
 * nor anything on the way to it (a link of root's is walked to its end).
 */
static bool entry_trusted(const char *path)
{
	if (!devpm_path_trust_strict() ||
	    !devpm_path_trust_open(path, DEVPM_TRUST_CHECK, 0, 0, NULL, 0))
		return true;
	fprintf(stderr, "devpm: ignoring %s: %s; as root devpm runs only programs that root owns and no one else can write\n",
		path, devpm_error());
	return false;
}

int rn_suites_dir(char *buf, size_t len)
{
	static const char *const rel[] = {
		"suites", "../suites", "../lib/devpm/suites",
	};
	/* As root, ignored (and said) unless root's alone (path_trust.h). */
	const char *env = devpm_path_trust_env("DEVPM_SUITES_DIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;
	size_t i;

	if (env) {
		if (!is_dir(env)) {
			fprintf(stderr, "devpm: DEVPM_SUITES_DIR=%s is not a directory; point it at the test programs (build/suites) or unset it\n",
				env);
			return -ENOENT;
		}
		snprintf(buf, len, "%s", env);
		return suites_trusted(buf);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		n = 0;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(buf, len, "%s/%s", exe, rel[i]);
		if (is_dir(buf))
			return suites_trusted(buf);
	}
	fprintf(stderr, "devpm: no test programs: neither %s/suites nor %s/../lib/devpm/suites exists; run 'make' or set DEVPM_SUITES_DIR\n",
		exe, exe);
	return -ENOENT;
}

/* Names become KTAP and JUnit names: no spaces, no '#'. */
static bool name_ok(const char *s)
{
	if (!*s || *s == '.')
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || strchr("_.+-", *s)))
			return false;
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entries of dir accepted by keep(). */
static size_t entries(const char *dir, char ***out,
		      bool (*keep)(const char *path))
{
	struct dirent *de;
	char path[PATH_MAX];
	char **v = NULL;
	size_t n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!keep(path) || !entry_trusted(path))
			continue;
		if (!name_ok(de->d_name)) {
			fprintf(stderr, "devpm: ignoring %s: use only letters, digits and _.+- in names\n",
				path);
			continue;
		}
		rn_strv_push(&v, &n, de->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return n;
}

static bool is_prog(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int rn_discover(const char *dir, struct rn_progspec **out, size_t *n)
{
	char **suites = NULL, **progs = NULL, path[PATH_MAX];
	size_t ns, np, i, j;
	struct rn_progspec *p;

	*out = NULL;
	*n = 0;
	if (!is_dir(dir))
		return -ENOENT;
	ns = entries(dir, &suites, is_dir);
	for (i = 0; i < ns; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, suites[i]);
		np = entries(path, &progs, is_prog);
		for (j = 0; j < np; j++) {
			*out = rn_xrealloc(*out, (*n + 1) * sizeof(**out));
			p = &(*out)[(*n)++];
			memset(p, 0, sizeof(*p));
			p->suite = rn_xstrdup(suites[i]);
			p->name = rn_xstrdup(progs[j]);
			p->path = rn_xasprintf("%s/%s", path, progs[j]);
			p->timeout_s = RN_DEFAULT_TIMEOUT_S;
		}
		rn_strv_free(progs, np);
		progs = NULL;
	}
	rn_strv_free(suites, ns);
	rn_probe_cache_attach(dir, *out, *n);
	return 0;
}

void rn_progspecs_free(struct rn_progspec *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].suite);
		free(v[i].name);
		free(v[i].path);
		rn_strv_free(v[i].cases, v[i].ncases);
		free(v[i].list_error);
		rn_buf_free(&v[i].needs);
		free(v[i].cache_list);
		free(v[i].cache_needs);
	}
	free(v);
}

char *rn_query_raw(struct rn_progspec *p, const char *opt, char **error)
{
	char *argv[3] = { NULL, NULL, NULL };
	struct rn_child_end end;
	struct rn_buf out = { 0 };
	char status[64];
	int r;

	*error = NULL;
	argv[0] = p->path;
	argv[1] = (char *)opt;
	r = rn_child_capture(argv, RN_QUERY_MS, &out, &end);
	if (r < 0) {
		*error = rn_xasprintf("cannot run '%s %s': %s", p->path, opt,
				      strerror(-r));
	} else if (end.how != RN_EXITED || end.code) {
		rn_child_status(&end, status, sizeof(status));
		*error = rn_xasprintf("'%s %s' failed (%s); run it by hand to see why",
				      p->path, opt, status);
	}
	if (*error) {
		rn_buf_free(&out);
		return NULL;
	}
	return out.s ? out.s : rn_xstrdup("");
}

static char *query(struct rn_progspec *p, const char *opt, char **error)
{
	char *out = rn_probe_cache_get(p, opt);

	*error = NULL;
	if (out) {
		p->cached = true;
		return out;
	}
	return rn_query_raw(p, opt, error);
}

void rn_query_list(struct rn_progspec *p, const char *glob)
{
	char *out, *line, *save = NULL;

	out = query(p, "--list", &p->list_error);
	p->list_ok = out != NULL;
	if (!out)
		return;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!line[0] || line[0] == '#')
			continue;
		if (glob && !rn_glob_match(glob, p->suite, p->name, line))
			continue;
		rn_strv_push(&p->cases, &p->ncases, line);
	}
	free(out);
}

void rn_query_needs(struct rn_progspec *p)
{
	char *out, *line, *save = NULL, *err;
	int t;

	out = query(p, "--needs", &err);
	if (!out) {
		/* The run itself will show what is wrong with it. */
		free(err);
		return;
	}
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "# NEEDS timeout_s: %d", &t) == 1 && t > 0)
			p->timeout_s = t;
		else if (rn_starts(line, "# NEEDS "))
			rn_buf_printf(&p->needs, "%s\n", line + 8);
		if (!strcmp(line, "# NEEDS sleep-scope: own-devices"))
			p->quiet = true;
	}
	free(out);
}

const char *rn_glob_case(const char *glob)
{
	const char *slash = strrchr(glob, '/');

	return slash ? slash + 1 : glob;
}

bool rn_glob_match(const char *glob, const char *suite, const char *prog,
		   const char *casename)
{
	const char *p;
	char name[1024];
	int slashes = 0;

	for (p = glob; *p; p++)
		slashes += *p == '/';
	if (slashes == 0)
		snprintf(name, sizeof(name), "%s", casename);
	else if (slashes == 1)
		snprintf(name, sizeof(name), "%s/%s", prog, casename);
	else
		snprintf(name, sizeof(name), "%s/%s/%s", suite, prog,
			 casename);
	return !fnmatch(glob, name, 0);
}
