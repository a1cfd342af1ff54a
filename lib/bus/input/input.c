// SPDX-License-Identifier: GPL-2.0-only
/*
 * input.c - evdev nodes of a device, read through libevdev (input.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bus/input/input.h"
#include "core/clock.h"
#include "core/sysfs.h"

struct devpm_input {
	int fd;
	struct libevdev *ev;
	char event[16];
};

static int cmp_event(const void *a, const void *b)
{
	const struct devpm_input_node *x = a, *y = b;

	return atoi(x->name + 5) - atoi(y->name + 5);
}

int devpm_input_find(const char *devpath, struct devpm_input_node *nodes,
		     int max)
{
	char link[DEVPM_PATH_MAX], kp[DEVPM_PATH_MAX];
	size_t plen = strlen(devpath);
	struct dirent *de;
	DIR *dir;
	int n = 0;

	dir = devpm_opendir("/sys/class/input");
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "event", 5) ||
		    strlen(de->d_name) >= sizeof(nodes[0].name))
			continue;
		if (devpm_fmt(link, sizeof(link), "/sys/class/input/%s",
			      de->d_name) ||
		    devpm_resolve(link, kp, sizeof(kp)))
			continue;
		if (strncmp(kp, devpath, plen) || kp[plen] != '/')
			continue;
		if (n < max)
			snprintf(nodes[n].name, sizeof(nodes[n].name), "%s",
				 de->d_name);
		n++;
	}
	closedir(dir);
	qsort(nodes, n < max ? n : max, sizeof(nodes[0]), cmp_event);
	return n;
}

int devpm_input_dev_path(const char *event, char *buf, size_t len)
{
	char link[DEVPM_PATH_MAX];
	char *slash;
	int r;

	if (strncmp(event, "event", 5) || strchr(event, '/'))
		return devpm_fail(EINVAL, "'%s' is not an evdev node name",
				  event);
	r = devpm_fmt(link, sizeof(link), "/sys/class/input/%s", event);
	if (!r)
		r = devpm_resolve(link, buf, len);
	if (r)
		return r;
	slash = strrchr(buf, '/');
	if (!slash || strncmp(slash + 1, "event", 5))
		return devpm_fail(EINVAL, "%s: not an evdev node", buf);
	*slash = '\0';
	return 0;
}

int devpm_input_open(const char *event, struct devpm_input **out)
{
	char kp[DEVPM_PATH_MAX], real[DEVPM_PATH_MAX];
	struct devpm_input *in;
	int r;

	*out = NULL;
	if (strncmp(event, "event", 5) || strchr(event, '/'))
		return devpm_fail(EINVAL, "'%s' is not an evdev node name",
				  event);
	r = devpm_fmt(kp, sizeof(kp), "/dev/input/%s", event);
	if (!r)
		r = devpm_real_path(real, sizeof(real), kp);
	if (r)
		return r;
	in = calloc(1, sizeof(*in));
	if (!in)
		return -ENOMEM;
	snprintf(in->event, sizeof(in->event), "%s", event);
	in->fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (in->fd < 0) {
		r = devpm_fail(errno, "%s: %s", real, strerror(errno));
		free(in);
		return r;
	}
	r = libevdev_new_from_fd(in->fd, &in->ev);
	if (!r)
		r = libevdev_set_clock_id(in->ev, CLOCK_MONOTONIC);
	if (r) {
		r = devpm_fail(-r, "%s: libevdev: %s", real, strerror(-r));
		devpm_input_close(in);
		return r;
	}
	*out = in;
	return 0;
}

void devpm_input_close(struct devpm_input *in)
{
	if (!in)
		return;
	if (in->ev)
		libevdev_free(in->ev);
	close(in->fd);
	free(in);
}

const char *devpm_input_name(const struct devpm_input *in)
{
	const char *s = libevdev_get_name(in->ev);

	return s ? s : "";
}

bool devpm_input_is_keyboard(const struct devpm_input *in)
{
	return libevdev_has_event_code(in->ev, EV_KEY, KEY_A) &&
	       libevdev_has_event_code(in->ev, EV_KEY, KEY_Z) &&
	       libevdev_has_event_code(in->ev, EV_KEY, KEY_ENTER);
}

bool devpm_input_key_event(const struct input_event *e, struct devpm_key *k)
{
	if (e->type != EV_KEY || (e->value != 0 && e->value != 1))
		return false;
	k->code = e->code;
	k->value = e->value;
	k->ts_us = (uint64_t)e->input_event_sec * 1000000 +
		   e->input_event_usec;
	return true;
}

int devpm_input_check_keys(const struct devpm_key *got, int n,
			   const char *qcodes, char *why, size_t len)
{
	int want = 2 * (int)strlen(qcodes), i, code, value;
	char qc[2] = "";

	why[0] = '\0';
	for (i = 0; i < want && i < n; i++) {
		qc[0] = qcodes[i / 2];
		code = devpm_input_qcode_key(qc);
		if (code < 0)
			return code;
		value = !(i % 2);
		if (got[i].code != code || got[i].value != value) {
			snprintf(why, len, "event %d: %s %d, expected %s %d",
				 i + 1, devpm_input_key_name(got[i].code),
				 got[i].value, devpm_input_key_name(code),
				 value);
			return 1;
		}
	}
	if (n < want) {
		qc[0] = qcodes[n / 2];
		snprintf(why, len,
			 "%d key events for %d keys: lost from event %d (%s %d) on",
			 n, want / 2, n + 1,
			 devpm_input_key_name(devpm_input_qcode_key(qc)),
			 !(n % 2));
		return 1;
	}
	if (n > want) {
		snprintf(why, len,
			 "%d key events for %d keys: extra event %d (%s %d)",
			 n, want / 2, want + 1,
			 devpm_input_key_name(got[want].code),
			 got[want].value);
		return 1;
	}
	return 0;
}

int devpm_input_read_keys(struct devpm_input *in, struct devpm_key *keys,
			  int max, int want, int timeout_ms)
{
	uint64_t deadline = devpm_now_us() + (uint64_t)timeout_ms * 1000;
	struct input_event e;
	struct devpm_key k;
	struct pollfd p;
	int got = 0, r;

	while (got < want) {
		r = libevdev_next_event(in->ev, LIBEVDEV_READ_FLAG_NORMAL, &e);
		if (r == LIBEVDEV_READ_STATUS_SYNC)
			return devpm_fail(EOVERFLOW,
					  "%s: the kernel dropped events (SYN_DROPPED)",
					  in->event);
		if (r == LIBEVDEV_READ_STATUS_SUCCESS) {
			if (!devpm_input_key_event(&e, &k))
				continue;
			if (got < max)
				keys[got] = k;
			got++;
			continue;
		}
		if (r != -EAGAIN)
			return devpm_fail(-r, "%s: read: %s", in->event,
					  strerror(-r));
		if (devpm_now_us() >= deadline)
			break;
		p = (struct pollfd){ .fd = in->fd, .events = POLLIN };
		r = (int)((deadline - devpm_now_us()) / 1000) + 1;
		if (poll(&p, 1, r) < 0 && errno != EINTR)
			return devpm_fail(errno, "%s: poll: %s", in->event,
					  strerror(errno));
	}
	return got;
}

int devpm_input_qcode_key(const char *qcode)
{
	char name[16];
	int code;

	if (strlen(qcode) != 1 ||
	    !((qcode[0] >= 'a' && qcode[0] <= 'z') ||
	      (qcode[0] >= '0' && qcode[0] <= '9')))
		return devpm_fail(EINVAL, "qcode '%s': only a-z and 0-9 map",
				  qcode);
	snprintf(name, sizeof(name), "KEY_%c", qcode[0] >= 'a' ?
		 qcode[0] - 'a' + 'A' : qcode[0]);
	code = libevdev_event_code_from_name(EV_KEY, name);
	return code < 0 ? devpm_fail(EINVAL, "no evdev code %s", name) : code;
}

int devpm_input_qcode_hid(const char *qcode)
{
	if (devpm_input_qcode_key(qcode) < 0)
		return -EINVAL;
	if (qcode[0] >= 'a')
		return 0x04 + qcode[0] - 'a';	/* HID usage 'a'..'z' */
	return qcode[0] == '0' ? 0x27 : 0x1e + qcode[0] - '1';
}

const char *devpm_input_key_name(int code)
{
	const char *s = libevdev_event_code_get_name(EV_KEY, code);

	return s ? s : "KEY_?";
}
