// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_select.c - a test program's case selection (lib/harness/test.h): -t GLOB
 * and DEVPM_TEST_GLOB pick cases through the harness's registration, the
 * harness then runs those alone (its plan counts them alone), and --list
 * prints them in the order they run; DEVPM_SUBTEST_END fails a case in
 * whichever field the harness keeps results.  This is itself a devpm
 * test program: its case "selection" runs it again with a selection of
 * its other cases, which pass (sel_fails fails when run so).  It works on
 * a fake sysfs root and journal of its own (made before main, for the
 * cases run by tests/run.sh too).  Built with KSRC=<a 6.9+ tree> it
 * checks the newer harness (exit_code, its own -t/-l options) too.
 */
#include "harness/test.h"
#include "unit.h"

static const struct devpm_test_info info = {
	.suite = "unit",
	.timeout_s = 60,
};

static char tmp[UNIT_PATH_MAX];
static pid_t tmp_owner;

static void fake_env_end(void)
{
	if (getpid() == tmp_owner)
		unit_rm_rf(tmp);
}

/* A fake sysfs root and a journal directory, unless the parent made them. */
static void __attribute__((constructor)) fake_env(void)
{
	char dir[UNIT_PATH_MAX + 8];

	if (getenv("DEVPM_SYSFS_ROOT") && getenv("DEVPM_JOURNAL_DIR"))
		return;
	if (unit_mkdtemp(tmp, sizeof(tmp)) || unit_mkdir(tmp, "sys/devices"))
		abort();
	tmp_owner = getpid();
	atexit(fake_env_end);
	setenv("DEVPM_SYSFS_ROOT", tmp, 1);
	snprintf(dir, sizeof(dir), "%s/j", tmp);
	setenv("DEVPM_JOURNAL_DIR", dir, 1);
	unsetenv("DEVPM_JOURNAL");
	unsetenv("DEVPM_TEST_GLOB");
}

/*
 * This program again with args and DEVPM_TEST_GLOB=glob (unset: NULL);
 * its stdout in out, its exit status returned (-1: did not exit).
 */
static int run_self(const char *glob, const char *const *args, char *out,
		    size_t len)
{
	char *argv[8] = { "test_select" };
	size_t got = 0, i;
	int p[2], status;
	ssize_t n;
	pid_t pid;

	for (i = 0; args[i] && i < 6; i++)
		argv[i + 1] = (char *)args[i];
	if (pipe(p))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		setenv("SELECT_CHILD", "1", 1);
		if (glob)
			setenv("DEVPM_TEST_GLOB", glob, 1);
		else
			unsetenv("DEVPM_TEST_GLOB");
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(p[1]);
	while (got + 1 < len && (n = read(p[0], out + got, len - 1 - got)) > 0)
		got += n;
	out[got] = '\0';
	close(p[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The "ok"/"not ok" lines and the plan of a KTAP output, one per line. */
static void results_of(const char *ktap, char *buf, size_t len)
{
	const char *l = ktap, *e;
	size_t o = 0;

	buf[0] = '\0';
	for (; *l; l = *e ? e + 1 : e) {
		e = strchrnul(l, '\n');
		if ((strncmp(l, "ok ", 3) && strncmp(l, "not ok ", 7) &&
		     strncmp(l, "1..", 3)) || o + (e - l) + 2 > len)
			continue;
		memcpy(buf + o, l, e - l);
		o += e - l;
		buf[o++] = '\n';
		buf[o] = '\0';
	}
}

/* The cases to select from: they pass. */
TEST(sel_alpha)
{
}

FIXTURE(sel) {
	int unused;
};

FIXTURE_SETUP(sel)
{
}

FIXTURE_TEARDOWN(sel)
{
}

TEST_F(sel, sel_beta)
{
}

TEST(sel_beta_two)
{
}

/*
 * Run alone by "selection": a device failed, so DEVPM_SUBTEST_END fails the
 * case, whichever field the harness keeps results in.  Otherwise passes.
 */
TEST(sel_fails)
{
	struct devpm_subtest sub;

	if (!getenv("SELECT_CHILD"))
		return;
	devpm_subtest_begin(&sub, "sel_fails");
	devpm_subtest_fail(&sub, "dev0", "planted failure");
	DEVPM_SUBTEST_END(&sub);
}

TEST(selection)
{
	const char *const list[] = { "--list", NULL };
	const char *const list_b[] = { "--list", "-t", "sel_b*", NULL };
	const char *const fails[] = { "-t", "sel_fails", NULL };
	const char *const none[] = { "-t", "no_such_case", NULL };
	const char *const no_args[] = { NULL };
	char out[8192], res[2048];

	/* Run again by itself: no glob selects it (and no recursion). */
	ASSERT_EQ(NULL, getenv("SELECT_CHILD")) {
		TH_LOG("selection ran though no glob selects it");
	}
	/* Every case, in the harness's order: global fixture first. */
	ASSERT_EQ(0, run_self(NULL, list, out, sizeof(out)));
	EXPECT_STREQ("sel_alpha\nsel_beta_two\nsel_fails\nselection\nsel_beta\n",
		     out);

	/* -t GLOB: the names it matches, from either fixture. */
	ASSERT_EQ(0, run_self(NULL, list_b, out, sizeof(out)));
	EXPECT_STREQ("sel_beta_two\nsel_beta\n", out);

	/* The runner's DEVPM_TEST_GLOB: only those run, the plan says 2. */
	ASSERT_EQ(0, run_self("sel_beta*", no_args, out, sizeof(out)));
	results_of(out, res, sizeof(res));
	EXPECT_STREQ("1..2\nok 1 global.sel_beta_two\nok 2 sel.sel_beta\n",
		     res) {
		TH_LOG("output:\n%s", out);
	}

	/* One exact name, as `devpm run suite/program/case` gives it. */
	ASSERT_EQ(0, run_self("sel_alpha", no_args, out, sizeof(out)));
	results_of(out, res, sizeof(res));
	EXPECT_STREQ("1..1\nok 1 global.sel_alpha\n", res);

	/* A failed device fails the case, and the program. */
	EXPECT_EQ(1, run_self(NULL, fails, out, sizeof(out)));
	results_of(out, res, sizeof(res));
	EXPECT_STREQ("1..1\nnot ok 1 global.sel_fails\n", res);

	/* Nothing matches: nothing runs (not everything). */
	run_self(NULL, none, out, sizeof(out));
	results_of(out, res, sizeof(res));
	EXPECT_STREQ("1..0\n", res);
}

DEVPM_TEST_MAIN(info)
