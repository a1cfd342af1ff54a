// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare_ktap.c - `devpm compare` of KTAP from other runners
 * (ktap_summary.h): KUnit-style nesting, directives and metrics read
 * right, regressions found between two KTAP files, none between equal
 * ones, kselftest's TAP, bad input refused.
 */
#include "kselftest_harness.h"
#include "test_runner.h"
#include "json.h"
#include "ktap_summary.h"

static const char kunit_old[] =
	"[    1.0] booting\n"
	"KTAP version 1\n"
	"1..2\n"
	"    KTAP version 1\n"
	"    # Subtest: pm_suite\n"
	"    1..3\n"
	"        KTAP version 1\n"
	"        # Subtest: param_case\n"
	"        ok 1 first\n"
	"        ok 2 second\n"
	"    ok 1 param_case\n"
	"    # METRIC dev0 resume_us=2000\n"
	"    ok 2 - timed_case\n"
	"    ok 3 skipped_case # SKIP no hardware\n"
	"ok 1 pm_suite\n"
	"not ok 2 other_suite # XFAIL known bug\n";

static const char *const kunit_new_lines[][2] = {
	{ "        ok 2 second\n", "        not ok 2 second\n" },
	{ "resume_us=2000", "resume_us=2600" },
};

static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	if (!at)
		abort();
	return rn_xasprintf("%.*s%s%s", (int)(at - text), text, to,
			    at + strlen(from));
}

static const struct rn_json *entry(const struct rn_json *cases,
				   const char *suite, const char *prog,
				   const char *kase)
{
	size_t i;

	for (i = 0; i < cases->n; i++)
		if (!strcmp(rn_json_str(cases->items[i], "suite"), suite) &&
		    !strcmp(rn_json_str(cases->items[i], "program"), prog) &&
		    !strcmp(rn_json_str(cases->items[i], "case"), kase))
			return cases->items[i];
	return NULL;
}

TEST(summary_of_kunit_ktap)
{
	char err[256], *json;
	struct rn_json *j;
	const struct rn_json *cases, *e, *m;
	double v;

	ASSERT_TRUE(rn_ktap_input(kunit_old));
	ASSERT_FALSE(rn_ktap_input("{\"cases\": []}"));
	json = rn_ktap_summary(kunit_old, err, sizeof(err));
	ASSERT_NE(NULL, json) TH_LOG("%s", err);
	j = rn_json_parse(json, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s: %s", err, json);
	cases = rn_json_get(j, "cases");
	ASSERT_NE(NULL, cases);
	EXPECT_EQ(7, (int)cases->n);
	e = entry(cases, "pm_suite", "param_case", "second");
	ASSERT_NE(NULL, e);
	EXPECT_STREQ("pass", rn_json_str(e, "result"));
	e = entry(cases, "pm_suite", "timed_case", "");
	ASSERT_NE(NULL, e);
	m = rn_json_get(e, "metrics");
	ASSERT_EQ(1, (int)m->n);
	EXPECT_STREQ("dev0", rn_json_str(m->items[0], "device"));
	EXPECT_STREQ("resume_us", rn_json_str(m->items[0], "name"));
	ASSERT_TRUE(rn_json_num(m->items[0], "value", &v));
	EXPECT_EQ(2000, (int)v);
	/* The metric went to the next result only. */
	e = entry(cases, "pm_suite", "skipped_case", "");
	ASSERT_NE(NULL, e);
	EXPECT_EQ(0, (int)rn_json_get(e, "metrics")->n);
	EXPECT_STREQ("skip", rn_json_str(e, "result"));
	EXPECT_STREQ("no hardware", rn_json_str(e, "reason"));
	e = entry(cases, "other_suite", "", "");
	ASSERT_NE(NULL, e);
	EXPECT_STREQ("xfail", rn_json_str(e, "result"));
	EXPECT_STREQ("known bug", rn_json_str(e, "reason"));
	/* The log before the version line is not read. */
	EXPECT_EQ(NULL, strstr(json, "booting"));
	rn_json_free(j);
	free(json);
}

static void compare(struct tr_out *o, const char *dir, const char *old,
		    const char *new)
{
	static const char *const args[] = { "compare", "old.ktap",
					    "new.ktap", NULL };

	if (unit_put(dir, "old.ktap", old) || unit_put(dir, "new.ktap", new))
		abort();
	tr_devpm(o, dir, NULL, args);
}

TEST(compare_two_ktap_files)
{
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX], *a, *b;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	/* Negative control: the same KTAP twice, no regression. */
	compare(o, tmp, kunit_old, kunit_old);
	EXPECT_EQ(0, o->code) TH_LOG("%s%s", o->out, o->err);
	ASSERT_HAS(o->out, "0 regression(s); 7 case(s)");
	a = replace(kunit_old, kunit_new_lines[0][0], kunit_new_lines[0][1]);
	b = replace(a, kunit_new_lines[1][0], kunit_new_lines[1][1]);
	compare(o, tmp, kunit_old, b);
	EXPECT_EQ(1, o->code) TH_LOG("%s%s", o->out, o->err);
	ASSERT_HAS(o->out, "REGRESSION pm_suite/param_case/second: pass -> fail");
	ASSERT_HAS(o->out, "SLOWER pm_suite/timed_case dev0 resume_us: 2000 -> 2600 (+30%)");
	ASSERT_HAS(o->out, "2 regression(s)");
	free(a);
	free(b);
	unit_rm_rf(tmp);
	free(o);
}

