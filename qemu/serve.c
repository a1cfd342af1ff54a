// SPDX-License-Identifier: GPL-2.0-only
/*
 * serve.c - what the agent does for the guest through QMP: its requests
 * (lib/core/host.h; parsed by request.c), QEMU's events, and the wakes that
 * wake.c decides.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "state.h"

void on_qmp_event(void *ctx, const char *json)
{
	struct agent *a = ctx;
	char ev[64];

	if (json_str(json, "event", ev, sizeof(ev)))
		return;
	logf_(a, "qmp event %s", json);
	/*
	 * VSERPORT_CHANGE is rate-limited to one a second: too late to
	 * tell sleep from resume; see poll_sleep().
	 */
	if (!strcmp(ev, "SUSPEND")) {
		a->s3_seen = true;
		wake_suspended(&a->wake);
	} else if (!strcmp(ev, "WAKEUP")) {
		wake_awake(&a->wake);
	} else if (!strcmp(ev, "GUEST_PANICKED")) {
		end_run(a, ST_CRASH, AFTER_PANIC_S, "guest panicked (%s)",
			a->crash[0] ? a->crash : "pvpanic");
	}
}

int qmp(struct agent *a, const char *cmd, char *reply, size_t len)
{
	int r;

	if (!a->qmp_up) {
		snprintf(reply, len, "no QMP connection");
		return -ENOTCONN;
	}
	r = qmp_cmd(&a->qmp, cmd, reply, len, QMP_TIMEOUT_MS);
	logf_(a, "qmp %s -> %d %s", cmd, r, reply);
	if (r == -EPIPE)
		a->qmp_up = false;
	if (r == -ETIMEDOUT)
		snprintf(reply, len, "no reply within %d ms", QMP_TIMEOUT_MS);
	return r;
}

/* "running", "suspended", ... into st; 0 or -errno. */
static int guest_status(struct agent *a, char *st, size_t len)
{
	char reply[1024];
	int r = qmp(a, "{\"execute\":\"query-status\"}", reply, sizeof(reply));

	if (r)
		return r;
	return json_str(reply, "return.status", st, len);
}

/*
 * Is the guest's virtio-serial device driven (DRIVER_OK)?  A sleeping
 * guest has reset it (virtio's freeze); resume sets it again before any
 * task thaws.  1 driven, 0 reset, -errno.  Polled: QMP's port events come
 * up to a second late.
 */
static int virtio_driven(struct agent *a)
{
	char cmd[256], reply[8192];
	int r;

	if (!a->qmp_up)
		return -ENOTCONN;
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"x-query-virtio-status\",\"arguments\":"
		 "{\"path\":\"%s\"}}", a->sleep_dev);
	r = qmp_cmd(&a->qmp, cmd, reply, sizeof(reply), QMP_TIMEOUT_MS);
	if (r)
		return r;
	return !!strstr(reply, "DRIVER_OK");
}

static int press_keys(struct agent *a, const struct request *r, char *err,
		      size_t len);

/* While a wake is armed, follow the guest into sleep and out of it. */
void poll_sleep(struct agent *a)
{
	uint64_t t = now_us();
	int driven;

	if (!a->wake.armed || t < a->next_poll)
		return;
	a->next_poll = t + 20000;
	driven = virtio_driven(a);
	if (driven < 0)
		return;
	if (a->wake.asleep == driven)
		logf_(a, "wake: guest %s", driven ? "resumed" :
		      "devices frozen");
	/* A key armed with the wake: pressed as the guest's devices froze. */
	if (!driven && a->wake_key_armed) {
		char err[512];

		a->wake_key_armed = false;
		if (press_keys(a, &a->wake_key, err, sizeof(err)))
			logf_(a, "wake: key while asleep failed: %s", err);
		else
			logf_(a, "wake: key %s pressed while the guest sleeps",
			      a->wake_key.keys[0]);
	}
	wake_port(&a->wake, driven, t);
}

static void send_console(struct agent *a, const char *s)
{
	if (a->fd[CH_CONSOLE] >= 0 &&
	    write(a->fd[CH_CONSOLE], s, strlen(s)) < 0)
		logf_(a, "console write: %s", strerror(errno));
}

void do_wake(struct agent *a, enum wake_action act)
{
	char reply[1024], st[32] = "";

	switch (act) {
	case WAKE_NONE:
		return;
	case WAKE_EXPIRED:
		logf_(a, "wake: armed wake expired, the guest never slept");
		return;
	case WAKE_SYSTEM_WAKEUP:
		if (guest_status(a, st, sizeof(st)) || strcmp(st, "suspended")) {
			logf_(a, "wake: SUSPEND seen but status '%s': no wake",
			      st);
			return;
		}
		qmp(a, "{\"execute\":\"system_wakeup\"}", reply, sizeof(reply));
		return;
	case WAKE_SERIAL:
	case WAKE_POWER_BUTTON:
		/* s2idle looks "running"; S3 after all takes system_wakeup. */
		if (!guest_status(a, st, sizeof(st)) &&
		    !strcmp(st, "suspended")) {
			qmp(a, "{\"execute\":\"system_wakeup\"}", reply,
			    sizeof(reply));
			wake_awake(&a->wake);
			return;
		}
		/* Right now, not 20 ms ago: still in this cycle's sleep? */
		if (virtio_driven(a) != 0) {
			logf_(a, "wake: guest resumed before the kick");
			wake_awake(&a->wake);
			return;
		}
		if (act == WAKE_SERIAL) {
			logf_(a, "wake: character on the console");
			send_console(a, "\n");
		} else {
			qmp(a, "{\"execute\":\"system_powerdown\"}", reply,
			    sizeof(reply));
		}
		return;
	}
}

