// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mock.c - lib/mock/mock.c against a fake devpm_mock tree: what each call
 * writes to the control and mock/ files, the journal's undo records (and
 * their restore), the module-not-there answer, the event records, and the
 * refusals: bad ids, out-of-range values, a write the kernel refuses.
 */
#include "devpm.h"
#include "mock/mock.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#define CTL DEVPM_MOCK_CTL
#define DEV0 CTL "/devpm_mock.0"
#define DEV1 DEV0 "/devpm_mock.1"

FIXTURE(mock) {
	char *tree;
	char dir[UNIT_PATH_MAX];	/* journal directory */
};

static void mock_device(const char *root, const char *path)
{
	static const char *const files[] = {
		"resume_delay_us", "resume_error", "resume_count",
		"runtime_resume_count", "bug", "wakeup_fire", "wakeup_arm",
		"qos_req", "reset_counts",
	};
	char p[UNIT_PATH_MAX];
	size_t i;

	tree_device(root, path, "platform", "devpm_mock", "auto", "suspended",
		    0, 0);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/mock/%s", path, files[i]);
		tree_put(root, p, "");
	}
}

FIXTURE_SETUP(mock)
{
	self->tree = tree_new();
	tree_put(self->tree, CTL "/new_device", "");
	tree_put(self->tree, CTL "/delete_device", "");
	tree_put(self->tree, CTL "/reprobe", "");
	tree_put(self->tree, CTL "/link_add", "");
	tree_put(self->tree, CTL "/link_del", "");
	tree_dir(self->tree, "/sys/module/devpm_mock/parameters");
	mock_device(self->tree, DEV0);
	mock_device(self->tree, DEV1);
	ASSERT_EQ(0, tree_use(self->tree, self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(mock)
{
	tree_unuse(self->tree);
}

/* The file behind a kernel path in the tree. */
static const char *tree_real(const char *root, const char *kpath)
{
	static char p[UNIT_PATH_MAX];

	snprintf(p, sizeof(p), "%s%s", root, kpath);
	return p;
}

static const char *journal(const char *dir)
{
	static char j[4096];
	char p[UNIT_PATH_MAX];

	snprintf(p, sizeof(p), "%s/journal", dir);
	if (unit_get("", p, j, sizeof(j)))
		return "(none)";
	/* The records after the "R <sysfs root>" header line. */
	if (!strncmp(j, "R ", 2) && strchr(j, '\n'))
		return strchr(j, '\n') + 1;
	return j;
}

TEST_F(mock, load_present_and_missing)
{
	char why[256];

	/* In the tree (a tree loads nothing): loaded, nothing journaled. */
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	EXPECT_EQ(0, devpm_mock_load(false, why, sizeof(why)));
	EXPECT_STREQ("", why);
	/* Loaded but without its control device: an error, not a skip. */
	{
		char c[UNIT_PATH_MAX];

		snprintf(c, sizeof(c), "%s", tree_real(self->tree, CTL));
		unit_rm_rf(c);
	}
	EXPECT_EQ(-ENODEV, devpm_mock_load(false, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(devpm_error(), "devpm_mock_ctl is missing"));
	/* Negative: no module, the reason says how to get one. */
	{
		char m[UNIT_PATH_MAX];

		snprintf(m, sizeof(m), "%s", tree_real(self->tree, "/sys/module/devpm_mock"));
		unit_rm_rf(m);
	}
	EXPECT_EQ(1, devpm_mock_load(true, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "make fixtures"));
}

TEST_F(mock, create_is_journaled_and_deleted)
{
	char want[UNIT_PATH_MAX], real[UNIT_PATH_MAX];

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_mock_create(0, NULL));
	EXPECT_STREQ("0 async=1 wakeup=1", tree_val(self->tree, CTL "/new_device"));
	devpm_real_path(real, sizeof(real), CTL "/delete_device");
	snprintf(want, sizeof(want), "U %s\t0 missing_ok\n", real);
	EXPECT_STREQ(want, journal(self->dir));
	ASSERT_EQ(1, devpm_journal_restore_all());
	EXPECT_STREQ("0 missing_ok", tree_val(self->tree, CTL "/delete_device"));
	/* An explicit delete names the device plainly (-ENOENT if gone). */
	ASSERT_EQ(0, devpm_mock_delete(3));
	EXPECT_STREQ("3", tree_val(self->tree, CTL "/delete_device"));
}

TEST_F(mock, create_options)
{
	struct devpm_mock_opts o = {
		.parent = 0, .async = 0, .autosuspend_ms = 50,
		.probe_ref_ms = -1, .no_wakeup = true,
	};

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_mock_create(1, &o));
	EXPECT_STREQ("1 async=0 wakeup=0 parent=0 autosuspend_ms=50 probe_ref=keep",
		     tree_val(self->tree, CTL "/new_device"));
	o.probe_ref_ms = 250;
	o.parent = DEVPM_MOCK_NO_PARENT;
	ASSERT_EQ(0, devpm_mock_create(2, &o));
	EXPECT_STREQ("2 async=0 wakeup=0 autosuspend_ms=50 probe_ref=late:250",
		     tree_val(self->tree, CTL "/new_device"));
	/* A zeroed struct for id 0: parent 0 is itself, so none. */
	ASSERT_EQ(0, devpm_mock_create(0, &(struct devpm_mock_opts){ .async = 1 }));
	EXPECT_STREQ("0 async=1 wakeup=1", tree_val(self->tree, CTL "/new_device"));
}

/* An action: the id written to the control device, nothing journaled. */
TEST_F(mock, reprobe_is_not_journaled)
{
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_mock_reprobe(5));
	EXPECT_STREQ("5", tree_val(self->tree, CTL "/reprobe"));
	EXPECT_EQ(-EINVAL, devpm_mock_reprobe(64));
	EXPECT_STREQ("5", tree_val(self->tree, CTL "/reprobe"));
	EXPECT_EQ(0, devpm_journal_restore_all());
	/* Refused (the kernel's -ENODEV: not bound again): named. */
	unlink(tree_real(self->tree, CTL "/reprobe"));
	tree_dir(self->tree, CTL "/reprobe");
	EXPECT_GT(0, devpm_mock_reprobe(5));
	EXPECT_NE(NULL, strstr(devpm_error(), "devpm_mock reprobe '5'"));
}

TEST_F(mock, bad_input_is_refused_before_writing)
{
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	EXPECT_EQ(-EINVAL, devpm_mock_create(64, NULL));
	EXPECT_NE(NULL, strstr(devpm_error(), "out of range 0..63"));
	EXPECT_EQ(-EINVAL, devpm_mock_create(1, &(struct devpm_mock_opts){
		.parent = 70, .async = 1 }));
	EXPECT_EQ(-EINVAL, devpm_mock_create(1, &(struct devpm_mock_opts){
		.parent = DEVPM_MOCK_NO_PARENT, .async = 2 }));
	EXPECT_STREQ("", tree_val(self->tree, CTL "/new_device"));
	EXPECT_EQ(-EINVAL, devpm_mock_set_cb(0, DEVPM_MOCK_RESUME, 10000001, 0));
	EXPECT_STREQ("mock resume delay 10000001 us out of range 0..10000000",
		     devpm_error());
	EXPECT_EQ(-EINVAL, devpm_mock_set_cb(0, DEVPM_MOCK_RESUME, -1, 0));
	EXPECT_EQ(-EINVAL, devpm_mock_set_cb(0, DEVPM_MOCK_RESUME, 0, 5));
	EXPECT_EQ(-EINVAL, devpm_mock_set_cb(0, DEVPM_MOCK_NR_CB, 0, 0));
	EXPECT_STREQ("", tree_val(self->tree, DEV0 "/mock/resume_delay_us"));
	EXPECT_EQ(-EINVAL, devpm_mock_qos_add(0, 8, 10));
	EXPECT_EQ(-EINVAL, devpm_mock_qos_add(0, 0, -1));
	EXPECT_EQ(-EINVAL, devpm_mock_wakeup_arm(0, "suspend", 0,
						 DEVPM_MOCK_STAY));
	EXPECT_EQ(-EINVAL, devpm_mock_set(0, "../bug", "x"));
	EXPECT_STREQ("", tree_val(self->tree, DEV0 "/mock/qos_req"));
	/* Nothing was made: nothing to undo. */
	EXPECT_EQ(0, devpm_journal_restore_all());
}

TEST_F(mock, knobs_and_counts)
{
	char p[UNIT_PATH_MAX];

	EXPECT_STREQ("suspend_late", devpm_mock_cb_name(DEVPM_MOCK_SUSPEND_LATE));
	EXPECT_EQ(NULL, devpm_mock_cb_name(DEVPM_MOCK_NR_CB));
	ASSERT_EQ(0, devpm_mock_path(1, p, sizeof(p)));
	EXPECT_STREQ(DEV1, p);
	EXPECT_EQ(-ENOENT, devpm_mock_path(5, p, sizeof(p)));
	ASSERT_EQ(0, devpm_mock_set_cb(1, DEVPM_MOCK_RESUME, 3000, -5));
	EXPECT_STREQ("3000", tree_val(self->tree, DEV1 "/mock/resume_delay_us"));
	EXPECT_STREQ("-5", tree_val(self->tree, DEV1 "/mock/resume_error"));
	tree_put(self->tree, DEV1 "/mock/runtime_resume_count", "7");
	EXPECT_EQ(7, devpm_mock_count(1, DEVPM_MOCK_RUNTIME_RESUME));
	EXPECT_EQ(-ENOENT, devpm_mock_count(1, DEVPM_MOCK_SUSPEND));
	ASSERT_EQ(0, devpm_mock_bug(0, "leak_every_nth:3"));
	EXPECT_STREQ("leak_every_nth:3", tree_val(self->tree, DEV0 "/mock/bug"));
	ASSERT_EQ(0, devpm_mock_wakeup_arm(0, "suspend_late", 150, DEVPM_MOCK_HARD));
	EXPECT_STREQ("suspend_late 150 hard", tree_val(self->tree, DEV0 "/mock/wakeup_arm"));
	ASSERT_EQ(0, devpm_mock_wakeup_disarm(0));
	EXPECT_STREQ("off", tree_val(self->tree, DEV0 "/mock/wakeup_arm"));
	ASSERT_EQ(0, devpm_mock_wakeup_fire(0, DEVPM_MOCK_RELAX));
	EXPECT_STREQ("relax", tree_val(self->tree, DEV0 "/mock/wakeup_fire"));
	ASSERT_EQ(0, devpm_mock_qos_update(0, 2, 40));
	EXPECT_STREQ("update 2 40", tree_val(self->tree, DEV0 "/mock/qos_req"));
	ASSERT_EQ(0, devpm_mock_qos_remove(0, 2));
	EXPECT_STREQ("remove 2", tree_val(self->tree, DEV0 "/mock/qos_req"));
}

/* A write the kernel refuses is an error naming file and value. */
TEST_F(mock, refused_write_is_an_error)
{
	/* A directory in place of the file: open(O_WRONLY) fails. */
	unlink(tree_real(self->tree, DEV0 "/mock/bug"));
	tree_dir(self->tree, DEV0 "/mock/bug");
	EXPECT_GT(0, devpm_mock_bug(0, "qos_ignore"));
	EXPECT_NE(NULL, strstr(devpm_error(), "mock/bug 'qos_ignore' refused"));
	unlink(tree_real(self->tree, CTL "/new_device"));
	tree_dir(self->tree, CTL "/new_device");
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	EXPECT_GT(0, devpm_mock_create(4, NULL));
	EXPECT_NE(NULL, strstr(devpm_error(), "new_device"));
	/* Not made, so not journaled. */
	EXPECT_EQ(0, devpm_journal_restore_all());
}

TEST_F(mock, links_are_journaled)
{
	char want[UNIT_PATH_MAX], real[UNIT_PATH_MAX];

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_mock_link_add(1, 0, true));
	EXPECT_STREQ("1 0 pm_runtime", tree_val(self->tree, CTL "/link_add"));
	devpm_real_path(real, sizeof(real), CTL "/link_del");
	snprintf(want, sizeof(want), "U %s\t1 0 missing_ok\n", real);
	EXPECT_STREQ(want, journal(self->dir));
	ASSERT_EQ(1, devpm_journal_restore_all());
	EXPECT_STREQ("1 0 missing_ok", tree_val(self->tree, CTL "/link_del"));
	ASSERT_EQ(0, devpm_mock_link_del(1, 0));
	EXPECT_STREQ("1 0", tree_val(self->tree, CTL "/link_del"));
	EXPECT_EQ(-EINVAL, devpm_mock_link_add(-1, 0, false));
}

