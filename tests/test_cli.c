// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli.c - the command line as a user meets it: each command's own
 * help, the live progress line and its heartbeats, `devpm audit`'s
 * default filter and header on a recorded tree, `devpm list`'s needs with
 * whether they are met, and its --json.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "test_runner.h"
#include "json.h"
#include "needs_met.h"
#include "progress.h"

/* Each command says its own options; an unknown one is an error. */
TEST(help_per_command)
{
	static const char *const cmds[] = {
		"run", "collect", "list", "audit", "why", "restore",
		"compare", "report", "export", NULL,
	};
	const char *a1[] = { "help", NULL, NULL };
	const char *a2[] = { NULL, "--help", NULL };
	const char *a3[] = { NULL, "-h", NULL };
	const char *bad[] = { "help", "bogus", NULL };
	const char *top[] = { "--help", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o)), *o2 = rn_xmalloc(sizeof(*o2));
	char want[64];
	int i;

	for (i = 0; cmds[i]; i++) {
		snprintf(want, sizeof(want), "usage: devpm %s", cmds[i]);
		a1[1] = cmds[i];
		tr_devpm(o, "/tmp", NULL, a1);
		EXPECT_EQ(0, o->code) TH_LOG("%s: %s", cmds[i], o->err);
		ASSERT_HAS(o->out, want);
		a2[0] = cmds[i];
		tr_devpm(o2, "/tmp", NULL, a2);
		EXPECT_EQ(0, o2->code);
		EXPECT_STREQ(o->out, o2->out);
		a3[0] = cmds[i];
		tr_devpm(o2, "/tmp", NULL, a3);
		EXPECT_EQ(0, o2->code);
		EXPECT_STREQ(o->out, o2->out);
	}
	/* run's help is run's, not the overview. */
	a2[0] = "run";
	tr_devpm(o, "/tmp", NULL, a2);
	ASSERT_HAS(o->out, "--allow-sleep");
	ASSERT_HASNT(o->out, "Commands:");
	tr_devpm(o, "/tmp", NULL, top);
	ASSERT_HAS(o->out, "Commands:");
	ASSERT_HAS(o->out, "devpm help COMMAND");
	/* Negative control. */
	tr_devpm(o, "/tmp", NULL, bad);
	EXPECT_EQ(2, o->code);
	ASSERT_HAS(o->err, "no command 'bogus'");
	free(o);
	free(o2);
}

static void read_all(FILE *f, char *buf, size_t len)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
}

/* On a terminal: a live line, rewritten every 10 s, erased at the end. */
TEST(progress_on_a_terminal)
{
	struct rn_progress pg;
	FILE *f = tmpfile();
	char buf[4096];
	uint64_t t0 = 5000000;

	ASSERT_NE(NULL, f);
	rn_progress_init(&pg, f, true);
	rn_progress_start(&pg, 2, 22, "wakeup/stress", 260, t0);
	rn_progress_tick(&pg, "stress_random_injection", 0, t0 + 9000000);
	read_all(f, buf, sizeof(buf));
	EXPECT_STREQ("\r\033[K[ 3/22] wakeup/stress: running (timeout 260 s)",
		     buf);
	rn_progress_tick(&pg, "stress_random_injection", 1, t0 + 10000000);
	rn_progress_tick(&pg, "stress_random_injection", 1, t0 + 10500000);
	rn_progress_tick(&pg, NULL, 2, t0 + 20100000);
	rn_progress_end(&pg);
	read_all(f, buf, sizeof(buf));
	EXPECT_STREQ("\r\033[K[ 3/22] wakeup/stress: running (timeout 260 s)"
		     "\r\033[K[ 3/22] wakeup/stress: 10 s of 260 s, in case stress_random_injection, 1 case done"
		     "\r\033[K[ 3/22] wakeup/stress: 20 s of 260 s, 2 cases done"
		     "\r\033[K", buf);
	fclose(f);
}

