// SPDX-License-Identifier: GPL-2.0-only
/*
 * qos_bench.c - the QoS suite's mock bench (qos_bench.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mock/qos_bench.h"
#include "core/sysfs.h"
#include "mock/mock.h"
#include "qos/qos.h"
#include "rpm/device.h"
#include "rpm/wait.h"
#include "trace/trace.h"

void devpm_qos_bench_init(struct devpm_qos_bench *m)
{
	memset(m, 0, sizeof(*m));
}

void devpm_qos_bench_fini(struct devpm_qos_bench *m)
{
	devpm_trace_stop(m->t);
	m->t = NULL;
}

int devpm_qos_bench_setup(struct devpm_qos_bench *m, bool cpuidle)
{
	struct devpm_mock_opts o = {
		.parent = DEVPM_MOCK_NO_PARENT,
		.async = 1,
		.autosuspend_ms = DEVPM_QOS_BENCH_AUTOSUSPEND_MS,
	};
	const char *devs[2] = { NULL, NULL };
	struct devpm_wait_result res;
	int r;

	r = devpm_mock_load(cpuidle, m->why, sizeof(m->why));
	if (r)
		return r < 0 ? (snprintf(m->why, sizeof(m->why),
					 "devpm_mock: %s", devpm_error()), 1) :
			       1;
	if (devpm_mock_create(DEVPM_QOS_BENCH_ID, &o) < 0 ||
	    devpm_mock_dev(DEVPM_QOS_BENCH_ID, &m->d) < 0) {
		snprintf(m->why, sizeof(m->why), "devpm_mock.%d: %s",
			 DEVPM_QOS_BENCH_ID, devpm_error());
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
				  DEVPM_QOS_BENCH_SUSPEND_MS, &res)) {
		snprintf(m->why, sizeof(m->why),
			 "%s never suspended after creation: %s", m->d.name,
			 res.why);
		return 1;
	}
	m->ok = true;
	return 0;
}

int devpm_qos_bench_kick(struct devpm_qos_bench *m)
{
	int r = devpm_dev_knob_write(&m->d, "control", "on");

	return r ? r : devpm_dev_knob_write(&m->d, "control", "auto");
}

int devpm_qos_bench_ready(struct devpm_qos_bench *m)
{
	struct devpm_wait_result res;

	char reqs[256], st[16], *line, *save = NULL;

	if (!m->ok)
		return 1;
	/* mock/ files are not journaled: undo what a failed case left. */
	devpm_mock_bug(DEVPM_QOS_BENCH_ID, "none");
	if (devpm_mock_get(DEVPM_QOS_BENCH_ID, "qos_req", reqs, sizeof(reqs)) == 0)
		for (line = strtok_r(reqs, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			devpm_mock_qos_remove(DEVPM_QOS_BENCH_ID, atoi(line));
	/*
	 * The restore of the last case's QoS value calls no pm_runtime_*:
	 * a device it left active needs a new idle check to suspend.
	 */
	if (devpm_dev_status(&m->d, st, sizeof(st)) == 0 &&
	    strcmp(st, "suspended") && devpm_qos_bench_kick(m)) {
		snprintf(m->why, sizeof(m->why), "%s: %s", m->d.name,
			 devpm_error());
		return 1;
	}
	if (devpm_wait_status_why(&m->d, m->t, "suspended",
				  DEVPM_QOS_BENCH_SUSPEND_MS, &res)) {
		snprintf(m->why, sizeof(m->why),
			 "%s not suspended at case start: %s", m->d.name,
			 res.why);
		return 1;
	}
	devpm_trace_poll(m->t, 0);
	devpm_trace_clear(m->t);
	return 0;
}

static char record_dir[DEVPM_PATH_MAX];

static void record_put(const char *file, const char *val)
{
	char p[DEVPM_PATH_MAX + 64];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", record_dir, file);
	f = fopen(p, "we");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

void devpm_qos_record_start(void)
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
	snprintf(record_dir, sizeof(record_dir),
		 "%s/instances/devpm-%d-record", tfs, (int)getpid());
	if (!tfs[0] || mkdir(record_dir, 0700)) {
		record_dir[0] = '\0';
		return;
	}
	record_put("trace_clock", "mono");
	for (i = 0; ev[i]; i++)
		record_put(ev[i], "1");
	record_put("tracing_on", "1");
}

void devpm_qos_record_dump(void)
{
	char p[DEVPM_PATH_MAX + 16], line[1024];
	FILE *f;

	if (!record_dir[0])
		return;
	record_put("tracing_on", "0");
	snprintf(p, sizeof(p), "%s/trace", record_dir);
	f = fopen(p, "re");
	while (f && fgets(line, sizeof(line), f))
		if (line[0] != '#')
			printf("# RECORD %s", line);
	if (f)
		fclose(f);
	fflush(stdout);
	record_put("events/enable", "0");
	rmdir(record_dir);
}

