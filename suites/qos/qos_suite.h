/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qos_suite.h - what the QoS test programs share: a devpm_mock device
 * with its resume-latency limit and NO_POWER_OFF flag exposed
 * (docs/fixtures.md), traced with the runtime-PM and QoS events.
 */
#ifndef DEVPM_QOS_SUITE_H
#define DEVPM_QOS_SUITE_H

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devpm.h"
#include "mock.h"
#include "qos.h"

#define QOS_MOCK_ID		0
#define QOS_AUTOSUSPEND_MS	50
/* Suspended within the delay, its 25% timer slack and a margin. */
#define QOS_SUSPEND_BOUND_MS	(QOS_AUTOSUSPEND_MS * 5 / 4 + 1000)
/* "Held through three autosuspend delays", slack included. */
#define QOS_HOLD_MS		(3 * QOS_AUTOSUSPEND_MS * 5 / 4)

struct qos_mock {
	bool ok;
	char why[256];		/* !ok: why there is no device */
	struct devpm_dev d;
	struct devpm_trace *t;
};

static inline void qos_mock_init(struct qos_mock *m)
{
	memset(m, 0, sizeof(*m));
}

static inline void qos_mock_fini(struct qos_mock *m)
{
	devpm_trace_stop(m->t);
	m->t = NULL;
}

static inline int qos_attr_write(const struct devpm_dev *d, const char *attr,
				 const char *val)
{
	char k[DEVPM_PATH_MAX];
	int r = devpm_dev_attr(d, attr, k, sizeof(k));

	return r ? r : devpm_knob_write(k, val);
}

static inline int qos_attr_read(const struct devpm_dev *d, const char *attr,
				char *buf, size_t len)
{
	char k[DEVPM_PATH_MAX];
	int r = devpm_dev_attr(d, attr, k, sizeof(k));

	return r ? r : devpm_read_str(k, buf, len);
}

static inline const struct devpm_event *qos_events(struct devpm_trace *t,
						   size_t *n)
{
	*n = 0;
	if (!t)
		return NULL;
	devpm_trace_poll(t, 0);
	return devpm_trace_events(t, n);
}

/*
 * Load devpm_mock, create devpm_mock.0 (autosuspend QOS_AUTOSUSPEND_MS)
 * and trace it; it must reach "suspended" (it can suspend: the baseline
 * every case starts from).  0, or 1 with m->why set.  Done once, before
 * the harness forks the cases (QOS_TEST_MAIN): a tracefs instance and a
 * module load each cost most of a second in a TCG guest.  The journal
 * unloads the module when the program exits.
 */
static inline int qos_mock_setup(struct qos_mock *m, bool cpuidle)
{
	struct devpm_mock_opts o = {
		.parent = DEVPM_MOCK_NO_PARENT,
		.async = 1,
		.autosuspend_ms = QOS_AUTOSUSPEND_MS,
	};
	const char *devs[2] = { NULL, NULL };
	struct devpm_wait_result res;
	int r;

	r = devpm_mock_load(cpuidle, m->why, sizeof(m->why));
	if (r)
		return r < 0 ? (snprintf(m->why, sizeof(m->why),
					 "devpm_mock: %s", devpm_error()), 1) :
			       1;
	if (devpm_mock_create(QOS_MOCK_ID, &o) < 0 ||
	    devpm_mock_dev(QOS_MOCK_ID, &m->d) < 0) {
		snprintf(m->why, sizeof(m->why), "devpm_mock.%d: %s",
			 QOS_MOCK_ID, devpm_error());
		return 1;
	}
	devs[0] = m->d.name;
	m->t = devpm_trace_start(devs);
	if (!m->t || devpm_qos_trace_events(m->t) < 0) {
		snprintf(m->why, sizeof(m->why), "no trace: %s",
			 devpm_error());
		return 1;
	}
	if (devpm_wait_status_why(&m->d, m->t, "suspended",
				  QOS_SUSPEND_BOUND_MS, &res)) {
		snprintf(m->why, sizeof(m->why),
			 "%s never suspended after creation: %s", m->d.name,
			 res.why);
		return 1;
	}
	m->ok = true;
	return 0;
}

/*
 * A resume and a new idle check, as user space gets them: control=on
 * (pm_runtime_forbid(): a synchronous resume) then auto
 * (pm_runtime_allow(): rpm_idle, which suspends after the delay unless
 * something refuses).  Both journaled.
 */
static inline int qos_kick(struct qos_mock *m)
{
	int r = qos_attr_write(&m->d, "control", "on");

	return r ? r : qos_attr_write(&m->d, "control", "auto");
}

/*
 * At the start of a case: the shared device is back where every case
 * starts (the previous case's knobs restored), suspended; the trace is
 * cleared.  0, or 1 with m->why set.
 */
