// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runner_run.c - `devpm run` (build/san/devpm) against fake test
 * programs (tests/progs) in a temporary suites directory, a fake sysfs
 * root and a private journal: results read back from every output, the
 * timeout, leftover processes, the journal restore, bad input.
 */
#include <dirent.h>

#include "devpm.h"
#include "kselftest_harness.h"
#include "test_runner.h"
#include "json.h"
#include "ktap.h"
#include "output.h"

struct env {
	char tmp[PATH_MAX];
	char tag[64];
	char e_suites[PATH_MAX + 32], e_journal[PATH_MAX + 32];
	char e_tag[96];
	const char *env[5];
};

static void setup(struct env *e, bool all)
{
	static const char *const fake[] = { "pass", "fail", "needs", "hang",
		"crash", "knob", NULL };
	int i;

	if (unit_mkdtemp(e->tmp, sizeof(e->tmp)) || tr_fake_root(e->tmp))
		abort();
	for (i = 0; fake[i]; i++)
		if ((all || !strcmp(fake[i], "pass") ||
		     !strcmp(fake[i], "fail")) &&
		    tr_add_prog(e->tmp, "fake", fake[i], fake[i]))
			abort();
	if (tr_add_prog(e->tmp, "other", "kernel", "kernel"))
		abort();
	snprintf(e->tag, sizeof(e->tag), "devpm-fake-%d-%ld", (int)getpid(),
		 (long)time(NULL));
	snprintf(e->e_suites, sizeof(e->e_suites), "DEVPM_SUITES_DIR=%s/suites",
		 e->tmp);
	snprintf(e->e_journal, sizeof(e->e_journal), "DEVPM_JOURNAL_DIR=%s/j",
		 e->tmp);
	snprintf(e->e_tag, sizeof(e->e_tag), "DEVPM_FAKE_TAG=%s", e->tag);
	e->env[0] = e->e_suites;
	e->env[1] = e->e_journal;
	e->env[2] = e->e_tag;
	e->env[3] = "DEVPM_SYSFS_ROOT=";
	e->env[4] = NULL;
}

