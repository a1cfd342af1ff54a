// SPDX-License-Identifier: GPL-2.0-only
/*
 * hid.c - an open USB keyboard that can do remote wakeup autosuspends and
 * loses no key: keys pressed while it sleeps wake it and arrive once each,
 * in order.  Its negative control: a keyboard that cannot do remote wakeup
 * stays active while open, the trace showing the USB core refusing each
 * idle check (autosuspend_check(): "remote wakeup needed for
 * autosuspend"), and suspends once closed.
 *
 * On 6.1 the condition is device_can_wakeup(), the device's capability:
 * power/wakeup=disabled does not stop an open keyboard from autosuspending
 * (it governs system sleep).  A keyboard without the capability is made
 * here: a configfs HID gadget whose configuration lacks the remote-wakeup
 * bit (gadget.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "harness/test.h"
#include "bus/input/input.h"
#include "bus/usb/gadget.h"
#include "bus/usb/usb.h"
#include "bus/usb/usb_bus.h"
#include "core/host.h"
#include "rpm/rpm_order.h"
#include "trace/transition.h"

#define DELAY_MS	50
#define ROUNDS		3	/* wakes per keyboard */
#define BURST		3	/* keys per wake, sent while suspended */
#define EVENT_MS	2000	/* a key must arrive within this */
#define LATE_MS		200	/* and none after the last, so long */
#define HOLD_MS		(DELAY_MS + 150)	/* well past the delay */
#define MAX_KEYS	(2 * ROUNDS * BURST + 16)
#define DYNDBG		"/sys/kernel/debug/dynamic_debug/control"
#define REFUSAL		"remote wakeup needed for autosuspend"

static const struct devpm_test_info info = {
	.suite = "usb",
	.timeout_s = 90,
	.needs = {
		.root = true,
		.files = (const char *const[]){ "/sys/bus/usb/devices", NULL },
	},
};

struct kbd {
	struct devpm_usb u;
	char event[16];
	struct devpm_input *in;
	bool ok, failed;
	char why[640];
	struct devpm_key got[MAX_KEYS];
	int ngot;
	uint64_t wake_us[ROUNDS];
	int nwake;
	bool aim;		/* the agent can send it keys by its id */
	bool sending;		/* in this round */
	uint64_t sent;
};

struct hid_state {
	off_t mark;
	struct kbd *k;
	size_t n;
	struct devpm_trace *t;
	struct devpm_gadget g;
	struct devpm_kmsg *kmsg;
};

FIXTURE(hid) {
	struct hid_state st;
};

FIXTURE_SETUP(hid)
{
	self->st.mark = devpm_case_setup();
	self->st.g.hid_fd = -1;
}

FIXTURE_TEARDOWN(hid)
{
	const struct devpm_usb **u = calloc(self->st.n + 1, sizeof(*u));
	struct devpm_usb_hold *h = NULL;
	size_t i;

	for (i = 0; i < self->st.n; i++) {
		devpm_input_close(self->st.k[i].in);
		if (u)
			u[i] = &self->st.k[i].u;
	}
	devpm_kmsg_close(self->st.kmsg);
	devpm_trace_stop(self->st.t);
	devpm_gadget_close(&self->st.g);
	/* Awake at once, so that putting control=on back is quick. */
	if (u)
		h = devpm_usb_hold(u, self->st.n);
	DEVPM_CASE_RESTORE(self->st.mark);
	devpm_usb_release(h);
	free(u);
	free(self->st.k);
	DEVPM_CASE_VERDICT();
}

static void out(struct kbd *k, bool failed, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void out(struct kbd *k, bool failed, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->why, sizeof(k->why), fmt, ap);
	va_end(ap);
	k->ok = false;
	k->failed = failed;
}

/* In the keyboard's block: one taken out ends it with its reason. */
static void still_in(struct devpm_block *b, const struct kbd *k)
{
	if (k->ok)
		return;
	if (k->failed)
		devpm_block_abort(b, "%s", k->why);
	devpm_block_skip(b, "%s", k->why);
}

/* The keyboard evdev node in one of u's own interfaces, opened. */
static bool find_keyboard(struct kbd *k)
{
	struct devpm_input_node ev[8];
	char kp[DEVPM_PATH_MAX];
	struct devpm_input *in;
	int i, n;

	n = devpm_input_find(k->u.dev.path, ev, 8);
	for (i = 0; i < n && i < 8; i++) {
		if (devpm_input_dev_path(ev[i].name, kp, sizeof(kp)) ||
		    !devpm_usb_owns(&k->u, kp) ||
		    devpm_input_open(ev[i].name, &in))
			continue;
		if (devpm_input_is_keyboard(in)) {
			snprintf(k->event, sizeof(k->event), "%s", ev[i].name);
			k->in = in;
			return true;
		}
		devpm_input_close(in);
	}
	return false;
}

