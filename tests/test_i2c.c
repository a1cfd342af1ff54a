// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_i2c.c - lib/bus/i2c/i2c.c against fake trees: adapters and the controller
 * that suspends for them, the client new_device makes and the journal
 * removes (also after SIGKILL), EEPROM nvmem lookup, i2c-dev nodes; and
 * lib/rpm/devnode.c making a private node on the real system.
 */
#include <dirent.h>
#include <signal.h>

#include "devpm.h"
#include "bus/i2c/i2c.h"
#include "rpm/devnode.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#define I801 "/sys/devices/pci0000:00/0000:00:1f.3"
#define ADAP I801 "/i2c-0"
#define PLAT "/sys/devices/platform/foo.0"
#define ADAP1 PLAT "/i2c-1"
#define CLIENT ADAP "/0-0050"

FIXTURE(i2c) {
	char *tree;
	char dir[UNIT_PATH_MAX];	/* journal directory */
};

static void adapter(const char *root, const char *path, const char *name)
{
	char p[UNIT_PATH_MAX];

	tree_device(root, path, "i2c", NULL, NULL, "suspended", 0, 0);
	snprintf(p, sizeof(p), "%s/name", path);
	tree_put(root, p, name);
	snprintf(p, sizeof(p), "%s/new_device", path);
	tree_put(root, p, "");
	snprintf(p, sizeof(p), "%s/delete_device", path);
	tree_put(root, p, "");
}