/* Processes whose command line holds tag. */
static int tagged(const char *tag)
{
	char path[64], buf[4096];
	struct dirent *de;
	int n = 0, fd, i;
	ssize_t len;
	DIR *d = opendir("/proc");

	while (d && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		for (i = 0; i < len; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[len > 0 ? len : 0] = '\0';
		n += strstr(buf, tag) != NULL;
	}
	if (d)
		closedir(d);
	return n;
}

static const struct rn_ktap *node(const struct rn_ktap *k, const char *s,
				  const char *p, const char *c)
{
	k = rn_ktap_kid(rn_ktap_kid(k, s), p);
	return c ? rn_ktap_kid(k, c) : k;
}

static const struct rn_json *json_case(const struct rn_json *cases,
				       const char *prog, const char *c)
{
	size_t i;

	for (i = 0; i < cases->n; i++)
		if (!strcmp(rn_json_str(cases->items[i], "program"), prog) &&
		    !strcmp(rn_json_str(cases->items[i], "case"), c))
			return cases->items[i];
	return NULL;
}

TEST(run_fake_suites)
{
	static const char *const args[] = { "--sysfs-root", "root", "run", "--output",
		"res", "--env", "lab=unit", NULL };
	const char *coll[] = { "collect", NULL, "--output", "again", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char *buf = rn_xmalloc(1 << 20), *buf2 = rn_xmalloc(1 << 20);
	char err[256], stream[PATH_MAX];
	const struct rn_ktap *n;
	const struct rn_json *cases, *c;
	struct rn_ktap *k;
	struct rn_json *j;
	struct env e;
	int x, f, s;

	setup(&e, true);
	tr_devpm(o, e.tmp, e.env, args);
	EXPECT_EQ(1, o->code) TH_LOG("%s", o->err);
	/* The hang program's timeout is 2 s: the run ends soon after. */
	EXPECT_LT(o->ms, 15000);
	EXPECT_GE(o->ms, 2000);
	/* Nothing of the hang program survives, grandchild included. */
	EXPECT_EQ(0, tagged(e.tag));
	/* The knob the killed program wrote is back. */
	ASSERT_EQ(0, unit_get(e.tmp, "root/sys/devices/fake0/power/control",
			      buf, 1 << 20));
	EXPECT_EQ(0, strncmp(buf, "auto", 4)) TH_LOG("control: %s", buf);
	ASSERT_EQ(0, unit_get(e.tmp, "j/journal", buf, 1 << 20));
	EXPECT_STREQ("", buf);
	/* One progress line per program. */
	ASSERT_HAS(o->err, "[1/7] fake/crash");
	ASSERT_HAS(o->err, "[7/7] other/kernel");
	ASSERT_HAS(o->err, "results in res/");

	/* results.ktap: the same as stdout, and valid KTAP. */
	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/results.ktap", buf,
			      1 << 20));
	EXPECT_STREQ(o->out, buf);
	k = rn_ktap_parse(buf, err, sizeof(err));
	ASSERT_NE(NULL, k) TH_LOG("%s\n%s", err, buf);
	EXPECT_EQ(RN_FAIL, rn_ktap_kid(k, "fake")->result);
	EXPECT_EQ(RN_PASS, node(k, "fake", "pass", NULL)->result);
	n = node(k, "fake", "pass", "alpha");
	ASSERT_NE(NULL, n);
	ASSERT_EQ(2, n->nkids);
	EXPECT_EQ(RN_SKIP, n->kids[1].result);
	EXPECT_STREQ("no PM capability", n->kids[1].reason);
	n = node(k, "fake", "fail", "broken");
	EXPECT_EQ(RN_FAIL, n->result);
	EXPECT_STREQ("0000:00:03.0: still active after 1200 ms: control=on",
		     n->reason);
	n = node(k, "fake", "fail", "asserts");
	EXPECT_STREQ("Expected usage (2) == 0 (0) (fake.c:77)", n->reason);
	n = node(k, "fake", "needs", NULL);
	EXPECT_EQ(RN_SKIP, n->result);
	EXPECT_STREQ("no CONFIG_FAKE_THING", n->reason);
	n = node(k, "fake", "hang", "stuck");
	EXPECT_EQ(RN_FAIL, n->result);
	EXPECT_STREQ("timeout after 2 s", n->reason);
	EXPECT_EQ(RN_NOT_RUN, node(k, "fake", "hang", "later")->result);
	ASSERT_HAS(buf, "# not run: later");
	EXPECT_EQ(RN_PASS, node(k, "fake", "crash", "fine")->result);
	n = node(k, "fake", "crash", "boom");
	EXPECT_STREQ("program killed by signal 11 (SIGSEGV)", n->reason);
	n = node(k, "fake", "knob", "writer");
	EXPECT_STREQ("program killed by signal 9 (SIGKILL)", n->reason);
	ASSERT_HAS(buf, "# restored 1 knob(s) the program left changed");
	/*
	 * The warning fails its program, and its case when it was read
	 * while the case ran: the fake kernel log is a regular file, read
	 * with each chunk of output rather than polled, so the program's
	 * lines may all come first.  test_runner_stream checks the exact
	 * charging of kernel lines.
	 */
	EXPECT_EQ(RN_FAIL, node(k, "other", "kernel", NULL)->result);
	EXPECT_EQ(RN_XFAIL, node(k, "other", "kernel", "known")->result);
	ASSERT_HAS(buf, "kernel: WARNING: CPU: 0 PID: 1 at drivers/base/power/runtime.c:1234 rpm_fake");
	/* The whole tree against the baseline, after the last program. */
	n = node(k, "baseline", "final_recheck", "devices_at_baseline");
	ASSERT_NE(NULL, n);
	EXPECT_EQ(RN_PASS, n->result) TH_LOG("%s", n->reason);
	EXPECT_TRUE(unit_exists(e.tmp, "res/latest/baseline.tsv"));
	rn_ktap_free(k);

	/* junit.xml */
	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/junit.xml", buf, 1 << 20));
	EXPECT_EQ(NULL, xml_check(buf, &x, &f, &s));
	/*
	 * pass 2, fail 2, needs 1, hang 2 (later not run), crash 2, knob 1,
	 * kernel 3 (+1 for a kernel problem outside its cases), the final
	 * re-check 1
	 */
	EXPECT_GE(x, 14);
	EXPECT_LE(x, 15);
	EXPECT_EQ(2, s);
	ASSERT_HAS(buf, "classname=\"devpm.fake.hang\" name=\"stuck\"");

	/* summary.json */
	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/summary.json", buf,
			      1 << 20));
	j = rn_json_parse(buf, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s", err);
	cases = rn_json_get(j, "cases");
	ASSERT_NE(NULL, cases);
	EXPECT_EQ((size_t)x, cases->n);
	c = json_case(cases, "pass", "alpha");
	ASSERT_NE(NULL, c);
	EXPECT_STREQ("pass", rn_json_str(c, "result"));
	EXPECT_EQ(2, rn_json_get(c, "metrics")->n);
	EXPECT_STREQ("resume_us", rn_json_str(rn_json_get(c, "metrics")->items[0],
					      "name"));
	c = json_case(cases, "needs", "never");
	ASSERT_NE(NULL, c);
	EXPECT_STREQ("skip", rn_json_str(c, "result"));
	c = json_case(cases, "hang", "stuck");
	ASSERT_NE(NULL, c);
	EXPECT_STREQ("fail", rn_json_str(c, "result"));
	c = json_case(cases, "hang", "later");
	ASSERT_NE(NULL, c);
	EXPECT_STREQ("not_run", rn_json_str(c, "result"));
	rn_json_free(j);

	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/env.json", buf, 1 << 20));
	j = rn_json_parse(buf, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s", err);
	EXPECT_STREQ("unit", rn_json_str(j, "lab"));
	EXPECT_STREQ(DEVPM_VERSION, rn_json_str(j, "devpm_version"));
	ASSERT_NE(NULL, rn_json_str(j, "config_hash"));
	ASSERT_NE(NULL, rn_json_str(j, "kernel_release"));
	rn_json_free(j);
	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/dmesg.log", buf, 1 << 20));
	ASSERT_HAS(buf, "] BAD WARNING: CPU: 0 PID: 1");
	ASSERT_HAS(buf, "] BAD new taint W\n");

	/* One runner: collecting its stream gives the same results. */
	snprintf(stream, sizeof(stream), "%s/res/latest/stream.log", e.tmp);
	coll[1] = stream;
	tr_devpm(o, e.tmp, e.env, coll);
	EXPECT_EQ(1, o->code) TH_LOG("%s", o->err);
	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/summary.json", buf,
			      1 << 20));
	ASSERT_EQ(0, unit_get(e.tmp, "again/latest/summary.json", buf2,
			      1 << 20));
	EXPECT_STREQ(strstr(buf, "\"cases\""), strstr(buf2, "\"cases\""));
	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/junit.xml", buf, 1 << 20));
	ASSERT_EQ(0, unit_get(e.tmp, "again/latest/junit.xml", buf2,
			      1 << 20));
	EXPECT_STREQ(buf, buf2);

	unit_rm_rf(e.tmp);
	free(buf);
	free(buf2);
	free(o);
}

