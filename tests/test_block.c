// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_block.c - a device's block (lib/judge/block.c) ends in exactly one
 * result line: an abort or skip ends that device's block at once, from any
 * depth, and not the case; clean-ups run however the block ends; a skip
 * never hides a failure.
 */
#include "judge/block.h"
#include "judge/subtest.h"
#include "kselftest_harness.h"
#include "unit.h"

static char order[64];
static int after;	/* how often code after an abort or skip ran */

static void mark(void *c)
{
	size_t n = strlen(order);

	order[n] = *(const char *)c;
	order[n + 1] = '\0';
}

/* Deep inside a helper, three loops down: the abort still ends the block. */
static void deep(struct devpm_block *b, int at)
{
	int i, j, k;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			for (k = 0; k < 3; k++)
				if (i * 9 + j * 3 + k == at)
					devpm_block_abort(b, "cycle %d: usage 2, 1 at baseline",
							at);
}

static void one(struct devpm_block *b, void *arg)
{
	static char a = 'a', z = 'b';
	int i = *(int *)arg;

	devpm_block_defer(b, mark, &a);
	devpm_block_defer(b, mark, &z);
	switch (i) {
	case 0:
		devpm_block_pass(b, "suspended %.1f ms", 1.5);
		break;
	case 1:
		deep(b, 13);
		after++;
		break;
	case 2:
		devpm_block_skip(b, "no PM capability");
		after++;	/* never */
		break;
	case 3:
		devpm_block_fail(b, "first: control=on refused");
		devpm_block_fail(b, "second");
		devpm_block_pass(b, "not this");
		devpm_block_skip(b, "nor this");
		after++;
		break;
	case 4:
		DEVPM_BLOCK_ASSERT(b, i == 3, "i is %d", i);
		after++;
		break;
	case 5:
		break;		/* reports nothing */
	}
}

/* What a case prints with one device of each ending. */
static int six(char *out, size_t len)
{
	static const char *const dev[] = { "d0", "d1", "d2", "d3", "d4",
					   "d5" };
	char file[] = "/tmp/devpm-unit-devblock-XXXXXX";
	struct devpm_subtest s;
	int fd = mkstemp(file), saved, i, ret;

	close(fd);
	after = 0;
	order[0] = '\0';
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "case");
	for (i = 0; i < 6; i++)
		devpm_block_run(&s, dev[i], one, &i);
	ret = devpm_subtest_end(&s);
	unit_capture_end(1, saved, file, out, len);
	unlink(file);
	return ret;
}

TEST(each_block_ends_in_one_line)
{
	char out[4096];

	EXPECT_EQ(1, six(out, sizeof(out)));
	ASSERT_HAS(out, "    # suspended 1.5 ms\n    ok 1 d0\n");
	ASSERT_HAS(out, "    # cycle 13: usage 2, 1 at baseline\n    not ok 2 d1\n");
	ASSERT_HAS(out, "    ok 3 d2 # SKIP no PM capability\n");
	ASSERT_HAS(out, "    # first: control=on refused\n    not ok 4 d3\n");
	ASSERT_HAS(out, "    # i == 3: i is 4\n    not ok 5 d4\n");
	/* A block that reports nothing passes, with no message line. */
	ASSERT_HAS(out, "    not ok 5 d4\n    ok 6 d5\n    1..6\n");
	/* Negative control: none of the code after an abort or skip ran. */
	EXPECT_EQ(0, after);
	ASSERT_HASNT(out, "not this");
	ASSERT_HASNT(out, "nor this");
}

TEST(clean_ups_run_in_reverse_however_the_block_ends)
{
	char out[4096];

	six(out, sizeof(out));
	/* Six blocks, each "b" then "a". */
	EXPECT_STREQ("babababababa", order);
}

static void skipper(struct devpm_block *b, void *arg)
{
	(void)arg;
	devpm_block_skip(b, "no driver bound");
}

static void child(struct devpm_block *b, void *parent)
{
	static char c = 'c';

	devpm_block_defer(b, mark, &c);
	devpm_block_abort(parent, "the parent's block ends: %s",
			"its child broke it");
}

static void parent(struct devpm_block *b, void *sub)
{
	devpm_block_run(sub, "child", child, b);
	after++;
}

TEST(abort_of_a_parent_block_ends_the_child_first)
{
	char file[] = "/tmp/devpm-unit-devblock-XXXXXX", out[1024];
	struct devpm_subtest s;
	int fd = mkstemp(file), saved;

	close(fd);
	after = 0;
	order[0] = '\0';
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "case");
	devpm_block_run(&s, "parent", parent, &s);
	devpm_block_run(&s, "next", skipper, NULL);
	devpm_subtest_end(&s);
	unit_capture_end(1, saved, file, out, sizeof(out));
	unlink(file);
	EXPECT_EQ(0, after);
	EXPECT_STREQ("c", order);
	ASSERT_HAS(out, "    # did not finish: parent's block ended\n    not ok 1 child\n");
	ASSERT_HAS(out, "    # the parent's block ends: its child broke it\n    not ok 2 parent\n");
	ASSERT_HAS(out, "    ok 3 next # SKIP no driver bound\n    1..3\n");
}