FIXTURE_SETUP(i2c)
{
	self->tree = tree_new();
	tree_device(self->tree, I801, "pci", "i801_smbus", "auto",
		    "suspended", 0, 0);
	adapter(self->tree, ADAP, "SMBus I801 adapter at 0700");
	/* A platform parent without runtime-PM callbacks (no control). */
	tree_device(self->tree, PLAT, "platform", NULL, NULL, "unsupported",
		    0, 0);
	adapter(self->tree, ADAP1, "foo i2c bus");
	ASSERT_EQ(0, tree_use(self->tree, self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(i2c)
{
	tree_unuse(self->tree);
}

TEST_F(i2c, adapters_and_their_controllers)
{
	struct devpm_i2c_adapter *a;
	size_t n;

	/* A client on the bus is no adapter. */
	tree_device(self->tree, CLIENT, "i2c", "at24", "auto", "suspended",
		    0, 0);
	ASSERT_EQ(0, devpm_i2c_adapters(&a, &n));
	ASSERT_EQ(2, n);
	EXPECT_EQ(0, a[0].nr);
	EXPECT_STREQ(ADAP, a[0].path);
	EXPECT_STREQ(I801, a[0].ctrl);
	EXPECT_STREQ("0000:00:1f.3", a[0].ctrl_name);
	EXPECT_TRUE(devpm_i2c_is_i801(&a[0]));
	/* Negative: no ancestor with power/control, and not an i801. */
	EXPECT_EQ(1, a[1].nr);
	EXPECT_STREQ("", a[1].ctrl);
	EXPECT_FALSE(devpm_i2c_is_i801(&a[1]));
	free(a);
}

TEST_F(i2c, new_device_is_journaled_and_removed)
{
	char j[8192], want[UNIT_PATH_MAX], real[UNIT_PATH_MAX];

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_i2c_new_device(0, "24c02", 0x50));
	EXPECT_STREQ("24c02 0x50", tree_val(self->tree, ADAP "/new_device"));
	EXPECT_STREQ("", tree_val(self->tree, ADAP "/delete_device"));
	snprintf(want, sizeof(want), "%s/journal", self->dir);
	ASSERT_EQ(0, unit_get("", want, j, sizeof(j)));
	/* The adapter's link resolved: restore follows no link. */
	devpm_real_path(real, sizeof(real), ADAP "/delete_device");
	snprintf(want, sizeof(want), "%sU %s\t0x50\n",
		 unit_journal_header(devpm_sysfs_root()), real);
	EXPECT_STREQ(want, j);
	ASSERT_EQ(1, devpm_journal_restore_all());
	EXPECT_STREQ("0x50", tree_val(self->tree, ADAP "/delete_device"));
}

TEST_F(i2c, taken_address_is_refused)
{
	tree_device(self->tree, CLIENT, "i2c", "at24", "auto", "suspended",
		    0, 0);
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	EXPECT_EQ(-EEXIST, devpm_i2c_new_device(0, "24c02", 0x50));
	EXPECT_NE(NULL, strstr(devpm_error(), "0x50"));
	/* Nothing written, nothing to undo. */
	EXPECT_STREQ("", tree_val(self->tree, ADAP "/new_device"));
	EXPECT_EQ(0, devpm_journal_restore_all());
	EXPECT_STREQ("", tree_val(self->tree, ADAP "/delete_device"));
}

/* A run killed after new_device: the next owner removes the client. */
TEST_F(i2c, client_removed_after_sigkill)
{
	int p[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(p[0]);
		if (devpm_journal_open_owner(self->dir) ||
		    devpm_i2c_new_device(0, "24c02", 0x50))
			_exit(1);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &c, 1));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	/* Killed: nothing removed it... */
	EXPECT_STREQ("24c02 0x50", tree_val(self->tree, ADAP "/new_device"));
	EXPECT_STREQ("", tree_val(self->tree, ADAP "/delete_device"));
	/* ... until the next owner (what `devpm restore` does). */
	ASSERT_EQ(1, devpm_journal_restore_all());
	EXPECT_STREQ("0x50", tree_val(self->tree, ADAP "/delete_device"));
}

TEST_F(i2c, eeprom_is_the_nvmem_below_the_client)
{
	char path[UNIT_PATH_MAX], buf[16];

	tree_device(self->tree, CLIENT, "i2c", "at24", "auto", "suspended",
		    0, 0);
	/* Negative: a client without an nvmem device has no EEPROM. */
	EXPECT_EQ(-ENOENT, devpm_i2c_eeprom(CLIENT, path, sizeof(path)));
	tree_put(self->tree, CLIENT "/0-00501/nvmem", "0123456789abcdef");
	ASSERT_EQ(0, devpm_i2c_eeprom(CLIENT, path, sizeof(path)));
	EXPECT_STREQ(CLIENT "/0-00501/nvmem", path);
	ASSERT_EQ(8, devpm_i2c_eeprom_read(path, buf, 8, 4));
	EXPECT_EQ(0, memcmp(buf, "456789ab", 8));
	ASSERT_EQ(0, devpm_i2c_client(0, 0x50, path, sizeof(path)));
	EXPECT_STREQ(CLIENT, path);
	EXPECT_EQ(-ENOENT, devpm_i2c_client(0, 0x51, path, sizeof(path)));
}

TEST_F(i2c, i2c_dev_node)
{
	int fd;

	/* Negative: without i2c-dev the message says what to load. */
	EXPECT_EQ(-ENOENT, devpm_i2c_dev_open(0));
	EXPECT_NE(NULL, strstr(devpm_error(), "i2c-dev"));
	tree_put(self->tree, "/sys/class/i2c-dev/i2c-0/dev", "89:0");
	tree_put(self->tree, "/dev/i2c-0", "");
	fd = devpm_i2c_dev_open(0);
	ASSERT_LE(0, fd);
	close(fd);
	/* Not an i2c adapter fd: no functionality. */
	fd = devpm_i2c_dev_open(0);
	EXPECT_EQ(0, devpm_i2c_funcs(fd));
	close(fd);
}

/* On the real system: a node made in the run directory, gone at once. */
TEST(devnode_private_node)
{
	char dir[UNIT_PATH_MAX], left[64];
	int fd;

	if (geteuid())
		SKIP(return, "needs root (mknod)");
	ASSERT_EQ(0, unit_mkdtemp(dir, sizeof(dir)));
	setenv("DEVPM_JOURNAL_DIR", dir, 1);
	devpm_set_sysfs_root(NULL);
	/* /dev/devpm-null does not exist: a private node is made. */
	fd = devpm_devnode_open("/sys/class/mem/null", "devpm-null", false,
				O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, read(fd, left, sizeof(left)));
	close(fd);
	/* Nothing is left behind. */
	{
		DIR *d = opendir(dir);
		struct dirent *e;
		int n = 0;

		ASSERT_NE(NULL, d);
		while ((e = readdir(d)))
			n += e->d_name[0] != '.';
		closedir(d);
		EXPECT_EQ(0, n);
	}
	/* Negative: no such device, and a name with a slash. */
	EXPECT_GT(0, devpm_devnode_open("/sys/class/mem/devpm-none", "x",
					false, O_RDONLY));
	EXPECT_EQ(-EINVAL, devpm_devnode_open("/sys/class/mem/null", "a/b",
					      false, O_RDONLY));
	unit_rm_rf(dir);
}

TEST_HARNESS_MAIN