TEST(test_glob_selects)
{
	static const char *const one[] = { "run", "--output", "res", "--test",
		"pass/alpha", NULL };
	static const char *const byname[] = { "run", "--output", "res", "--suite", "fake",
		"--test", "b*", NULL };
	static const char *const none[] = { "run", "--output", "res", "--test", "nomatch",
		NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char buf[65536];
	struct env e;

	setup(&e, false);
	tr_devpm(o, e.tmp, e.env, one);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "ok 1 alpha");
	ASSERT_HASNT(o->out, "beta");
	ASSERT_HASNT(o->out, "broken");
	ASSERT_HAS(o->err, "[1/1] fake/pass");
	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/env.json", buf,
			      sizeof(buf)));
	ASSERT_HAS(buf, "\"opt_test\": \"pass/alpha\"");

	/* The case part reaches the program: beta and broken run. */
	tr_devpm(o, e.tmp, e.env, byname);
	EXPECT_EQ(1, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "ok 1 beta");
	ASSERT_HAS(o->out, "not ok 1 broken");
	ASSERT_HASNT(o->out, "alpha");
	ASSERT_HASNT(o->out, "asserts");
	ASSERT_HASNT(o->out, "kernel");

	tr_devpm(o, e.tmp, e.env, none);
	EXPECT_EQ(2, o->code);
	ASSERT_HAS(o->err, "no case matches --test 'nomatch'");
	unit_rm_rf(e.tmp);
	free(o);
}