static struct devpm_block *cur;

static void restore_fails(void *arg)
{
	(void)arg;
	devpm_block_fail(cur, "data region not put back");
}

static void restore_aborts(void *arg)
{
	(void)arg;
	devpm_block_abort(cur, "not this one: the first failure stays");
	after++;	/* never: the abort ends this clean-up */
}

static void fails_in_clean_up(struct devpm_block *b, void *arg)
{
	static char a = 'a', z = 'z';

	cur = b;
	devpm_block_defer(b, mark, &a);
	devpm_block_defer(b, restore_aborts, NULL);
	devpm_block_defer(b, restore_fails, NULL);
	devpm_block_defer(b, mark, &z);
	*(bool *)arg = devpm_block_failed(b);
	devpm_block_pass(b, "read back intact");
}

TEST(a_clean_up_may_fail_the_block)
{
	char file[] = "/tmp/devpm-unit-devblock-XXXXXX", out[1024];
	struct devpm_subtest s;
	int fd = mkstemp(file), saved;
	bool failed = true;

	close(fd);
	after = 0;
	order[0] = '\0';
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "case");
	devpm_block_run(&s, "sdb", fails_in_clean_up, &failed);
	devpm_subtest_end(&s);
	unit_capture_end(1, saved, file, out, sizeof(out));
	unlink(file);
	/* Nothing had failed before the clean-ups. */
	EXPECT_FALSE(failed);
	/* Every clean-up ran, in reverse; the abort ended only its own. */
	EXPECT_STREQ("za", order);
	EXPECT_EQ(0, after);
	ASSERT_HAS(out, "    # data region not put back\n    not ok 1 sdb\n");
}

/* A clean-up that fails: an abort inside it ends only that clean-up. */
static void failing_clean_up(void *b)
{
	devpm_block_abort(b, "clean-up: %s", "close failed");
}

static struct devpm_subtest *cur_sub;

/* A clean-up that runs a block of its own (a child device's). */
static void clean_up_with_a_block(void *arg)
{
	(void)arg;
	devpm_block_run(cur_sub, "inner", skipper, NULL);
}

static void with_clean_ups(struct devpm_block *b, void *arg)
{
	static char a = 'a', z = 'b';

	devpm_block_defer(b, mark, &a);
	if (arg)
		devpm_block_defer(b, clean_up_with_a_block, NULL);
	else
		devpm_block_defer(b, failing_clean_up, b);
	devpm_block_defer(b, mark, &z);
	devpm_block_pass(b, "passed");
}

TEST(clean_ups_may_abort_or_run_a_block)
{
	char file[] = "/tmp/devpm-unit-devblock-XXXXXX", out[2048];
	struct devpm_subtest s;
	int fd = mkstemp(file), saved;

	close(fd);
	order[0] = '\0';
	cur_sub = &s;
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "case");
	devpm_block_run(&s, "d0", with_clean_ups, NULL);
	devpm_block_run(&s, "d1", with_clean_ups, &s);
	devpm_block_run(&s, "d2", skipper, NULL);
	devpm_subtest_end(&s);
	unit_capture_end(1, saved, file, out, sizeof(out));
	unlink(file);
	/* The clean-ups after the failing one still ran, once each. */
	EXPECT_STREQ("baba", order);
	ASSERT_HAS(out, "    # clean-up: close failed\n    not ok 1 d0\n");
	/* The inner block has its own line; d1's is intact after it. */
	ASSERT_HAS(out, "    ok 2 inner # SKIP no driver bound\n    # passed\n    ok 3 d1\n");
	/* Negative control: the case goes on at the outer level. */
	ASSERT_HAS(out, "    ok 4 d2 # SKIP no driver bound\n    1..4\n");
}

TEST(all_skipped_is_a_skip)
{
	char file[] = "/tmp/devpm-unit-devblock-XXXXXX", out[1024];
	struct devpm_subtest s;
	int fd = mkstemp(file), saved, ret;

	close(fd);
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "case");
	devpm_block_run(&s, "d0", skipper, NULL);
	ret = devpm_subtest_end(&s);
	unit_capture_end(1, saved, file, out, sizeof(out));
	unlink(file);
	EXPECT_EQ(-1, ret);
	ASSERT_HAS(out, "    ok 1 d0 # SKIP no driver bound\n");
}

TEST_HARNESS_MAIN