/* A terminal but TERM=dumb (a serial console read line by line): no live line. */
TEST(progress_live_needs_a_term)
{
	const char *term = getenv("TERM");
	char *saved = term ? strdup(term) : NULL;

	setenv("TERM", "dumb", 1);
	EXPECT_FALSE(rn_progress_live(STDERR_FILENO));
	unsetenv("TERM");
	EXPECT_FALSE(rn_progress_live(STDERR_FILENO));
	/* Not a terminal at all: a file. */
	setenv("TERM", "xterm", 1);
	EXPECT_FALSE(rn_progress_live(fileno(tmpfile())));
	if (saved)
		setenv("TERM", saved, 1);
	else
		unsetenv("TERM");
	free(saved);
}

/* In a log: nothing for a short program, a line a minute for a long one. */
TEST(progress_in_a_log)
{
	struct rn_progress pg;
	FILE *f = tmpfile();
	char buf[4096];

	ASSERT_NE(NULL, f);
	rn_progress_init(&pg, f, false);
	rn_progress_start(&pg, 0, 3, "pci/idle", 60, 1000000);
	rn_progress_tick(&pg, "idle", 0, 59000000);
	rn_progress_end(&pg);
	read_all(f, buf, sizeof(buf));
	EXPECT_STREQ("", buf);
	rn_progress_start(&pg, 1, 3, "wakeup/events", 450, 1000000);
	rn_progress_tick(&pg, "event_during_freeze_sweep", 0, 61000000);
	rn_progress_end(&pg);
	read_all(f, buf, sizeof(buf));
	EXPECT_STREQ("  ... [2/3] wakeup/events: 60 s of 450 s, in case event_during_freeze_sweep, 0 cases done\n",
		     buf);
	fclose(f);
}

static void recorded(struct __test_metadata *_metadata, char *root,
		     size_t len)
{
	if (!realpath("fixtures/sysfs/host-vm", root))
		SKIP(return, "fixtures/sysfs/host-vm not found");
	(void)len;
}

/*
 * audit: by default the devices with runtime PM, a summary and column
 * heads first; --all every device.  host-vm has 146 devices, 8 of them
 * with a runtime status other than "unsupported".
 */