TEST(all_skip_exits_4)
{
	static const char *const skip[] = { "run", "--output", "res", "--test",
		"needs/*", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	struct env e;

	setup(&e, true);
	tr_devpm(o, e.tmp, e.env, skip);
	/* Only the final re-check passed: nothing was tested. */
	EXPECT_EQ(4, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->err, "[1/1] fake/needs               skip    0 pass 1 skip");
	ASSERT_HAS(o->err, "s: no CONFIG_FAKE_THING\n");
	ASSERT_HAS(o->err, "devpm: nothing was tested: 1 program skipped: no CONFIG_FAKE_THING (1)\n");
	ASSERT_HAS(o->out, "ok 1 never # SKIP no CONFIG_FAKE_THING");
	unit_rm_rf(e.tmp);
	free(o);
}

/* Wait, with back-off and a bound, until path holds text. */
static bool wait_for_text(const char *path, const char *text, int ms)
{
	char *buf = rn_xmalloc(1 << 16);
	int waited = 0, step = 1;
	bool found = false;

	while (!found && waited < ms) {
		found = !unit_get("", path, buf, 1 << 16) && strstr(buf, text);
		if (!found) {
			usleep(step * 1000);
			waited += step;
			step = step < 128 ? step * 2 : 128;
		}
	}
	free(buf);
	return found;
}

TEST(sigint_writes_results)
{
	static const char *const args[] = { "run", "--output", "res",
		"--timeout", "100", "--stream", "copy.stream", "--test",
		"hang/*", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char *a = rn_xmalloc(1 << 20), *b = rn_xmalloc(1 << 20);
	char path[PATH_MAX + 16];
	struct env e;
	pid_t pid;

	setup(&e, true);
	pid = tr_devpm_start(e.tmp, e.env, args);
	ASSERT_GT(pid, 0);
	/* The stream says when the case runs: then interrupt. */
	snprintf(path, sizeof(path), "%s/copy.stream", e.tmp);
	EXPECT_TRUE(wait_for_text(path, "RUN           fake.stuck", 20000));
	kill(pid, SIGINT);
	tr_devpm_wait(o, e.tmp, pid);
	EXPECT_EQ(1, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->err, "interrupted by signal 2");
	ASSERT_HAS(o->out, "# run interrupted by signal 2 (SIGINT)\n        not ok 1 stuck");
	EXPECT_EQ(0, tagged(e.tag));
	/* --stream gets exactly what stream.log gets. */
	ASSERT_EQ(0, unit_get(e.tmp, "copy.stream", a, 1 << 20));
	ASSERT_EQ(0, unit_get(e.tmp, "res/latest/stream.log", b, 1 << 20));
	EXPECT_STREQ(a, b);
	ASSERT_HAS(a, "\nDONE ");
	unit_rm_rf(e.tmp);
	free(a);
	free(b);
	free(o);
}

/* Each refusal: exit 2, one line on stderr, no run directory. */
static void refused(struct __test_metadata *_metadata, struct env *e,
		    const char *const *args, const char *msg)
{
	struct tr_out *o = rn_xmalloc(sizeof(*o));

	tr_devpm(o, e->tmp, e->env, args);
	EXPECT_EQ(2, o->code) TH_LOG("%s: %s", args[0], o->err);
	ASSERT_HAS(o->err, msg);
	EXPECT_EQ(strlen(o->err), (size_t)(strchr(o->err, '\n') - o->err + 1));
	EXPECT_FALSE(unit_exists(e->tmp, "res"));
	free(o);
}

TEST(bad_input)
{
	static const char *const usuite[] = { "run", "--output", "res", "--suite", "nope",
		NULL };
	static const char *const noroot[] = { "--sysfs-root", "missing", "run", "--output",
		"res", NULL };
	static const char *const fileroot[] = { "--sysfs-root", "file", "run", "--output",
		"res", NULL };
	static const char *const badopt[] = { "run", "--output", "res", "--frob", NULL };
	static const char *const badto[] = { "run", "--output", "res", "--timeout", "0",
		NULL };
	static const char *const badcmd[] = { "frobnicate", NULL };
	static const char *const nodev[] = { "why", "/sys/devices/no/such/device", NULL };
	static const char *const outdev[] = { "why", "/etc", NULL };
	static const char *const badout[] = { "run", "--output", "file", NULL };
	static const char *const locked[] = { "run", "--output", "res", NULL };
	static const char *const list[] = { "list", "--suite", "nope", NULL };
	static const char *const emptyroot[] = { "--sysfs-root=", "run", "--output",
		"res", NULL };
	/* Issue #35 item 11: each says what is wrong, before the run. */
	static const char *const notdir[] = { "run", "--output", "/etc/passwd/x",
		NULL };
	const char *longout[] = { "run", "--output", NULL, NULL };
	static const char *const dirstream[] = { "run", "--output", "res",
		"--stream", "/tmp", NULL };
	char jdir[PATH_MAX + 8], *huge;
	struct env e;

	setup(&e, false);
	ASSERT_EQ(0, unit_put(e.tmp, "file", "x"));
	refused(_metadata, &e, notdir,
		"--output /etc/passwd/x: /etc/passwd is not a directory; ");
	huge = rn_xmalloc(100001);
	memset(huge, 'o', 100000);
	huge[100000] = '\0';
	longout[2] = huge;
	refused(_metadata, &e, longout, "longer than 4095 bytes; give a shorter --output");
	free(huge);
	refused(_metadata, &e, dirstream, "--stream /tmp: /tmp is a directory; ");
	refused(_metadata, &e, usuite,
		"unknown suite 'nope'; known suites: fake, other");
	refused(_metadata, &e, noroot, "--sysfs-root missing: No such file");
	refused(_metadata, &e, fileroot, "--sysfs-root file is not a directory");
	refused(_metadata, &e, badopt, "unknown option '--frob'");
	refused(_metadata, &e, badto, "--timeout '0'");
	refused(_metadata, &e, badcmd, "unknown command 'frobnicate'");
	refused(_metadata, &e, nodev, "/sys/devices/no/such/device");
	refused(_metadata, &e, outdev, "/etc");
	refused(_metadata, &e, badout, "--output file is not a directory");
	refused(_metadata, &e, list, "unknown suite 'nope'");
	/* Empty is a mistake, not the real /sys. */
	refused(_metadata, &e, emptyroot, "--sysfs-root needs a directory (it was empty)");

	/* Another run holds the journal's lock: this one changes nothing. */
	snprintf(jdir, sizeof(jdir), "%s/j", e.tmp);
	ASSERT_EQ(0, devpm_journal_open_owner(jdir));
	refused(_metadata, &e, locked, "holds");
	devpm_journal_close();
	unit_rm_rf(e.tmp);
}

TEST(restore_command)
{
	static const char *const args[] = { "--sysfs-root", "root", "restore", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char rec[PATH_MAX * 2], buf[256];
	struct env e;

	setup(&e, false);
	/* What a SIGKILLed run leaves: a record and the knob changed. */
	snprintf(buf, sizeof(buf), "%s/root", e.tmp);
	snprintf(rec, sizeof(rec), "%sW %s/root/sys/devices/fake0/power/control\tauto\n",
		 unit_journal_header(buf), e.tmp);
	ASSERT_EQ(0, unit_put(e.tmp, "j/journal", rec));
	ASSERT_EQ(0, unit_put(e.tmp, "root/sys/devices/fake0/power/control",
			      "on\n"));
	tr_devpm(o, e.tmp, e.env, args);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "restored 1 knob(s)");
	ASSERT_EQ(0, unit_get(e.tmp, "root/sys/devices/fake0/power/control",
			      buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "auto", 4)) TH_LOG("control: %s", buf);
	/* Negative control: nothing left the second time. */
	tr_devpm(o, e.tmp, e.env, args);
	EXPECT_EQ(0, o->code);
	ASSERT_HAS(o->out, "nothing to restore");
	unit_rm_rf(e.tmp);
	free(o);
}

TEST(list_command)
{
	static const char *const args[] = { "list", NULL };
	static const char *const glob[] = { "list", "--test", "a*", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	struct env e;

	setup(&e, true);
	tr_devpm(o, e.tmp, e.env, args);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "fake/hang (timeout 2 s): runs here\n    stuck\n    later\n");
	ASSERT_HAS(o->out, "fake/needs (timeout 20 s): ");
	ASSERT_HAS(o->out, "\n    needs kconfig: CONFIG_FAKE_THING  ");
	ASSERT_HAS(o->out, "\n    never\n");
	ASSERT_HAS(o->out, "other/kernel (timeout 20 s): runs here\n");
	tr_devpm(o, e.tmp, e.env, glob);
	EXPECT_EQ(0, o->code);
	ASSERT_HAS(o->out, "fake/fail (timeout 20 s): runs here\n    asserts\n");
	ASSERT_HAS(o->out, "    alpha\n");
	ASSERT_HASNT(o->out, "beta");
	ASSERT_HASNT(o->out, "fake/hang");
	unit_rm_rf(e.tmp);
	free(o);
}

TEST(audit_recorded_tree)
{
	const char *args[] = { "--sysfs-root", NULL, "audit", NULL };
	const char *why[] = { "--sysfs-root", NULL, "why", "0000:00:01.0",
		NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char root[PATH_MAX], *line;
	int pci = 0;

	if (!realpath("fixtures/sysfs/host-vm", root))
		SKIP(return, "fixtures/sysfs/host-vm not found from %s",
		     getcwd(root, sizeof(root)) ? root : "?");
	args[1] = root;
	why[1] = root;
	tr_devpm(o, "/tmp", NULL, args);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	/* Every PCI device that is not suspended has its reasons. */
	for (line = strtok(o->out, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "pci ", 4))
			continue;
		pci++;
		if (strstr(line, " suspended"))
			continue;
		ASSERT_HAS(line, "active  ");
		ASSERT_HAS(line, "CONFIG_PM_ADVANCED_DEBUG");
	}
	EXPECT_GT(pci, 0);
	tr_devpm(o, "/tmp", NULL, why);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "not suspended because:\n  - ");
	free(o);
}

/*
 * The runner SIGKILLed at a random moment while a case writes a knob in
 * a loop from a process of its own: `devpm restore` ends the program and
 * its case, then puts the knob back, 20 times out of 20 (issue #12).
 */
TEST(sigkill_at_random_moments_is_restored)
{
	static const char *const run[] = { "--sysfs-root", "root", "run",
		"--output", "res", "--test", "loop/*", NULL };
	static const char *const restore[] = { "--sysfs-root", "root",
		"restore", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	int trial, good = 0, changed = 0, ms;
	char buf[64], later[64];
	struct env e;
	pid_t pid;

	setup(&e, false);
	ASSERT_EQ(0, tr_add_prog(e.tmp, "fake", "loop", "loop"));
	srand(getpid());
	for (trial = 0; trial < 20; trial++) {
		ASSERT_EQ(0, unit_put(e.tmp,
			"root/sys/devices/fake0/power/autosuspend_delay_ms",
			"1000\n"));
		pid = tr_devpm_start(e.tmp, e.env, run);
		ASSERT_GT(pid, 0);
		ms = rand() % 600;
		usleep(ms * 1000);
		kill(pid, SIGKILL);
		tr_devpm_wait(o, e.tmp, pid);
		ASSERT_EQ(0, unit_get(e.tmp,
			"root/sys/devices/fake0/power/autosuspend_delay_ms",
			buf, sizeof(buf)));
		changed += strncmp(buf, "1000", 4) != 0;
		tr_devpm(o, e.tmp, e.env, restore);
		EXPECT_EQ(0, o->code) TH_LOG("trial %d: %s", trial, o->err);
		ASSERT_EQ(0, unit_get(e.tmp,
			"root/sys/devices/fake0/power/autosuspend_delay_ms",
			buf, sizeof(buf)));
		/* Nothing writes after restore: still 1000 a moment later. */
		usleep(100000);
		ASSERT_EQ(0, unit_get(e.tmp,
			"root/sys/devices/fake0/power/autosuspend_delay_ms",
			later, sizeof(later)));
		if (!strncmp(buf, "1000", 4) && !strncmp(later, "1000", 4) &&
		    !tagged(e.tag))
			good++;
		else
			TH_LOG("trial %d (kill after %d ms): %s then %s, %d left",
			       trial, ms, buf, later, tagged(e.tag));
	}
	TH_LOG("%d of 20 restored; the knob was changed at the kill in %d",
	       good, changed);
	EXPECT_EQ(20, good);
	/* Negative control: the writer did run and change it. */
	EXPECT_LT(0, changed);
	unit_rm_rf(e.tmp);
	free(o);
}

/* As root, results never go into a directory another user owns. */
TEST(output_of_another_user_is_refused_as_root)
{
	static const char *const args[] = { "--sysfs-root", "root", "run",
		"--output", "userres", "--test", "pass/*", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char path[PATH_MAX + 16];
	struct env e;

	if (geteuid())
		SKIP(return, "needs root: the refusal is for root");
	setup(&e, false);
	snprintf(path, sizeof(path), "%s/userres", e.tmp);
	ASSERT_EQ(0, mkdir(path, 0755));
	ASSERT_EQ(0, chown(path, 12345, 12345));
	tr_devpm(o, e.tmp, e.env, args);
	EXPECT_EQ(2, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->err, "--output userres: ");
	ASSERT_HAS(o->err, "/userres belongs to uid 12345");
	EXPECT_FALSE(unit_exists(e.tmp, "userres/latest"));
	/* Negative control: root's own directory is used. */
	ASSERT_EQ(0, chown(path, 0, 0));
	tr_devpm(o, e.tmp, e.env, args);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	EXPECT_TRUE(unit_exists(e.tmp, "userres/latest/summary.json"));
	unit_rm_rf(e.tmp);
	free(o);
}

/*
 * The run directory renamed away and replaced by one holding
 * summary.json -> victim: the result still lands in devpm's directory
 * (written through its descriptor, O_EXCL | O_NOFOLLOW), never in victim.
 */
TEST(planted_result_symlink_is_not_followed)
{
	char tmp[PATH_MAX], out[PATH_MAX + 8], dir[PATH_MAX + 64];
	char id[128], path[PATH_MAX + 64], moved[PATH_MAX + 64], buf[64];
	int fd;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	ASSERT_EQ(0, unit_put(tmp, "victim", "secret\n"));
	snprintf(out, sizeof(out), "%s/res", tmp);
	fd = rn_run_dir(out, "run1", dir, sizeof(dir), id, sizeof(id));
	ASSERT_LE(0, fd);
	ASSERT_STREQ("run1", id);
	snprintf(moved, sizeof(moved), "%s/moved", out);
	ASSERT_EQ(0, rename(dir, moved));
	ASSERT_EQ(0, mkdir(dir, 0755));
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	snprintf(buf, sizeof(buf), "%s/victim", tmp);
	ASSERT_EQ(0, symlink(buf, path));
	ASSERT_EQ(0, rn_result_put(fd, "summary.json", "{}\n", 3));
	ASSERT_EQ(0, unit_get(tmp, "victim", buf, sizeof(buf)));
	ASSERT_STREQ("secret\n", buf);
	ASSERT_EQ(0, unit_get(out, "moved/summary.json", buf, sizeof(buf)));
	ASSERT_STREQ("{}\n", buf);
	/* A name planted in devpm's own directory: EEXIST, not followed. */
	snprintf(path, sizeof(path), "%s/env.json", moved);
	snprintf(buf, sizeof(buf), "%s/victim", tmp);
	ASSERT_EQ(0, symlink(buf, path));
	ASSERT_EQ(-EEXIST, rn_result_put(fd, "env.json", "{}\n", 3));
	ASSERT_EQ(0, unit_get(tmp, "victim", buf, sizeof(buf)));
	ASSERT_STREQ("secret\n", buf);
	close(fd);
	unit_rm_rf(tmp);
}

/*
 * Issue #35 item 4: the run directory swapped for one holding
 * baseline.tsv -> another run's baseline after devpm made it: the
 * baseline lands in devpm's directory, written through its descriptor.
 */
TEST(baseline_written_through_the_run_dir)
{
	char tmp[PATH_MAX], out[PATH_MAX + 8], dir[PATH_MAX + 64];
	char id[128], path[PATH_MAX + 64], moved[PATH_MAX + 64], buf[256];
	struct devpm_baseline b = { 0 };
	struct stat st;
	int fd;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	ASSERT_EQ(0, unit_put(tmp, "other/baseline.tsv", "victim\n"));
	snprintf(out, sizeof(out), "%s/res", tmp);
	fd = rn_run_dir(out, "run1", dir, sizeof(dir), id, sizeof(id));
	ASSERT_LE(0, fd);
	snprintf(moved, sizeof(moved), "%s/moved", out);
	ASSERT_EQ(0, rename(dir, moved));
	ASSERT_EQ(0, mkdir(dir, 0755));
	snprintf(path, sizeof(path), "%s/baseline.tsv", dir);
	snprintf(buf, sizeof(buf), "%s/other/baseline.tsv", tmp);
	ASSERT_EQ(0, symlink(buf, path));
	ASSERT_EQ(0, devpm_baseline_write_at(&b, fd, DEVPM_BASELINE_FILE));
	ASSERT_EQ(0, unit_get(tmp, "other/baseline.tsv", buf, sizeof(buf)));
	ASSERT_STREQ("victim\n", buf);
	ASSERT_EQ(0, unit_get(out, "moved/baseline.tsv", buf, sizeof(buf)));
	ASSERT_HAS(buf, "# devpm baseline 1");
	/* By name: the link is replaced (renamed over), never followed. */
	ASSERT_EQ(0, devpm_baseline_write(&b, path));
	ASSERT_EQ(0, unit_get(tmp, "other/baseline.tsv", buf, sizeof(buf)));
	ASSERT_STREQ("victim\n", buf);
	ASSERT_EQ(0, lstat(path, &st));
	ASSERT_TRUE(S_ISREG(st.st_mode));
	close(fd);
	unit_rm_rf(tmp);
}

/* devpm itself: exit 2 with one line for a journal it must not trust. */
TEST(untrusted_or_garbage_journal_exits_2)
{
	static const char *const restore[] = { "--sysfs-root", "root",
		"restore", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char path[PATH_MAX + 16], link[PATH_MAX + 16], *junk;
	struct env e;

	setup(&e, false);
	snprintf(path, sizeof(path), "%s/j", e.tmp);
	ASSERT_EQ(0, mkdir(path, 0700));
	/*
	 * A symlink in its place (root's own: DEVPM_JOURNAL_DIR passes the
	 * rule of paths, the journal's directory may not be a link at all).
	 * Another user's directory is ignored as root and the default used:
	 * test_journal_trust.c, tests/root_safety.sh.
	 */
	snprintf(link, sizeof(link), "%s/jl", e.tmp);
	ASSERT_EQ(0, symlink(path, link));
	snprintf(e.e_journal, sizeof(e.e_journal), "DEVPM_JOURNAL_DIR=%s",
		 link);
	tr_devpm(o, e.tmp, e.env, restore);
	EXPECT_EQ(2, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->err, "is a symlink");
	ASSERT_HAS(o->err, link);
	EXPECT_EQ(strlen(o->err), (size_t)(strchr(o->err, '\n') - o->err + 1));
	snprintf(e.e_journal, sizeof(e.e_journal), "DEVPM_JOURNAL_DIR=%s",
		 path);

	/* Its own, but 100000 empty lines: a summary and exit 2. */
	junk = rn_xmalloc(100001 + PATH_MAX);
	snprintf(link, sizeof(link), "%s/root", e.tmp);
	snprintf(junk, PATH_MAX, "%s", unit_journal_header(link));
	memset(junk + strlen(junk), '\n', 100000);
	junk[strlen(unit_journal_header(link)) + 100000] = '\0';
	ASSERT_EQ(0, unit_put(e.tmp, "j/journal", junk));
	tr_devpm(o, e.tmp, e.env, restore);
	EXPECT_EQ(2, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->err, "99995 more invalid journal line(s) not shown");
	ASSERT_HAS(o->err, "none of its 100000 line(s) is a valid record");
	/* Negative control: now empty, nothing to restore, exit 0. */
	tr_devpm(o, e.tmp, e.env, restore);
	EXPECT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "nothing to restore");
	free(junk);
	unit_rm_rf(e.tmp);
	free(o);
}

TEST_HARNESS_MAIN