static inline int qos_mock_ready(struct qos_mock *m)
{
	struct devpm_wait_result res;

	char reqs[256], st[16], *line, *save = NULL;

	if (!m->ok)
		return 1;
	/* mock/ files are not journaled: undo what a failed case left. */
	devpm_mock_bug(QOS_MOCK_ID, "none");
	if (devpm_mock_get(QOS_MOCK_ID, "qos_req", reqs, sizeof(reqs)) == 0)
		for (line = strtok_r(reqs, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			devpm_mock_qos_remove(QOS_MOCK_ID, atoi(line));
	/*
	 * The restore of the last case's QoS value calls no pm_runtime_*:
	 * a device it left active needs a new idle check to suspend.
	 */
	if (devpm_dev_status(&m->d, st, sizeof(st)) == 0 &&
	    strcmp(st, "suspended") && qos_kick(m)) {
		snprintf(m->why, sizeof(m->why), "%s: %s", m->d.name,
			 devpm_error());
		return 1;
	}
	if (devpm_wait_status_why(&m->d, m->t, "suspended",
				  QOS_SUSPEND_BOUND_MS, &res)) {
		snprintf(m->why, sizeof(m->why),
			 "%s not suspended at case start: %s", m->d.name,
			 res.why);
		return 1;
	}
	devpm_trace_poll(m->t, 0);
	devpm_trace_clear(m->t);
	return 0;
}

/*
 * DEVPM_QOS_RECORD=1 (for fixtures/trace/qemu-6.1/qos-*.txt): a second,
 * unfiltered tracefs instance with the rpm and QoS events whose "trace"
 * file is printed verbatim as "# RECORD <line>" when the program ends.
 * Off in every normal run.
 */
static char qos_record_dir[DEVPM_PATH_MAX];

static inline void qos_record_put(const char *file, const char *val)
{
	char p[DEVPM_PATH_MAX + 64];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", qos_record_dir, file);
	f = fopen(p, "we");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

static inline void qos_record_start(void)
{
	static const char *const ev[] = {
		"events/rpm/enable", "events/power/pm_qos_update_target/enable",
		"events/power/pm_qos_update_flags/enable",
		"events/power/dev_pm_qos_add_request/enable",
		"events/power/dev_pm_qos_update_request/enable",
		"events/power/dev_pm_qos_remove_request/enable",
		"events/power/pm_qos_update_request/enable", NULL
	};
	const char *env = getenv("DEVPM_QOS_RECORD");
	const char *tfs;
	int i;

	if (!env || strcmp(env, "1"))
		return;
	tfs = devpm_tracefs();
	snprintf(qos_record_dir, sizeof(qos_record_dir),
		 "%s/instances/devpm-%d-record", tfs, (int)getpid());
	if (!tfs[0] || mkdir(qos_record_dir, 0700)) {
		qos_record_dir[0] = '\0';
		return;
	}
	qos_record_put("trace_clock", "mono");
	for (i = 0; ev[i]; i++)
		qos_record_put(ev[i], "1");
	qos_record_put("tracing_on", "1");
}

static inline void qos_record_dump(void)
{
	char p[DEVPM_PATH_MAX + 16], line[1024];
	FILE *f;

	if (!qos_record_dir[0])
		return;
	qos_record_put("tracing_on", "0");
	snprintf(p, sizeof(p), "%s/trace", qos_record_dir);
	f = fopen(p, "re");
	while (f && fgets(line, sizeof(line), f))
		if (line[0] != '#')
			printf("# RECORD %s", line);
	if (f)
		fclose(f);
	fflush(stdout);
	qos_record_put("events/enable", "0");
	rmdir(qos_record_dir);
}

/*
 * DEVPM_TEST_MAIN with a setup run once in the parent, after the needs
 * are met and before the cases are forked, and a cleanup after them.
 * test_harness_run() ends in exit(): the cleanup is an atexit handler,
 * run by the parent only (the forked cases exit too), and before the
 * journal's restore (registered earlier, so run later).
 */
static pid_t qos_main_pid;
static void (*qos_main_cleanup)(void);

static inline void qos_main_atexit(void)
{
	if (getpid() != qos_main_pid)
		return;
	qos_main_cleanup();
	qos_record_dump();
}

#define QOS_TEST_MAIN(info, setup, cleanup) \
int main(int argc, char **argv) \
{ \
	enum devpm_test_mode mode; \
	const char *glob = NULL; \
	int ret = devpm_test_begin(&(info), argc, argv, &mode, &glob); \
	if (ret >= 0) \
		return ret; \
	ret = devpm_test_select(mode, glob); \
	if (ret >= 0) \
		return ret; \
	qos_main_pid = getpid(); \
	qos_main_cleanup = cleanup; \
	atexit(qos_main_atexit); \
	qos_record_start(); \
	setup(); \
	return devpm_test_harness_run(argv); \
}

#endif