TEST(audit_filter_and_header)
{
	const char *def[] = { "--sysfs-root", NULL, "audit", NULL };
	const char *all[] = { "--sysfs-root", NULL, "audit", "--all", NULL };
	const char *js[] = { "--sysfs-root", NULL, "audit", "--json", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char root[PATH_MAX], err[256], *line;
	int rows = 0, unsupported = 0, k;
	struct rn_json *j;

	recorded(_metadata, root, sizeof(root));
	def[1] = all[1] = js[1] = root;
	tr_devpm(o, "/tmp", NULL, def);
	ASSERT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "# 8 of 146 devices have runtime PM ('devpm audit --all' lists every one): 2 suspended, 6 not\nBUS ");
	ASSERT_HAS(o->out, "  DEVICE  ");
	ASSERT_HAS(o->out, "WHY NOT SUSPENDED\n");
	for (line = strtok(o->out, "\n"), k = 0; line;
	     line = strtok(NULL, "\n"), k++) {
		if (k < 2)
			continue;
		rows++;
		unsupported += !!strstr(line, " unsupported ");
	}
	EXPECT_EQ(8, rows);
	EXPECT_EQ(0, unsupported);
	/* Negative control: --all shows what the filter left out. */
	tr_devpm(o, "/tmp", NULL, all);
	ASSERT_EQ(0, o->code);
	ASSERT_HAS(o->out, "# 146 devices, 8 with runtime PM of them");
	ASSERT_HAS(o->out, " unsupported ");
	tr_devpm(o, "/tmp", NULL, js);
	ASSERT_EQ(0, o->code);
	j = rn_json_parse(o->out, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s", err);
	EXPECT_EQ(8, rn_json_get(j, "devices")->n);
	EXPECT_STREQ("runtime_pm", rn_json_str(j, "shown"));
	rn_json_free(j);
	free(o);
}

/* A need against this host: read-only, and each key judged. */
TEST(needs_met_keys)
{
	char why[256];

	EXPECT_EQ(RN_MET_INFO, rn_need_met("timeout_s", "90", why, sizeof(why)));
	EXPECT_EQ(RN_MET_INFO, rn_need_met("sleep-scope", "own-devices", why,
					   sizeof(why)));
	EXPECT_EQ(RN_MET_OPTIN, rn_need_met("allow-sleep", "yes", why,
					    sizeof(why)));
	EXPECT_STREQ("devpm run --allow-sleep", why);
	EXPECT_EQ(RN_MET_YES, rn_need_met("file", "/proc/self/status", why,
					  sizeof(why)));
	EXPECT_EQ(RN_MET_NO, rn_need_met("file", "/proc/devpm-none", why,
					 sizeof(why)));
	EXPECT_EQ(getuid() ? RN_MET_NO : RN_MET_YES,
		  rn_need_met("root", "yes", why, sizeof(why)));
	EXPECT_EQ(RN_MET_NO, rn_need_met("module", "devpm_no_such_module", why,
					 sizeof(why)));
	EXPECT_EQ(RN_MET_UNKNOWN, rn_need_met("frob", "x", why, sizeof(why)));
	EXPECT_STREQ("NOT MET", rn_met_name(RN_MET_NO));
}

/* list: each need with met or not, the program's verdict; --json too. */
TEST(list_says_which_needs_are_met)
{
	const char *txt[] = { "list", "--suite", "fake", NULL };
	const char *js[] = { "list", "--json", "--suite", "fake", NULL };
	struct tr_out *o = rn_xmalloc(sizeof(*o));
	char tmp[PATH_MAX], suites[PATH_MAX + 32], err[256];
	const char *env[] = { suites, NULL };
	const struct rn_json *p, *needs;
	struct rn_json *j;
	size_t i, seen = 0;

	ASSERT_EQ(0, unit_mkdtemp(tmp, sizeof(tmp)));
	ASSERT_EQ(0, tr_add_prog(tmp, "fake", "needs", "needs"));
	ASSERT_EQ(0, tr_add_prog(tmp, "fake", "pass", "pass"));
	snprintf(suites, sizeof(suites), "DEVPM_SUITES_DIR=%s/suites", tmp);
	/* needs.sh needs CONFIG_FAKE_THING, which no kernel has. */
	if (rn_need_met("kconfig", "CONFIG_FAKE_THING", err, sizeof(err)) ==
	    RN_MET_UNKNOWN)
		SKIP(return, "no kernel config on this machine: %s", err);
	tr_devpm(o, tmp, env, txt);
	ASSERT_EQ(0, o->code) TH_LOG("%s", o->err);
	ASSERT_HAS(o->out, "fake/needs (timeout 20 s): would SKIP: kconfig CONFIG_FAKE_THING");
	ASSERT_HAS(o->out, "    needs kconfig: CONFIG_FAKE_THING");
	ASSERT_HAS(o->out, "fake/pass (timeout ");
	tr_devpm(o, tmp, env, js);
	ASSERT_EQ(0, o->code) TH_LOG("%s", o->err);
	j = rn_json_parse(o->out, err, sizeof(err));
	ASSERT_NE(NULL, j) TH_LOG("%s\n%s", err, o->out);
	p = rn_json_get(j, "programs");
	ASSERT_EQ(2, p->n);
	for (i = 0; i < p->n; i++) {
		if (strcmp(rn_json_str(p->items[i], "program"), "needs"))
			continue;
		needs = rn_json_get(p->items[i], "needs");
		ASSERT_EQ(1, needs->n);
		EXPECT_STREQ("kconfig", rn_json_str(needs->items[0], "key"));
		EXPECT_STREQ("CONFIG_FAKE_THING",
			     rn_json_str(needs->items[0], "value"));
		ASSERT_HAS(rn_json_str(p->items[i], "here"), "would SKIP");
		seen++;
	}
	EXPECT_EQ(1, seen);
	rn_json_free(j);
	unit_rm_rf(tmp);
	free(o);
}

TEST_HARNESS_MAIN