TEST_F(mock, event_records)
{
	struct devpm_mock_event ev[4];
	int fd;

	/* Negative: no queue device. */
	EXPECT_GT(0, devpm_mock_events_open(0));
	tree_put(self->tree, "/dev/devpm_mock.0",
		 "1 soft now 1000\n2 hard suspend_late 123456789012 123400000000");
	fd = devpm_mock_events_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(2, devpm_mock_events_read(fd, ev, 4));
	EXPECT_EQ(1, ev[0].seq);
	EXPECT_STREQ("soft", ev[0].kind);
	EXPECT_STREQ("now", ev[0].point);
	EXPECT_EQ(1000, ev[0].t_ns);
	EXPECT_EQ(0, ev[0].mono_ns);	/* an older module's record */
	EXPECT_EQ(2, ev[1].seq);
	EXPECT_STREQ("hard", ev[1].kind);
	EXPECT_STREQ("suspend_late", ev[1].point);
	EXPECT_EQ(123456789012ull, ev[1].t_ns);
	EXPECT_EQ(123400000000ull, ev[1].mono_ns);
	close(fd);
	/* Negative: a sixth field is no record either. */
	tree_put(self->tree, "/dev/devpm_mock.0", "1 soft now 1 2 3");
	fd = devpm_mock_events_open(0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, devpm_mock_events_read(fd, ev, 4));
	close(fd);
	/* Negative: a malformed record is an error, not an event. */
	tree_put(self->tree, "/dev/devpm_mock.0", "1 soft");
	fd = devpm_mock_events_open(0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, devpm_mock_events_read(fd, ev, 4));
	EXPECT_NE(NULL, strstr(devpm_error(), "'1 soft'"));
	close(fd);
}

TEST_HARNESS_MAIN
