/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_runner.h - helpers of the runner's unit tests: feed text to the
 * parser, run build/san/devpm (DEVPM_BUILD) and capture what it prints,
 * build a suites directory of fake programs (tests/progs).
 */
#ifndef DEVPM_TEST_RUNNER_H
#define DEVPM_TEST_RUNNER_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "unit.h"
#include "model.h"
#include "parse.h"
#include "stream.h"
#include "util.h"

/* Feed text (lines) as one program's output; end it with status. */
static inline void tr_feed(struct rn_prog *p, const char *text,
			   const char *status)
{
	char *copy = rn_xstrdup(text), *line, *next;
	uint64_t ts = 1000;

	rn_prog_init(p, "pci", "x", 60, ts);
	for (line = copy; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		rn_parse_line(p, ts += 1000, line);
	}
	free(copy);
	rn_parse_end(p, ts + 1000, status, NULL);
}

static inline void tr_prog_free(struct rn_prog *p)
{
	/* The model frees programs with their run. */
	struct rn_run *r = rn_run_new();

	r->progs = rn_xmalloc(sizeof(*p));
	r->progs[0] = *p;
	r->nprogs = 1;
	rn_run_free(r);
}

/* Feed a stream text to a fresh run. */
static inline struct rn_run *tr_stream(const char *text, bool finish,
				       const char *crash)
{
	struct rn_run *r = rn_run_new();
	char *copy = rn_xstrdup(text), *line, *next;

	for (line = copy; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		rn_stream_feed(r, line);
	}
	free(copy);
	if (finish)
		rn_stream_finish(r, crash);
	return r;
}

static inline struct rn_case *tr_case(struct rn_prog *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ncases; i++)
		if (!strcmp(p->cases[i].name, name))
			return &p->cases[i];
	return NULL;
}

static inline const char *tr_build(void)
{
	const char *b = getenv("DEVPM_BUILD");

	return b && b[0] ? b : "build";
}

/*
 * Where tests/progs is: from the source tree we run in, or next to the
 * build directory.
 */
static inline const char *tr_progs(void)
{
	static char path[PATH_MAX];
	char rel[PATH_MAX];

	if (realpath("tests/progs", path))
		return path;
	snprintf(rel, sizeof(rel), "%s/../tests/progs", tr_build());
	if (realpath(rel, path))
		return path;
	return "tests/progs";
}

struct tr_out {
	int code;		/* exit code, or 128 + signal */
	long ms;		/* wall time */
	char out[65536], err[16384];
};

/*
 * Start devpm with args (NULL-terminated) and env ("KEY=VALUE" strings,
 * NULL-terminated, may be NULL), in dir, its stdout and stderr going to
 * dir/.out and dir/.err.  tr_devpm_wait() collects it.
 */