/*
 * The display console a keyboard is bound to (its "display" and "head"
 * properties; the profile binds kbd0 to a ramfb): input-send-event reaches
 * a given keyboard only through it.  An unbound keyboard gets console ""
 * (the default one).  0, or -errno with why.
 */
static int key_console(struct agent *a, const char *dev, char *console,
		       size_t len, int *head, char *why, size_t wlen)
{
	char cmd[256], reply[512];
	long h = 0;
	int r;

	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"qom-get\",\"arguments\":{\"path\":"
		 "\"/machine/peripheral/%s\",\"property\":\"display\"}}", dev);
	r = qmp(a, cmd, reply, sizeof(reply));
	if (r) {
		snprintf(why, wlen, "no keyboard '%s': %s", dev, reply);
		return r;
	}
	if (json_str(reply, "return", console, len))
		console[0] = '\0';
	if (!console[0])
		return 0;
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"qom-get\",\"arguments\":{\"path\":"
		 "\"/machine/peripheral/%s\",\"property\":\"head\"}}", dev);
	if (!qmp(a, cmd, reply, sizeof(reply)))
		json_int(reply, "return", &h);
	*head = (int)h;
	return 0;
}

/* One guest request; the reply line (without newline) into out. */
static void serve(struct agent *a, const char *line, char *out, size_t len)
{
	char tag[24] = "", why[512], reply[1024], st[32];
	struct request r;
	int ret;
	size_t n;

	/* An optional "#<n> " tag is echoed, so a late reply is told apart. */
	if (line[0] == '#') {
		n = strcspn(line, " ");
		if (n < sizeof(tag) - 1) {
			snprintf(tag, sizeof(tag), "%.*s ", (int)n, line);
			line += n + (line[n] == ' ');
		}
	}
	/* The guest is talking: any earlier wake is obsolete. */
	wake_awake(&a->wake);
	a->wake_key_armed = false;
	if (request_parse(line, &r, why, sizeof(why))) {
		snprintf(out, len, "%s%s", tag, why);
		return;
	}
	switch (r.kind) {
	case REQ_PING:
		snprintf(out, len, "%sok pong", tag);
		return;
	case REQ_KEY:
	case REQ_LINK:
		if (press_keys(a, &r, reply, sizeof(reply)))
			snprintf(out, len, "%serr %s", tag, reply);
		else
			snprintf(out, len, "%sok", tag);
		return;
	case REQ_WAKE:
		ret = guest_status(a, st, sizeof(st));
		if (ret) {
			snprintf(out, len, "%serr qmp query-status: %s", tag,
				 strerror(-ret));
			return;
		}
		wake_arm(&a->wake, r.wake, r.timeout_ms, now_us());
		a->wake.delay_us = (uint64_t)r.delay_ms * 1000;
		a->wake_key = r;
		a->wake_key.kind = REQ_KEY;
		a->wake_key_armed = r.wake_key;
		snprintf(out, len, "%sok armed %s %d ms (guest %s)", tag,
			 r.wake == WAKE_MEM ? "mem" :
			 r.wake == WAKE_FREEZE ? "freeze" : "auto",
			 r.timeout_ms, st);
		return;
	}
}

/* A key or link request through QMP; 0, or -1 with err ("qmp: ..."). */
static int press_keys(struct agent *a, const struct request *r, char *err,
		      size_t len)
{
	char console[64] = "", cmd[4096], reply[1024];
	int head = 0;

	if (r->kind == REQ_KEY && r->dev[0] &&
	    key_console(a, r->dev, console, sizeof(console), &head, err, len))
		return -1;
	if (request_qmp(r, console, head, cmd, sizeof(cmd))) {
		snprintf(err, len, "request too long");
		return -1;
	}
	if (qmp(a, cmd, reply, sizeof(reply))) {
		snprintf(err, len, "qmp: %s", reply);
		return -1;
	}
	return 0;
}

void on_agent_line(struct agent *a, const char *line)
{
	char out[1100];
	size_t n;

	serve(a, line, out, sizeof(out));
	logf_(a, "request '%s' -> '%s'", line, out);
	n = strlen(out);
	out[n++] = '\n';
	if (write(a->fd[CH_AGENT], out, n) != (ssize_t)n)
		logf_(a, "agent reply write: %s", strerror(errno));
}
