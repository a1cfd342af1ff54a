// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_module.c - lib/core/module.c's reading of modules.dep: which module
 * devpm_module_insert() may load by finit_module(2) itself, and which it
 * leaves to modprobe.
 */
#include "devpm.h"
#include "core/module.h"
#include "kselftest_harness.h"

#include <string.h>


static const char dep[] =
	"kernel/drivers/usb/core/usbcore.ko: kernel/drivers/usb/common/usb-common.ko\n"
	"kernel/drivers/usb/common/usb-common.ko:\n"
	"kernel/drivers/net/dummy.ko.xz:\n"
	"extra/devpm_mock.ko:\n"
	"extra/devpm_mock2.ko: extra/devpm_mock.ko\n"
	"kernel/drivers/i2c/i2c-stub.ko: \t\r\n"
	"/lib/modules/6.1.0/extra/absolute.ko:\n"
	"../../tmp/evil.ko:\n"
	"extra/../../tmp/evil2.ko:\n"
	"extra/last.ko:";

TEST(a_plain_module_without_dependencies_is_found)
{
	char rel[256];

	EXPECT_EQ(1, devpm_module_dep_plain(dep, "devpm_mock", rel, sizeof(rel)));
	EXPECT_STREQ("extra/devpm_mock.ko", rel);
	/* '-' in the file is '_' in the module's name. */
	EXPECT_EQ(1, devpm_module_dep_plain(dep, "usb_common", rel, sizeof(rel)));
	EXPECT_STREQ("kernel/drivers/usb/common/usb-common.ko", rel);
	EXPECT_EQ(1, devpm_module_dep_plain(dep, "i2c_stub", rel, sizeof(rel)));
	EXPECT_STREQ("kernel/drivers/i2c/i2c-stub.ko", rel);
	/* The last line needs no newline. */
	EXPECT_EQ(1, devpm_module_dep_plain(dep, "last", rel, sizeof(rel)));
	EXPECT_STREQ("extra/last.ko", rel);
}

/* Negative: what only modprobe loads right, or not at all. */
TEST(dependencies_compression_and_odd_paths_are_left_to_modprobe)
{
	char rel[256] = "untouched";

	EXPECT_EQ(0, devpm_module_dep_plain(dep, "usbcore", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain(dep, "devpm_mock2", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain(dep, "dummy", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain(dep, "absolute", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain(dep, "evil", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain(dep, "evil2", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain(dep, "devpm", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain(dep, "not_there", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain("", "devpm_mock", rel, sizeof(rel)));
	EXPECT_EQ(0, devpm_module_dep_plain("no colon here\n", "no", rel,
					    sizeof(rel)));
	/* A path that does not fit is not cut. */
	EXPECT_EQ(0, devpm_module_dep_plain(dep, "devpm_mock", rel,
					    strlen("extra/devpm_mock.ko")));
	EXPECT_STREQ("untouched", rel);
}

TEST_HARNESS_MAIN
