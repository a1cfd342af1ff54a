// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_environment.c - the environment hook's protocol, both sides: a
 * case's request (lib/harness/environment.c) and the runner's check and
 * window (lib/runner/env_hook.c), against small hook scripts.  Without a
 * hook nothing is asked; a hook another user could write is not run (as
 * root); an error or a FAILED names the hook's words.
 */
#include <stdlib.h>

#include "devpm.h"
#include "harness/environment.h"
#include "kselftest_harness.h"
#include "env_hook.h"
#include "model.h"
#include "unit.h"

FIXTURE(env) {
	char dir[UNIT_PATH_MAX];
	char hook[UNIT_PATH_MAX];
	char out[UNIT_PATH_MAX];
};

/* A hook script in the fixture's directory (0755). */
static void hook(struct __test_metadata *_metadata,
		 struct _test_data_env *self, const char *body)
{
	char text[2048];

	snprintf(text, sizeof(text), "#!/bin/sh\n%s\n", body);
	ASSERT_EQ(0, unit_put(self->dir, "hook", text));
	ASSERT_EQ(0, chmod(self->hook, 0755));
	setenv(DEVPM_ENV_HOOK_VAR, self->hook, 1);
}

FIXTURE_SETUP(env)
{
	ASSERT_EQ(0, unit_mkdtemp(self->dir, sizeof(self->dir)));
	ASSERT_EQ(0, chmod(self->dir, 0755));
	snprintf(self->hook, sizeof(self->hook), "%s/hook", self->dir);
	snprintf(self->out, sizeof(self->out), "%s/out", self->dir);
	unsetenv(DEVPM_ENV_HOOK_VAR);
	devpm_env_case_begin();
}

FIXTURE_TEARDOWN(env)
{
	unsetenv(DEVPM_ENV_HOOK_VAR);
	unit_rm_rf(self->dir);
}

TEST_F(env, no_hook_asks_nothing)
{
	EXPECT_FALSE(devpm_env_hook());
	EXPECT_EQ(0, devpm_env_request(DEVPM_ENV_OWN_DEVICES));
	EXPECT_EQ(0, devpm_env_case_settle());
}

TEST_F(env, a_request_counts_what_the_hook_changed)
{
	char buf[256], log[UNIT_PATH_MAX + 64];

	snprintf(log, sizeof(log), "echo \"$1\" >>%s; echo '# set aside: x'; echo 'CHANGED 2'",
		 self->out);
	hook(_metadata, self, log);
	ASSERT_TRUE(devpm_env_hook());
	EXPECT_EQ(2, devpm_env_request(DEVPM_ENV_OWN_DEVICES));
	EXPECT_EQ(0, devpm_env_case_settle());
	ASSERT_EQ(0, unit_get("", self->out, buf, sizeof(buf)));
	EXPECT_STREQ("own-devices\nsettle\n", buf);
	/* Settled once: a second settle asks nothing. */
	EXPECT_EQ(0, devpm_env_case_settle());
	ASSERT_EQ(0, unit_get("", self->out, buf, sizeof(buf)));
	EXPECT_STREQ("own-devices\nsettle\n", buf);
}

TEST_F(env, a_hook_error_names_its_words)
{
	hook(_metadata, self, "echo 'ERROR 0000:00:01.0 not back'; exit 1");
	EXPECT_EQ(-EIO, devpm_env_request(DEVPM_ENV_NEED_USB));
	EXPECT_NE(NULL, strstr(devpm_error(), "need-usb: 0000:00:01.0 not back"))
		TH_LOG("%s", devpm_error());
	/* The case asked: its settle asks too, and fails so. */
	EXPECT_EQ(-EIO, devpm_env_case_settle());
}

/* Negative: root never runs a hook another user may write. */
TEST_F(env, a_writable_hook_is_not_run)
{
	char log[UNIT_PATH_MAX + 64];

	if (geteuid())
		SKIP(return, "the owner rule is root's");
	snprintf(log, sizeof(log), "echo ran >%s; echo 'CHANGED 1'", self->out);
	hook(_metadata, self, log);
	ASSERT_EQ(0, chmod(self->hook, 0757));
	EXPECT_FALSE(devpm_env_hook());
	EXPECT_EQ(0, devpm_env_request(DEVPM_ENV_OWN_DEVICES));
	EXPECT_FALSE(unit_exists("", self->out));
	EXPECT_EQ(1, rn_env_hook_check(self->hook) ? 1 : 0);
	ASSERT_EQ(0, chmod(self->hook, 0755));
	EXPECT_EQ(0, rn_env_hook_check(self->hook));
	/* A link to it is refused too, as is a relative path. */
	ASSERT_EQ(0, unit_link(self->dir, "link", self->hook));
	snprintf(log, sizeof(log), "%s/link", self->dir);
	EXPECT_NE(0, rn_env_hook_check(log));
	EXPECT_NE(0, rn_env_hook_check("hook"));
}

TEST_F(env, the_window_brackets_the_programs)
{
	struct rn_env_window w;
	struct rn_stream st = { .nfd = 0 };
	char body[UNIT_PATH_MAX + 256], buf[256];

	snprintf(body, sizeof(body),
		 "[ \"$1\" = window ] || exit 2\n"
		 "echo 'NOTE kept bound: 0000:00:1f.2: holds /'\n"
		 "echo 'READY 0000:00:01.0 (xhci_hcd)'\n"
		 "cat >/dev/null\n"
		 "echo ended >%s\n"
		 "echo 'DONE every device back'", self->out);
	hook(_metadata, self, body);
	st.run = rn_run_new();
	ASSERT_EQ(0, rn_env_window_open(&w, self->hook, &st)) TH_LOG("%s", w.fail);
	EXPECT_STREQ("0000:00:01.0 (xhci_hcd)", w.what);
	/* The programs run here: the hook waits for the window's end. */
	EXPECT_FALSE(unit_exists("", self->out));
	EXPECT_EQ(0, rn_env_window_close(&w, &st));
	EXPECT_STREQ("every device back", w.what);
	ASSERT_EQ(0, unit_get("", self->out, buf, sizeof(buf)));
	EXPECT_STREQ("ended\n", buf);
	rn_run_free(st.run);
}

TEST_F(env, a_window_that_fails_says_why)
{
	struct rn_env_window w;
	struct rn_stream st = { .nfd = 0 };

	hook(_metadata, self, "echo 'READY x'; cat >/dev/null; echo 'FAILED 0000:00:1f.2 is not bound to ahci'");
	st.run = rn_run_new();
	ASSERT_EQ(0, rn_env_window_open(&w, self->hook, &st));
	EXPECT_EQ(-1, rn_env_window_close(&w, &st));
	EXPECT_STREQ("0000:00:1f.2 is not bound to ahci", w.fail);
	/* A hook that dies before READY: the window does not open. */
	hook(_metadata, self, "exit 3");
	EXPECT_EQ(-1, rn_env_window_open(&w, self->hook, &st));
	EXPECT_NE(NULL, strstr(w.fail, "exited with an error")) TH_LOG("%s", w.fail);
	rn_run_free(st.run);
}

TEST_HARNESS_MAIN