/* run_kselftest.sh's TAP: one result per program. */
TEST(compare_kselftest_tap)
{
	static const char old[] =
		"TAP version 13\n1..2\n# selftests: devpm/i2c: controller\n"
		"# TAP version 13\n# ok 1 i2c.a\n"
		"ok 1 selftests: devpm/i2c: controller\n"
		"ok 2 selftests: devpm/pci: idle # SKIP\n";
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX], *new;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	new = replace(old, "ok 1 selftests: devpm/i2c: controller\n",
		      "not ok 1 selftests: devpm/i2c: controller # exit=1\n");
	compare(o, tmp, old, new);
	EXPECT_EQ(1, o->code) TH_LOG("%s%s", o->out, o->err);
	ASSERT_HAS(o->out, "REGRESSION selftests: devpm/i2c: controller/: pass -> fail: exit=1");
	ASSERT_HAS(o->out, "1 regression(s); 2 case(s)");
	free(new);
	unit_rm_rf(tmp);
	free(o);
}

/*
 * Issue #35 item 9: metric values strtod() takes but JSON does not
 * ("92.", ".5", "+5", "0x10") go out as numbers; "inf" and "nan", which
 * JSON has no word for, are dropped.  compare then reads both files.
 */
TEST(metric_values_are_json_numbers)
{
	static const char *const odd[][2] = {
		{ "92.", "92" }, { ".5", "0.5" }, { "+5", "5" },
		{ "0x10", "16" }, { "1e3", "1000" }, { "inf", NULL },
		{ "nan", NULL }, { "-inf", NULL }, { "1e999", NULL },
	};
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX], err[256], want[64], *text, *json;
	const struct rn_json *m;
	struct rn_json *j;
	size_t i;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		text = rn_xasprintf("KTAP version 1\n1..1\n# METRIC - m_us=%s\nok 1 c\n",
				    odd[i][0]);
		json = rn_ktap_summary(text, err, sizeof(err));
		ASSERT_NE(NULL, json) TH_LOG("%s", err);
		j = rn_json_parse(json, err, sizeof(err));
		ASSERT_NE(NULL, j) TH_LOG("%s: %s: %s", odd[i][0], err, json);
		m = rn_json_get(rn_json_get(j, "cases")->items[0], "metrics");
		if (odd[i][1]) {
			ASSERT_EQ(1, (int)m->n) TH_LOG("%s", odd[i][0]);
			snprintf(want, sizeof(want), "\"value\": %s}", odd[i][1]);
			ASSERT_HAS(json, want);
		} else {
			ASSERT_EQ(0, (int)m->n) TH_LOG("%s", odd[i][0]);
		}
		rn_json_free(j);
		free(json);
		/* devpm compare of a good and this one: read, no error. */
		compare(o, tmp, "KTAP version 1\n1..1\n# METRIC - m_us=1\nok 1 c\n",
			text);
		EXPECT_GE(1, o->code) TH_LOG("%s: %s%s", odd[i][0], o->out,
					     o->err);
		ASSERT_HASNT(o->err, "not valid JSON");
		free(text);
	}
	unit_rm_rf(tmp);
	free(o);
}

TEST(ktap_bad_input)
{
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX];

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	compare(o, tmp, kunit_old, "KTAP version 1\n1..0\n");
	EXPECT_EQ(2, o->code);
	ASSERT_HAS(o->err, "compare: new.ktap is KTAP with no result line");
	EXPECT_EQ(strlen(o->err) - 1, (size_t)(strchr(o->err, '\n') - o->err));
	unit_rm_rf(tmp);
	free(o);
}

TEST_HARNESS_MAIN
