// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_host.c - lib/core/host.c against a fake agent: a fake sysfs root whose
 * /sys/class/virtio-ports/vport9p1 is named org.devpm.agent and whose
 * /dev/vport9p1 is a pty, with a forked child playing the host agent on
 * the master side.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "devpm.h"
#include "core/host.h"
#include "kselftest_harness.h"
#include "unit.h"

enum agent_mode { AG_OK, AG_ERR, AG_STALE, AG_SILENT };

FIXTURE(host) {
	char root[UNIT_PATH_MAX];
	int master, slave;
	pid_t agent;
};

FIXTURE_SETUP(host)
{
	struct termios t;

	self->agent = -1;
	self->slave = -1;
	ASSERT_EQ(0, unit_mkdtemp(self->root, sizeof(self->root)));
	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	self->master = posix_openpt(O_RDWR | O_NOCTTY);
	ASSERT_LE(0, self->master);
	ASSERT_EQ(0, grantpt(self->master));
	ASSERT_EQ(0, unlockpt(self->master));
	/*
	 * Raw, no echo: the line goes through as a virtio port's would.
	 * The slave stays open so its settings stay.
	 */
	self->slave = open(ptsname(self->master), O_RDWR | O_NOCTTY);
	ASSERT_LE(0, self->slave);
	ASSERT_EQ(0, tcgetattr(self->slave, &t));
	cfmakeraw(&t);
	ASSERT_EQ(0, tcsetattr(self->slave, TCSANOW, &t));
	ASSERT_EQ(0, unit_put(self->root, "sys/class/virtio-ports/vport9p0/name",
			      "org.devpm.results\n"));
	ASSERT_EQ(0, unit_put(self->root, "sys/class/virtio-ports/vport9p1/name",
			      "org.devpm.agent\n"));
	ASSERT_EQ(0, unit_mkdir(self->root, "dev"));
	ASSERT_EQ(0, unit_link(self->root, "dev/vport9p1",
			       ptsname(self->master)));
}

FIXTURE_TEARDOWN(host)
{
	if (self->agent > 0) {
		kill(self->agent, SIGKILL);
		waitpid(self->agent, NULL, 0);
	}
	close(self->master);
	if (self->slave >= 0)
		close(self->slave);
	devpm_set_sysfs_root(NULL);
	unit_rm_rf(self->root);
}

/*
 * The fake agent: read one request line, check it is "#<tag> <want>",
 * answer as mode says.  Exits 0 when the request was as expected.
 */
static pid_t fake_agent(int master, enum agent_mode mode, const char *want)
{
	pid_t pid = fork();
	char line[1024], reply[1200], *sp;
	size_t n = 0;

	if (pid)
		return pid;
	while (n < sizeof(line) - 1) {
		if (read(master, line + n, 1) != 1)
			_exit(3);
		if (line[n] == '\n')
			break;
		n++;
	}
	line[n] = '\0';
	sp = strchr(line, ' ');
	if (line[0] != '#' || !sp || strcmp(sp + 1, want))
		_exit(1);
	*sp = '\0';
	switch (mode) {
	case AG_OK:
		snprintf(reply, sizeof(reply), "%s ok pong\n", line);
		break;
	case AG_ERR:
		snprintf(reply, sizeof(reply), "%s err nope\n", line);
		break;
	case AG_STALE:
		/* A late reply to someone else's request comes first. */
		snprintf(reply, sizeof(reply), "#1.1 ok stale\n%s ok fresh\n",
			 line);
		break;
	case AG_SILENT:
		sleep(5);
		_exit(0);
	}
	if (write(master, reply, strlen(reply)) < 0)
		_exit(2);
	sleep(1);	/* keep the master open until the reply is read */
	_exit(0);
}

static int agent_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

TEST_F(host, ping_ok)
{
	char reply[64];

	ASSERT_TRUE(devpm_host_available());
	self->agent = fake_agent(self->master, AG_OK, "ping");
	ASSERT_EQ(0, devpm_host_request("ping", reply, sizeof(reply), 3000))
		TH_LOG("%s", devpm_error());
	ASSERT_STREQ("ok pong", reply);
	ASSERT_EQ(0, agent_status(self->agent));
	self->agent = -1;
}

TEST_F(host, err_reply)
{
	char reply[64];

	self->agent = fake_agent(self->master, AG_ERR, "key --dev kbd0 a");
	ASSERT_EQ(-EREMOTEIO, devpm_host_request("key --dev kbd0 a", reply,
						 sizeof(reply), 3000));
	ASSERT_STREQ("err nope", reply);
	ASSERT_NE(NULL, strstr(devpm_error(), "err nope"));
	ASSERT_EQ(0, agent_status(self->agent));
	self->agent = -1;
}

TEST_F(host, stale_reply_skipped)
{
	char reply[64];

	self->agent = fake_agent(self->master, AG_STALE, "wake freeze");
	ASSERT_EQ(0, devpm_host_request("wake freeze", reply, sizeof(reply),
					3000)) TH_LOG("%s", devpm_error());
	ASSERT_STREQ("ok fresh", reply);
}

TEST_F(host, timeout_bounded)
{
	struct timespec a, b;
	char reply[64] = "untouched";
	long ms;

	self->agent = fake_agent(self->master, AG_SILENT, "ping");
	clock_gettime(CLOCK_MONOTONIC, &a);
	ASSERT_EQ(-ETIMEDOUT, devpm_host_request("ping", reply, sizeof(reply),
						 300));
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	ASSERT_GE(ms, 290);
	ASSERT_LT(ms, 2000);
	ASSERT_STREQ("untouched", reply);
	ASSERT_NE(NULL, strstr(devpm_error(), "no reply"));
}

TEST_F(host, bad_request)
{
	char reply[64];

	ASSERT_EQ(-EINVAL, devpm_host_request("ping\nping", reply,
					      sizeof(reply), 300));
	ASSERT_EQ(-EINVAL, devpm_host_request("", reply, sizeof(reply), 300));
	ASSERT_EQ(-EINVAL, devpm_host_request(NULL, reply, sizeof(reply), 300));
}

TEST_F(host, no_agent_port)
{
	char reply[64];

	/* Negative control: only the port named org.devpm.agent counts. */
	ASSERT_EQ(0, unit_put(self->root, "sys/class/virtio-ports/vport9p1/name",
			      "org.devpm.other\n"));
	ASSERT_FALSE(devpm_host_available());
	ASSERT_EQ(-ENODEV, devpm_host_request("ping", reply, sizeof(reply),
					      300));
	ASSERT_NE(NULL, strstr(devpm_error(), "no host agent"));
	unit_rm_rf(self->root);
	ASSERT_FALSE(devpm_host_available());
}

TEST_HARNESS_MAIN