/* Every USB keyboard, its evdev node open. */
static int keyboards(struct hid_state *self)
{
	struct devpm_usb *list;
	size_t i, n;
	int r;

	r = devpm_usb_list(&list, &n);
	if (r)
		return r;
	self->k = calloc(n + 1, sizeof(*self->k));
	if (!self->k) {
		free(list);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct kbd *k = &self->k[self->n];

		if (list[i].hub || list[i].root_hub)
			continue;
		k->u = list[i];
		if (!find_keyboard(k))
			continue;
		k->ok = true;
		self->n++;
	}
	free(list);
	return 0;
}

static int trace_keyboards(struct hid_state *self)
{
	const char **names = calloc(self->n + 1, sizeof(*names));
	size_t i, k = 0;

	if (!names)
		return -ENOMEM;
	for (i = 0; i < self->n; i++)
		if (self->k[i].ok)
			names[k++] = self->k[i].u.dev.name;
	self->t = k ? devpm_trace_start(names) : NULL;
	if (k && !self->t)
		devpm_note("no trace (%s): polling runtime_status",
			   devpm_error());
	free(names);
	return 0;
}

/* A QOM id the agent can aim at: the profile gives usb-kbd serial=<id>. */
static bool agent_id(const char *serial)
{
	size_t i;

	if (!serial[0] || strlen(serial) > 60)
		return false;
	for (i = 0; serial[i]; i++)
		if (!(serial[i] == '_' || serial[i] == '-' ||
		      (serial[i] >= 'a' && serial[i] <= 'z') ||
		      (serial[i] >= 'A' && serial[i] <= 'Z') ||
		      (serial[i] >= '0' && serial[i] <= '9')))
			return false;
	return true;
}

/* Forget what the other keyboards read; did any get a key? */
static const char *drain_others(struct hid_state *self, struct kbd *me)
{
	struct devpm_key junk[32];
	const char *who = NULL;
	size_t i;

	for (i = 0; i < self->n; i++)
		if (&self->k[i] != me && self->k[i].in &&
		    devpm_input_read_keys(self->k[i].in, junk, 32, 32, 0) > 0)
			who = self->k[i].u.dev.name;
	return who;
}

/* When dev's first resume after from began (0: not in the trace). */
static uint64_t resume_began(struct devpm_trace *t, const char *dev,
			     uint64_t from)
{
	struct devpm_call c[32];
	const struct devpm_event *ev;
	size_t n, k, i;

	if (!t)
		return 0;
	ev = devpm_trace_read(t, 0, &n);
	k = devpm_rpm_calls(ev, n, dev, from, UINT64_MAX, c, 32);
	for (i = 0; i < k && i < 32; i++)
		if (c[i].type == DEVPM_EV_RPM_RESUME && c[i].ret == 0 &&
		    c[i].ret_us && !(c[i].flags & DEVPM_RPM_ASYNC))
			return c[i].call_us;
	return 0;
}

static bool asleep(struct hid_state *self, struct kbd *k)
{
	struct devpm_wait_result res;
	int r;

	r = devpm_wait_status(&k->u.dev, self->t, "suspended",
			      4 * DELAY_MS + DEVPM_USB_BOUND_MS, &res);
	if (r)
		out(k, true, "open, wakeup enabled, idle: %s",
		    r == -ETIMEDOUT ? res.why : devpm_error());
	return !r;
}

/*
 * Ask the agent to press and release this round's BURST keys.  Returns
 * true when they were sent; an aimed request the agent refuses in the
 * first round turns the keyboard undirected (k->aim false, nothing sent).
 */
static bool send_keys(struct kbd *k, int round)
{
	char req[160], reply[256], keys[64] = "";
	int i, o = 0, r;

	for (i = 0; i < BURST; i++)
		o += snprintf(keys + o, sizeof(keys) - o, " %c",
			      'a' + round * BURST + i);
	snprintf(req, sizeof(req), "key%s%s%s", k->aim ? " --dev " : "",
		 k->aim ? k->u.serial : "", keys);
	k->sent = devpm_now_us();
	r = devpm_host_request(req, reply, sizeof(reply), EVENT_MS);
	if (!r && !strncmp(reply, "ok", 2))
		return true;
	if (k->aim && !round) {
		k->aim = false;
		return false;
	}
	out(k, true, "host agent: '%s': %s", req, r ? devpm_error() : reply);
	return false;
}