static inline pid_t tr_devpm_start(const char *dir, const char *const *env,
				   const char *const *args)
{
	char bin[PATH_MAX], rel[PATH_MAX], fout[PATH_MAX], ferr[PATH_MAX];
	const char *argv[32];
	int i, n = 0;
	pid_t pid;

	snprintf(rel, sizeof(rel), "%s/san/devpm", tr_build());
	if (!realpath(rel, bin))
		snprintf(bin, sizeof(bin), "%s", rel);
	snprintf(fout, sizeof(fout), "%s/.out", dir);
	snprintf(ferr, sizeof(ferr), "%s/.err", dir);
	argv[n++] = bin;
	for (i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		int fo = open(fout, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int fe = open(ferr, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fo < 0 || fe < 0 || chdir(dir))
			_exit(126);
		dup2(fo, 1);
		dup2(fe, 2);
		for (i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static inline void tr_devpm_wait(struct tr_out *o, const char *dir,
				 pid_t pid)
{
	char fout[PATH_MAX], ferr[PATH_MAX];
	int st = 0;

	snprintf(fout, sizeof(fout), "%s/.out", dir);
	snprintf(ferr, sizeof(ferr), "%s/.err", dir);
	if (pid > 0)
		waitpid(pid, &st, 0);
	else
		st = 127 << 8;
	o->code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (unit_get("", fout, o->out, sizeof(o->out)))
		o->out[0] = '\0';
	if (unit_get("", ferr, o->err, sizeof(o->err)))
		o->err[0] = '\0';
}

/* Run devpm to its end (see tr_devpm_start()). */
static inline void tr_devpm(struct tr_out *o, const char *dir,
			    const char *const *env, const char *const *args)
{
	struct timespec t0, t1;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = tr_devpm_start(dir, env, args);
	tr_devpm_wait(o, dir, pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	o->ms = (t1.tv_sec - t0.tv_sec) * 1000 +
		(t1.tv_nsec - t0.tv_nsec) / 1000000;
}

/* tmp/suites/<suite>/<name> -> tests/progs/<prog>.sh */
static inline int tr_add_prog(const char *tmp, const char *suite,
			      const char *name, const char *prog)
{
	char rel[PATH_MAX], target[PATH_MAX];

	snprintf(rel, sizeof(rel), "suites/%s/%s", suite, name);
	snprintf(target, sizeof(target), "%s/%s.sh", tr_progs(), prog);
	return unit_link(tmp, rel, target);
}

/* A fake sysfs root with one knob, a kernel log file and a taint file. */
static inline int tr_fake_root(const char *tmp)
{
	return unit_put(tmp, "root/sys/devices/fake0/power/control", "auto\n") ||
	       unit_put(tmp, "root/dev/kmsg", "") ||
	       unit_put(tmp, "root/proc/sys/kernel/tainted", "0\n");
}

/*
 * A tiny XML well-formedness check: tags nest, attributes are quoted,
 * '<' and '&' appear only as markup and entities.  Returns NULL or why.
 */
static inline const char *xml_check(const char *s, int *ncase, int *nfail,
			     int *nskip)
{
	const char *stack[32], *p, *name;
	size_t namelen[32];
	int depth = 0, roots = 0;

	*ncase = *nfail = *nskip = 0;
	p = strstr(s, "?>");
	if (strncmp(s, "<?xml ", 6) || !p)
		return "no XML declaration";
	for (p += 2; *p; ) {
		if (*p == '&') {
			if (strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) &&
			    strncmp(p, "&amp;", 5) && strncmp(p, "&quot;", 6) &&
			    strncmp(p, "&apos;", 6) && strncmp(p, "&#", 2))
				return "bad entity in text";
			p++;
			continue;
		}
		if (*p != '<') {
			if (!depth && *p != ' ' && *p != '\n')
				return "text outside the root";
			p++;
			continue;
		}
		p++;
		if (*p == '/') {
			name = ++p;
			while (*p && *p != '>')
				p++;
			if (!depth || (size_t)(p - name) != namelen[depth - 1] ||
			    strncmp(name, stack[depth - 1], p - name))
				return "mismatched end tag";
			depth--;
			p++;
			continue;
		}
		name = p;
		while (*p && !strchr(" />", *p))
			p++;
		if (p == name)
			return "empty tag name";
		if (!strncmp(name, "testcase ", 9))
			(*ncase)++;
		if (!strncmp(name, "failure ", 8) || !strncmp(name, "failure>", 8))
			(*nfail)++;
		if (!strncmp(name, "skipped ", 8) || !strncmp(name, "skipped/", 8) ||
		    !strncmp(name, "skipped>", 8))
			(*nskip)++;
		if (depth == 32)
			return "too deep";
		stack[depth] = name;
		namelen[depth] = p - name;
		/* attributes */
		for (;;) {
			while (*p == ' ')
				p++;
			if (*p == '>' || *p == '/')
				break;
			while (*p && *p != '=' && *p != '>')
				p++;
			if (*p != '=' || p[1] != '"')
				return "unquoted attribute";
			for (p += 2; *p && *p != '"'; p++) {
				if (*p == '<')
					return "'<' in an attribute";
				if (*p == '&' && strncmp(p, "&lt;", 4) &&
				    strncmp(p, "&gt;", 4) &&
				    strncmp(p, "&amp;", 5) &&
				    strncmp(p, "&quot;", 6) &&
				    strncmp(p, "&apos;", 6) &&
				    strncmp(p, "&#", 2))
					return "bad entity in an attribute";
			}
			if (!*p)
				return "unterminated attribute";
			p++;
		}
		if (*p == '/') {
			if (p[1] != '>')
				return "bad empty tag";
			p += 2;
			if (!depth)
				roots++;
			continue;
		}
		p++;
		if (!depth)
			roots++;
		depth++;
	}
	if (depth)
		return "unclosed element";
	return roots == 1 ? NULL : "not exactly one root element";
}

#endif
