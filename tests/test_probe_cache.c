// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_probe_cache.c - the recorded --list/--needs answers
 * (lib/runner/probe_cache.h): taken only while a program hashes the same,
 * ignored when written by others, a symlink or garbage; `devpm list` and
 * `devpm run` with them say and do what they say and do without.
 */
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "test_runner.h"
#include "json.h"
#include "probe_cache.h"
#include "suites.h"

struct env {
	char tmp[PATH_MAX], sdir[PATH_MAX];
	char e_suites[PATH_MAX + 32], e_journal[PATH_MAX + 32];
	const char *env[4];
};

static void setup(struct env *e)
{
	if (unit_mkdtemp(e->tmp, sizeof(e->tmp)) || tr_fake_root(e->tmp) ||
	    tr_add_prog(e->tmp, "fake", "pass", "pass") ||
	    tr_add_prog(e->tmp, "fake", "fail", "fail") ||
	    tr_add_prog(e->tmp, "other", "kernel", "kernel"))
		abort();
	snprintf(e->sdir, sizeof(e->sdir), "%s/suites", e->tmp);
	snprintf(e->e_suites, sizeof(e->e_suites), "DEVPM_SUITES_DIR=%s",
		 e->sdir);
	snprintf(e->e_journal, sizeof(e->e_journal), "DEVPM_JOURNAL_DIR=%s/j",
		 e->tmp);
	e->env[0] = e->e_suites;
	e->env[1] = e->e_journal;
	e->env[2] = "DEVPM_SYSFS_ROOT=";
	e->env[3] = NULL;
}

static struct rn_progspec *find(struct rn_progspec *p, size_t n,
				const char *suite, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(p[i].suite, suite) && !strcmp(p[i].name, name))
			return &p[i];
	return NULL;
}

/* A cache holding one entry for fake/pass with the given hash. */
static int plant(const struct env *e, const char *header, uint64_t size,
		 uint64_t hash)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "%s\nP fake/pass %llu %016llx\nL only_from_cache\nN # NEEDS timeout_s: 7\n",
		 header, (unsigned long long)size, (unsigned long long)hash);
	return unit_put(e->sdir, RN_PROBE_CACHE_FILE, text);
}

static void probe(const struct env *e, struct rn_progspec **p, size_t *n)
{
	size_t i;

	if (rn_discover(e->sdir, p, n))
		abort();
	for (i = 0; i < *n; i++) {
		rn_query_list(&(*p)[i], NULL);
		rn_query_needs(&(*p)[i]);
	}
}

/* Written by list --write-cache: the same answers, from the cache. */
TEST(written_cache_answers_as_the_programs)
{
	static const char *const wr[] = { "list", "--write-cache", NULL };
	static const char *const ls[] = { "list", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char live[65536];
	struct rn_progspec *p;
	struct env e;
	size_t n, i;

	setup(&e);
	tr_devpm(o, e.tmp, e.env, ls);
	ASSERT_EQ(0, o->code) TH_LOG("%s", o->err);
	snprintf(live, sizeof(live), "%s", o->out);
	tr_devpm(o, e.tmp, e.env, wr);
	ASSERT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "recorded the answers of 3 of 3 programs");
	tr_devpm(o, e.tmp, e.env, ls);
	ASSERT_EQ(0, o->code) TH_LOG("%s", o->err);
	EXPECT_STREQ(live, o->out);
	/* Each answer came from the cache. */
	probe(&e, &p, &n);
	ASSERT_EQ(3, n);
	for (i = 0; i < n; i++) {
		EXPECT_TRUE(p[i].cached) TH_LOG("%s/%s", p[i].suite,
						  p[i].name);
		EXPECT_EQ(1, p[i].cache_state);
	}
	EXPECT_EQ(20, find(p, n, "fake", "pass")->timeout_s);
	rn_progspecs_free(p, n);
	/* With --suite or --test it would not record every program. */
	{
		static const char *const bad[] = { "list", "--write-cache",
			"--suite", "fake", NULL };

		tr_devpm(o, e.tmp, e.env, bad);
		EXPECT_EQ(2, o->code);
		ASSERT_HAS(o->err, "leave out --suite and --test");
	}
	unit_rm_rf(e.tmp);
	free(o);
}

/* A planted answer is used with the right hash, ignored with another. */
TEST(answer_taken_only_while_the_hash_matches)
{
	char prog[PATH_MAX];
	uint64_t size, hash;
	struct rn_progspec *p, *q;
	struct env e;
	size_t n;

	setup(&e);
	snprintf(prog, sizeof(prog), "%s/fake/pass", e.sdir);
	ASSERT_EQ(0, rn_probe_hash(prog, &size, &hash));
	ASSERT_EQ(0, plant(&e, RN_PROBE_CACHE_HEADER, size, hash));
	probe(&e, &p, &n);
	q = find(p, n, "fake", "pass");
	ASSERT_EQ(1, q->ncases);
	EXPECT_STREQ("only_from_cache", q->cases[0]);
	EXPECT_EQ(7, q->timeout_s);
	/* Not recorded: asked. */
	EXPECT_FALSE(find(p, n, "fake", "fail")->cached);
	rn_progspecs_free(p, n);

	/* Negative: the program changed (another hash, another size). */
	ASSERT_EQ(0, plant(&e, RN_PROBE_CACHE_HEADER, size, hash ^ 1));
	probe(&e, &p, &n);
	q = find(p, n, "fake", "pass");
	EXPECT_EQ(-1, q->cache_state);
	EXPECT_FALSE(q->cached);
	ASSERT_EQ(2, q->ncases);
	EXPECT_STREQ("alpha", q->cases[0]);
	rn_progspecs_free(p, n);
	ASSERT_EQ(0, plant(&e, RN_PROBE_CACHE_HEADER, size + 1, hash));
	probe(&e, &p, &n);
	EXPECT_EQ(2, find(p, n, "fake", "pass")->ncases);
	rn_progspecs_free(p, n);

	/* Negative: another format version. */
	ASSERT_EQ(0, plant(&e, "devpm-probe-cache 0", size, hash));
	probe(&e, &p, &n);
	EXPECT_EQ(2, find(p, n, "fake", "pass")->ncases);
	rn_progspecs_free(p, n);
	unit_rm_rf(e.tmp);
}