/* This round's key events, and the time from the resume to the first. */
static void collect(struct hid_state *self, struct kbd *k)
{
	const char *other;
	uint64_t began;
	int r;

	r = devpm_input_read_keys(k->in, k->got + k->ngot, MAX_KEYS - k->ngot,
				  2 * BURST, EVENT_MS);
	if (r < 0) {
		out(k, true, "%s", devpm_error());
		return;
	}
	if (r == 0) {
		other = drain_others(self, k);
		if (!k->aim && other)
			out(k, false,
			    "the host agent cannot aim at it (serial '%s') and its undirected keys reach %s",
			    k->u.serial, other);
		else
			out(k, true,
			    "%d keys sent while it was suspended: none arrived in %d ms",
			    BURST, EVENT_MS);
		return;
	}
	began = resume_began(self->t, k->u.dev.name, k->sent);
	if (began && k->got[k->ngot].ts_us >= began && k->nwake < ROUNDS)
		k->wake_us[k->nwake++] = k->got[k->ngot].ts_us - began;
	k->ngot = k->ngot + r < MAX_KEYS ? k->ngot + r : MAX_KEYS;
}

/*
 * The keyboards the agent can aim at go through the rounds together;
 * undirected keys reach one keyboard only, so the others go one by one.
 */
static void all_rounds(struct hid_state *self)
{
	struct kbd *k;
	size_t i;
	int round;

	for (round = 0; round < ROUNDS; round++) {
		for (i = 0; i < self->n; i++) {
			k = &self->k[i];
			k->sending = k->ok && k->aim && asleep(self, k);
		}
		for (i = 0; i < self->n; i++) {
			k = &self->k[i];
			if (k->sending)
				k->sending = send_keys(k, round);
		}
		for (i = 0; i < self->n; i++)
			if (self->k[i].sending && self->k[i].ok)
				collect(self, &self->k[i]);
	}
	for (i = 0; i < self->n; i++) {
		k = &self->k[i];
		if (k->aim || !k->ok)
			continue;
		drain_others(self, NULL);
		for (round = 0; k->ok && round < ROUNDS; round++)
			if (asleep(self, k) && send_keys(k, round) && k->ok)
				collect(self, k);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct kbd_case {
	struct hid_state *st;
	struct kbd *k;
	int late_ms;		/* how long to wait for late events */
};

/* Every key once, in order, code and value; then asleep again. */
static void no_lost_key_one(struct devpm_block *b, void *arg)
{
	struct kbd_case *x = arg;
	struct hid_state *self = x->st;
	struct kbd *k = x->k;
	struct devpm_wait_result res;
	char keys[ROUNDS * BURST + 1], why[256];
	int i, r;

	still_in(b, k);
	/* Anything late (a key twice) shows up now. */
	r = devpm_input_read_keys(k->in, k->got + k->ngot, MAX_KEYS - k->ngot,
				  MAX_KEYS, x->late_ms);
	if (r > 0)
		k->ngot = k->ngot + r < MAX_KEYS ? k->ngot + r : MAX_KEYS;
	for (i = 0; i < ROUNDS * BURST; i++)
		keys[i] = 'a' + i;
	keys[i] = '\0';
	if (devpm_input_check_keys(k->got, k->ngot, keys, why,
				   sizeof(why)))
		devpm_block_abort(b, "%s", why);
	r = devpm_wait_status(&k->u.dev, self->t, "suspended",
			      4 * DELAY_MS + DEVPM_USB_BOUND_MS, &res);
	if (r)
		devpm_block_abort(b, "after the keys: %s",
				r == -ETIMEDOUT ? res.why : devpm_error());
	if (k->nwake) {
		qsort(k->wake_us, k->nwake, sizeof(uint64_t), cmp_u64);
		devpm_metric(k->u.dev.name, "wake_to_event_us_p50",
			     (double)k->wake_us[k->nwake / 2]);
		devpm_metric(k->u.dev.name, "wake_to_event_us_max",
			     (double)k->wake_us[k->nwake - 1]);
	}
	devpm_block_pass(b,
		       "%d keys sent in %d wakes while suspended arrived once each, in order; wake to event p50 %.1f ms, max %.1f ms; suspended again",
		       ROUNDS * BURST, ROUNDS,
		       k->nwake ? k->wake_us[k->nwake / 2] / 1000.0 : 0.0,
		       k->nwake ? k->wake_us[k->nwake - 1] / 1000.0 : 0.0);
}

TEST_F_TIMEOUT(hid, hid_remote_wakeup_no_lost_key, 60)
{
	struct devpm_subtest s;
	bool agent = devpm_host_available();
	struct kbd_case x = { &self->st, NULL, LATE_MS };
	size_t i;
	int r;

	ASSERT_EQ(0, keyboards(&self->st)) TH_LOG("%s", devpm_error());
	if (!self->st.n)
		SKIP(return, "no USB keyboard (an evdev node with letter keys in a USB interface)");
	for (i = 0; i < self->st.n; i++) {
		struct kbd *k = &self->st.k[i];

		if (!agent) {
			out(k, false,
			    "no host agent (org.devpm.agent, in devpm's QEMU image): nothing presses keys");
			continue;
		}
		if (!k->u.dev.wakeup.capable) {
			out(k, false,
			    "cannot do remote wakeup (no power/wakeup): hid_without_wakeup_stays_active covers it");
			continue;
		}
		r = devpm_dev_knob_write(&k->u.dev, "wakeup", "enabled");
		if (!r)
			r = devpm_usb_allow_autosuspend(&k->u, DELAY_MS,
							DELAY_MS);
		if (r)
			out(k, r != -EPERM, "%s", devpm_error());
	}
	trace_keyboards(&self->st);
	for (i = 0; i < self->st.n; i++)
		self->st.k[i].aim = agent_id(self->st.k[i].u.serial);
	drain_others(&self->st, NULL);
	all_rounds(&self->st);
	devpm_subtest_begin(&s, "hid_remote_wakeup_no_lost_key");
	for (i = 0; i < self->st.n; i++) {
		x.k = &self->st.k[i];
		devpm_block_run(&s, x.k->u.dev.name, no_lost_key_one, &x);
		/* One window for late events serves every keyboard. */
		x.late_ms = 0;
	}
	DEVPM_SUBTEST_END(&s);
}

static bool kbd_found(void *arg)
{
	return find_keyboard(arg);
}

/* A keyboard without remote wakeup, made with the gadget; 0 or -errno. */
static int make_nowake_keyboard(struct hid_state *self)
{
	static const char *const mods[] = { "dummy_hcd", "libcomposite",
					    "usb_f_hid", NULL };
	struct devpm_gadget_cfg c = { .remote_wakeup = false,
				      .keyboard = true };
	struct devpm_usb u;
	struct kbd k = { 0 };
	int i, r;

	for (i = 0; mods[i]; i++) {
		r = devpm_module_load(mods[i], NULL);
		if (r)
			return r;
	}
	r = devpm_gadget_create(&c, &self->g);
	if (!r)
		r = devpm_gadget_host(&self->g, 3000, &u);
	if (r)
		return r;
	/* Its evdev node follows the USB device. */
	k.u = u;
	if (!devpm_poll_until(kbd_found, &k, 2000))
		return devpm_fail(ETIMEDOUT,
				  "gadget keyboard %s: no evdev node in 2 s",
				  u.dev.name);
	devpm_input_close(k.in);
	return 0;
}

struct said {
	char needle[160];
	char line[200];
};

/* The kernel's own words for the refusal, from dynamic debug. */
static void refusal_line(const char *line, void *arg)
{
	struct said *said = arg;

	if (strstr(line, said->needle) && !said->line[0])
		snprintf(said->line, sizeof(said->line), "%s", line);
}

static void no_wakeup_one(struct devpm_block *b, void *arg)
{
	struct kbd_case *x = arg;
	struct hid_state *self = x->st;
	struct kbd *k = x->k;
	const char *name = k->u.dev.name;
	const struct devpm_event *ev;
	struct devpm_wait_result res;
	char kp[DEVPM_PATH_MAX], inhibit[DEVPM_PATH_MAX] = "", checks[64];
	struct said said = { .line = "" };
	long long susp;
	uint64_t t0, t1;
	size_t n;
	int r, refused = -1;

	still_in(b, k);
	t0 = devpm_now_us();
	r = devpm_usb_control(&k->u, "on");
	if (!r)
		r = devpm_usb_allow_autosuspend(&k->u, DELAY_MS, DELAY_MS);
	if (r)
		devpm_block_abort(b, "%s", devpm_error());
	devpm_dev_snapshot(&k->u.dev);
	susp = k->u.dev.rpm.suspended_ms;
	r = devpm_wait_status(&k->u.dev, self->t, "suspended", HOLD_MS, &res);
	devpm_dev_snapshot(&k->u.dev);
	if (r != -ETIMEDOUT || k->u.dev.rpm.suspended_ms != susp)
		devpm_block_abort(b,
				"open, without remote wakeup, it suspended (status %s, runtime_suspended_time +%lld ms) %d ms after control=auto",
				k->u.dev.rpm.status,
				k->u.dev.rpm.suspended_ms - susp, HOLD_MS);
	snprintf(said.needle, sizeof(said.needle), " %s: %s", name, REFUSAL);
	if (self->kmsg)
		devpm_kmsg_drain(self->kmsg, refusal_line, &said);
	if (self->t) {
		ev = devpm_trace_read(self->t, 0, &n);
		refused = devpm_order_idle_refused(ev, n, name, t0,
						   devpm_now_us(), NULL);
		if (!refused)
			devpm_block_abort(b,
					"stayed active, but the trace shows no idle check refused by the USB core: held for another reason: %s",
					res.why);
	} else if (!said.line[0]) {
		devpm_block_skip(b,
			       "stayed active, but without tracefs or dynamic debug the refusal cannot be seen");
	}
	/* Closed: ours, and (inhibit) the VT keyboard handler's too. */
	devpm_input_close(k->in);
	k->in = NULL;
	r = devpm_input_dev_path(k->event, kp, sizeof(kp));
	if (!r && !devpm_fmt(inhibit, sizeof(inhibit), "%s/inhibited", kp) &&
	    devpm_exists(inhibit))
		r = devpm_knob_write(inhibit, "1");
	else
		inhibit[0] = '\0';
	t1 = devpm_now_us();
	if (!r)
		r = devpm_usb_control(&k->u, "on");
	if (!r)
		r = devpm_usb_control(&k->u, "auto");
	if (r)
		devpm_block_abort(b, "%s", devpm_error());
	r = devpm_wait_status(&k->u.dev, self->t, "suspended",
			      DELAY_MS + DEVPM_USB_BOUND_MS, &res);
	if (r)
		devpm_block_abort(b, "closed%s, still %s",
				inhibit[0] ? " (and inhibited)" : "",
				r == -ETIMEDOUT ? res.why : devpm_error());
	devpm_metric(name, "closed_to_suspended_ms",
		     (double)(res.at_us - t1) / 1000);
	snprintf(checks, sizeof(checks), refused < 0 ? "untraced" :
		 "%d idle checks refused in the trace", refused);
	devpm_block_pass(b,
		       "open: active %d ms past its %d ms delay, %s%s%s; closed%s: suspended %.1f ms after control=auto",
		       HOLD_MS - DELAY_MS, DELAY_MS, checks,
		       said.line[0] ? "; kernel: " : "", said.line,
		       inhibit[0] ? " (input inhibited: the VT handler holds every keyboard open)" : "",
		       (double)(res.at_us - t1) / 1000);
}

TEST_F_TIMEOUT(hid, hid_without_wakeup_stays_active, 60)
{
	struct devpm_subtest s;
	struct kbd_case x = { &self->st, NULL, 0 };
	char made[512] = "";
	size_t i;
	int r;

	r = make_nowake_keyboard(&self->st);
	if (r)
		snprintf(made, sizeof(made), "%s", devpm_error());
	ASSERT_EQ(0, keyboards(&self->st)) TH_LOG("%s", devpm_error());
	for (i = 0; i < self->st.n; i++) {
		struct kbd *k = &self->st.k[i];

		if (k->u.dev.wakeup.capable)
			out(k, false,
			    "can do remote wakeup: power/wakeup=disabled would not stop it (autosuspend_check() tests device_can_wakeup(); power/wakeup governs system sleep)");
	}
	trace_keyboards(&self->st);
	/* The kernel says why, with dynamic debug on autosuspend_check. */
	if (devpm_exists(DYNDBG) &&
	    !devpm_journal_undo_write(DYNDBG, "func autosuspend_check -p") &&
	    !devpm_write_str(DYNDBG, "func autosuspend_check +p"))
		self->st.kmsg = devpm_kmsg_open();
	devpm_subtest_begin(&s, "hid_without_wakeup_stays_active");
	if (made[0])
		devpm_subtest_skip(&s, "gadget",
			       "no keyboard without remote wakeup could be made: %s",
			       made);
	for (i = 0; i < self->st.n; i++) {
		x.k = &self->st.k[i];
		devpm_block_run(&s, x.k->u.dev.name, no_wakeup_one, &x);
	}
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