/* Others could have written it, or it is a symlink: not read. */
TEST(untrusted_cache_is_ignored)
{
	static const char *const ls[] = { "list", "--suite", "fake", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char prog[PATH_MAX], file[PATH_MAX + 32];
	uint64_t size, hash;
	struct env e;

	setup(&e);
	snprintf(prog, sizeof(prog), "%s/fake/pass", e.sdir);
	snprintf(file, sizeof(file), "%s/%s", e.sdir, RN_PROBE_CACHE_FILE);
	ASSERT_EQ(0, rn_probe_hash(prog, &size, &hash));
	ASSERT_EQ(0, plant(&e, RN_PROBE_CACHE_HEADER, size, hash));
	/* Positive control: trusted, it is used. */
	tr_devpm(o, e.tmp, e.env, ls);
	ASSERT_HAS(o->out, "only_from_cache");
	ASSERT_EQ(0, chmod(file, 0666));
	tr_devpm(o, e.tmp, e.env, ls);
	EXPECT_EQ(0, o->code);
	ASSERT_HASNT(o->out, "only_from_cache");
	ASSERT_HAS(o->out, "    alpha\n");
	ASSERT_HAS(o->err, "writable by others; the programs are asked instead");
	ASSERT_EQ(0, chmod(file, 0644));
	{
		char real[PATH_MAX + 32];

		snprintf(real, sizeof(real), "%s/real-cache", e.tmp);
		ASSERT_EQ(0, rename(file, real));
		ASSERT_EQ(0, symlink(real, file));
	}
	tr_devpm(o, e.tmp, e.env, ls);
	EXPECT_EQ(0, o->code);
	ASSERT_HASNT(o->out, "only_from_cache");
	ASSERT_HAS(o->err, "a symlink; the programs are asked instead");
	unit_rm_rf(e.tmp);
	free(o);
}

/* "probe_cached" of the run's env.json and its totals. */
static void run_figures(const struct env *e, char *cached, size_t len,
			char *totals, size_t tlen)
{
	char f[PATH_MAX + 64], text[65536];
	const struct rn_json *t;
	struct rn_json *j;
	double v[4] = { -1, -1, -1, -1 };

	cached[0] = totals[0] = '\0';
	snprintf(f, sizeof(f), "%s/out/latest/env.json", e->tmp);
	if (unit_get("", f, text, sizeof(text)))
		return;
	j = rn_json_parse(text, NULL, 0);
	if (!j)
		return;
	snprintf(cached, len, "%s", rn_json_str(j, "probe_cached") ?: "");
	if (!rn_json_str(j, "probe_ms"))
		cached[0] = '\0';
	rn_json_free(j);
	snprintf(f, sizeof(f), "%s/out/latest/summary.json", e->tmp);
	if (unit_get("", f, text, sizeof(text)))
		return;
	j = rn_json_parse(text, NULL, 0);
	if (!j)
		return;
	t = rn_json_get(j, "totals");
	rn_json_num(t, "pass", &v[0]);
	rn_json_num(t, "fail", &v[1]);
	rn_json_num(t, "skip", &v[2]);
	rn_json_num(t, "not_run", &v[3]);
	snprintf(totals, tlen, "pass %g fail %g skip %g not_run %g", v[0],
		 v[1], v[2], v[3]);
	rn_json_free(j);
}

/* A run with the cache: the same results, and env.json says so. */
TEST(run_with_cache_reports_probe)
{
	static const char *const wr[] = { "list", "--write-cache", NULL };
	static const char *const run[] = { "--sysfs-root", "root", "run",
		"--suite", "fake", "--output", "out", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char cached[64], totals[128], totals0[128];
	struct env e;

	setup(&e);
	tr_devpm(o, e.tmp, e.env, run);
	EXPECT_EQ(1, o->code) TH_LOG("%s", o->err);
	run_figures(&e, cached, sizeof(cached), totals0, sizeof(totals0));
	EXPECT_STREQ("0/2", cached);
	ASSERT_HAS(totals0, "fail 2");

	tr_devpm(o, e.tmp, e.env, wr);
	ASSERT_EQ(0, o->code) TH_LOG("%s", o->err);
	sleep(1);	/* a new run id */
	tr_devpm(o, e.tmp, e.env, run);
	EXPECT_EQ(1, o->code) TH_LOG("%s", o->err);
	run_figures(&e, cached, sizeof(cached), totals, sizeof(totals));
	EXPECT_STREQ("2/2", cached);
	EXPECT_STREQ(totals0, totals);
	unit_rm_rf(e.tmp);
	free(o);
}

TEST_HARNESS_MAIN
