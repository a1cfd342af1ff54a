// SPDX-License-Identifier: GPL-2.0-only
/*
 * ata.c - libata: an ataN port suspends after its disk, the PCI controller
 * after all its ports, and I/O resumes the chain from the controller down.
 *
 * Ports start with control=on (ata_tport_add() forbids runtime PM) and
 * PCI devices with control=on: both are set (journaled).  A port with an
 * ATAPI device that is not a zero-power ODD never suspends
 * (ata_port_runtime_idle() returns -EBUSY), so such a controller is
 * skipped with that reason.
 */
#include "harness/test.h"
#include "bus/scsi/scsi.h"
#include "bus/scsi/scsi_disk_set.h"
#include "trace/transition.h"
#include "common.h"

#include <pthread.h>

#define DELAY_MS	100
#define MAX_PORTS	32
#define HOLD_MS		400	/* negative control: PCI must stay active */
#define BLK		4096
#define MAX_CTLS	8

static const struct devpm_test_info info = {
	.suite = "scsi",
	.timeout_s = 60,
	.needs = {
		.root = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM", "CONFIG_ATA",
						   NULL },
	},
};

FIXTURE(ata) {
	off_t mark;
	struct devpm_scsi_disk *d;
	size_t n;
	struct devpm_trace *t;
};

FIXTURE_SETUP(ata)
{
	self->mark = devpm_case_setup();
	self->t = NULL;
	if (devpm_scsi_disks(&self->d, &self->n) < 0)
		TH_LOG("scsi disks: %s", devpm_error());
}

FIXTURE_TEARDOWN(ata)
{
	if (self->t)
		devpm_trace_stop(self->t);
	free(self->d);
	devpm_case_teardown(self->mark);
}

/* One libata controller: its ports and the disks on them. */
struct ctl {
	struct devpm_dev pci;
	struct devpm_dev port[MAX_PORTS];
	int nports;
	struct devpm_test_disk disk[MAX_PORTS];
	int ndisks;
	char why[768];		/* why it is skipped, or failed before its block */
	bool ok;		/* still under test */
	bool released;		/* its block passed: its disks' blocks run */
};

/* The ataN children of the controller. */
static int find_ports(struct ctl *c)
{
	char *ports = calloc(MAX_PORTS, DEVPM_PATH_MAX);
	int n, i;

	if (!ports)
		return devpm_fail(ENOMEM, "out of memory");
	n = devpm_ata_ports(c->pci.path, ports, MAX_PORTS);
	for (i = 0; i < n; i++)
		if (!devpm_dev_open(&c->port[c->nports],
				    ports + (size_t)i * DEVPM_PATH_MAX))
			c->nports++;
	free(ports);
	return n < 0 ? n : 0;
}

/* An ATAPI device (SCSI type 5) below a port keeps it active. */
static bool atapi_below(const struct ctl *c, char *why, size_t len)
{
	char name[64];
	int i;

	for (i = 0; i < c->nports; i++)
		if (devpm_scsi_atapi_below(c->port[i].path, name,
					   sizeof(name))) {
			snprintf(why, len,
				 "%s carries the ATAPI device %s: libata keeps the port active unless it is a zero-power ODD",
				 c->port[i].name, name);
			return true;
		}
	return false;
}

/* Collect the controller of disk d into c; 1 when it must be skipped. */
static int ctl_open(struct ctl *c, const struct devpm_scsi_disk *d,
		    const struct devpm_scsi_disk *all, size_t n,
		    struct devpm_subtest *s)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	if (devpm_dev_open(&c->pci, d->ctrl_path) < 0 || find_ports(c) < 0) {
		devpm_subtest_fail(s, d->ctrl, "%s", devpm_error());
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct devpm_scsi_disk *o = &all[i];

		if (strcmp(o->ctrl_path, d->ctrl_path) || !o->ata_port[0])
			continue;
		if (!devpm_scsi_pm_ok(o, c->why, sizeof(c->why)))
			return 1;
		if (c->ndisks < MAX_PORTS &&
		    !devpm_test_disk_open(s, o, &c->disk[c->ndisks]))
			c->ndisks++;
	}
	if (!c->pci.rpm.have_control) {
		snprintf(c->why, sizeof(c->why),
			 "driver %s has no runtime-PM callbacks",
			 c->pci.driver);
		return 1;
	}
	return atapi_below(c, c->why, sizeof(c->why)) ? 1 : 0;
}

/* One trace for every controller, port, host, target and disk. */
static struct devpm_trace *ctl_trace(struct ctl *cs, int nc)
{
	const char **names;
	int i, j, k = 0;

	names = calloc((size_t)nc * (1 + 4 * MAX_PORTS) + 1, sizeof(*names));
	if (!names)
		return NULL;
	for (j = 0; j < nc; j++) {
		struct ctl *c = &cs[j];

		names[k++] = c->pci.name;
		for (i = 0; i < c->nports; i++)
			names[k++] = c->port[i].name;
		for (i = 0; i < c->ndisks; i++) {
			names[k++] = c->disk[i].sd.name;
			names[k++] = c->disk[i].tgt.name;
			names[k++] = c->disk[i].host.name;
		}
	}
	return devpm_disk_set_trace_names(names);
}

static int port_of(const struct ctl *c, const struct devpm_test_disk *x)
{
	int i;

	for (i = 0; i < c->nports; i++)
		if (!strcmp(c->port[i].name, x->d->ata_port))
			return i;
	return -1;
}

/* Ports held on, controller auto, disks suspended. */
static int hold_ports(struct ctl *c, struct devpm_trace *t, char *why,
		      size_t len)
{
	struct devpm_wait_result res;
	int i;

	for (i = 0; i < c->nports; i++)
		if (devpm_dev_knob_write(&c->port[i], "control", "on"))
			goto err;
	if (devpm_dev_knob_write(&c->pci, "control", "auto"))
		goto err;
	for (i = 0; i < c->ndisks; i++)
		if (devpm_scsi_rpm_set(c->disk[i].d, DELAY_MS, "auto"))
			goto err;
	for (i = 0; i < c->ndisks; i++) {
		struct devpm_test_disk *x = &c->disk[i];

		if (devpm_wait_status_why(&x->sd, t, "suspended",
					  DELAY_MS * 2 + 2000, &res) ||
		    devpm_wait_status_why(&x->host, t, "suspended", 1000,
					  &res)) {
			snprintf(why, len, "%s: %s", x->d->block, res.why);
			return -1;
		}
	}
	return 0;
err:
	snprintf(why, len, "%s", devpm_error());
	return -1;
}

/*
 * Ports to auto (at tp): each suspends after its disk, the controller
 * after all of them.
 */
static int release_ports(struct ctl *c, struct devpm_trace *t, uint64_t t0,
			 uint64_t tp, char *why, size_t len)
{
	struct devpm_wait_result res;
	const struct devpm_event *ev;
	uint64_t last_port = 0, a_pci, a;
	size_t ne;
	int i, p;

	for (i = 0; i < c->nports; i++)
		if (devpm_wait_status_why(&c->port[i], t, "suspended", 2000,
					  &res)) {
			snprintf(why, len, "%s: %s", c->port[i].name, res.why);
			return -1;
		}
	if (devpm_wait_status_why(&c->pci, t, "suspended", 2000, &res)) {
		snprintf(why, len, "%s", res.why);
		return -1;
	}
	if (!t) {
		snprintf(why, len, "ports and controller suspended (order unchecked: no trace)");
		return 0;
	}
	ev = devpm_trace_read(t, 0, &ne);
	a_pci = devpm_rpm_suspended_at(ev, ne, c->pci.name, tp, devpm_now_us(),
				       NULL);
	for (i = 0; i < c->nports; i++) {
		a = devpm_rpm_suspended_at(ev, ne, c->port[i].name, tp,
					   devpm_now_us(), NULL);
		if (!a) {
			snprintf(why, len, "no suspend of %s in the trace",
				 c->port[i].name);
			return -1;
		}
		if (a > last_port)
			last_port = a;
	}
	for (i = 0; i < c->ndisks; i++) {
		struct devpm_test_disk *x = &c->disk[i];
		uint64_t d_at = devpm_rpm_suspended_at(ev, ne, x->sd.name, t0,
						       tp, NULL);

		p = port_of(c, x);
		a = p < 0 ? 0 : devpm_rpm_suspended_at(ev, ne, c->port[p].name,
						       tp, devpm_now_us(),
						       NULL);
		if (!d_at || !a || a < d_at) {
			snprintf(why, len, "%s suspended %s its disk %s",
				 x->d->ata_port, d_at ? "before" :
				 "without a traced suspend of", x->d->block);
			return -1;
		}
	}
	if (!a_pci || a_pci < last_port) {
		snprintf(why, len, "%s: suspended %s its last port",
			 c->pci.name, a_pci ? "before" :
			 "(no trace of it) after");
		return -1;
	}
	snprintf(why, len,
		 "active %d ms while its %d ports were held on; ports suspended after their disks, %s %.1f ms after the last port",
		 HOLD_MS, c->nports, c->pci.name,
		 (double)(a_pci - last_port) / 1000);
	return 0;
}

/* A read of a suspended chain resumes controller, port, host, target, disk. */
static int resume_chain(struct ctl *c, struct devpm_test_disk *x,
			struct devpm_trace *t, void *buf, char *why,
			size_t len)
{
	struct devpm_wait_result res;
	const struct devpm_event *ev;
	const char *who[5];
	uint64_t at[5], t0;
	struct devpm_blk b;
	int p = port_of(c, x), i, r;
	size_t ne;

	if (p < 0) {
		snprintf(why, len, "port %s not found", x->d->ata_port);
		return -1;
	}
	if (devpm_wait_status_why(&c->pci, t, "suspended",
				  DELAY_MS * 2 + 3000, &res)) {
		snprintf(why, len, "before the read: %s", res.why);
		return -1;
	}
	t0 = devpm_now_us();
	r = devpm_blk_open(x->d->block, false, &b);
	if (!r)
		r = devpm_blk_read(&b, buf, BLK, 0);
	devpm_blk_close(&b);
	if (r) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	if (!t) {
		snprintf(why, len, "read it (resume order unchecked: no trace)");
		return 0;
	}
	who[0] = c->pci.name;
	who[1] = c->port[p].name;
	who[2] = x->host.name;
	who[3] = x->tgt.name;
	who[4] = x->sd.name;
	ev = devpm_trace_read(t, 0, &ne);
	for (i = 0; i < 5; i++) {
		int k = devpm_rpm_resumes(ev, ne, who[i], t0, devpm_now_us(),
					  &at[i], 1);

		if (k != 1) {
			snprintf(why, len, "a read resumed %s %d times (want 1)",
				 who[i], k);
			return -1;
		}
		if (i && at[i] < at[i - 1]) {
			snprintf(why, len, "%s resumed before %s", who[i],
				 who[i - 1]);
			return -1;
		}
	}
	devpm_metric(x->d->name, "chain_resume_us", (double)(at[4] - t0));
	snprintf(why, len,
		 "a read resumed %s (+%llu us), %s (+%llu us), %s, %s, then the disk (+%llu us)",
		 who[0], (unsigned long long)(at[0] - t0), who[1],
		 (unsigned long long)(at[1] - t0), who[2], who[3],
		 (unsigned long long)(at[4] - t0));
	return 0;
}

struct port_on {
	char path[DEVPM_PATH_MAX];
	int ret;
};

static void *port_on_thread(void *arg)
{
	struct port_on *p = arg;

	p->ret = devpm_write_str(p->path, "on");
	return NULL;
}

/*
 * Put every port's journaled control=on back now, all at once: each write
 * resumes its port, and an empty port's resume is a SATA link probe
 * (~330 ms in QEMU) that the journal would otherwise do one after another.
 */
static void ports_back_on(struct ctl *cs, int nc)
{
	struct port_on *p = calloc((size_t)nc * MAX_PORTS, sizeof(*p));
	pthread_t *th = calloc((size_t)nc * MAX_PORTS, sizeof(*th));
	bool *started = calloc((size_t)nc * MAX_PORTS, sizeof(*started));
	int i, j, k = 0;

	for (j = 0; p && th && started && j < nc; j++)
		for (i = 0; i < cs[j].nports; i++, k++) {
			if (devpm_dev_attr(&cs[j].port[i], "control", p[k].path,
					   sizeof(p[k].path)))
				continue;
			started[k] = !pthread_create(&th[k], NULL,
						     port_on_thread, &p[k]);
		}
	for (i = 0; i < k; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	free(p);
	free(th);
	free(started);
}

static bool pci_suspended(struct ctl *c)
{
	char st[32];

	return c->ok && !devpm_dev_status(&c->pci, st, sizeof(st)) &&
	       !strcmp(st, "suspended");
}

struct ctls {
	struct ctl *c;
	int n;
};

static bool any_pci_suspended(void *arg)
{
	struct ctls *a = arg;
	int j;

	for (j = 0; j < a->n; j++)
		if (pci_suspended(&a->c[j]))
			return true;
	return false;
}

/* Drop c out before its block, which then fails with why. */
static void ctl_drop(struct ctl *c, const char *why)
{
	snprintf(c->why, sizeof(c->why), "%s", why);
	c->ok = false;
}

/* What ctl_one() and chain_one() share. */
struct ata_run {
	struct ctl *c;
	struct devpm_test_disk *x;	/* chain_one()'s disk */
	struct devpm_trace *t;
	uint64_t t0, tp;	/* start of the case; ports to auto */
	void *buf;
};

/* A controller's block: its ports suspended after their disks, it last. */
static void ctl_one(struct devpm_block *b, void *arg)
{
	struct ata_run *a = arg;
	struct ctl *c = a->c;
	char why[768];

	if (!c->ok)
		devpm_block_abort(b, "%s", c->why);
	if (release_ports(c, a->t, a->t0, a->tp, why, sizeof(why)))
		devpm_block_abort(b, "%s", why);
	devpm_block_pass(b, "%s", why);
	c->released = true;
}

/* A disk's block: a read resumes the chain from the controller down. */
static void chain_one(struct devpm_block *b, void *arg)
{
	struct ata_run *a = arg;
	char why[768];

	if (resume_chain(a->c, a->x, a->t, a->buf, why, sizeof(why)))
		devpm_test_disk_abort(b, a->x, "%s", why);
	devpm_block_pass(b, "%s: %s", a->x->d->block, why);
}

TEST_F(ata, ata_port_follows_disk)
{
	struct ctl *cs = calloc(MAX_CTLS, sizeof(*cs));
	struct ata_run a = { .buf = devpm_blk_alloc(BLK),
			     .t0 = devpm_now_us() };
	char why[768];
	struct devpm_subtest s;
	int nc = 0, j, k;
	size_t i, m;

	devpm_subtest_begin(&s, "ata_port_follows_disk");
	for (i = 0; cs && a.buf && i < self->n && nc < MAX_CTLS; i++) {
		const struct devpm_scsi_disk *d = &self->d[i];
		bool seen = false;

		if (!d->ata_port[0] || !d->ctrl[0])
			continue;
		for (m = 0; m < i; m++)
			seen |= self->d[m].ata_port[0] &&
				!strcmp(self->d[m].ctrl_path, d->ctrl_path);
		if (seen)
			continue;
		k = ctl_open(&cs[nc], d, self->d, self->n, &s);
		if (k > 0)
			devpm_subtest_skip(&s, d->ctrl, "%s", cs[nc].why);
		if (!k)
			nc++;
	}
	a.t = self->t = nc ? ctl_trace(cs, nc) : NULL;
	for (j = 0; j < nc; j++) {
		cs[j].ok = true;
		if (hold_ports(&cs[j], self->t, why, sizeof(why)))
			ctl_drop(&cs[j], why);
	}
	/* Negative control: no controller may suspend under held ports. */
	if (nc && devpm_poll_until(any_pci_suspended,
				   &(struct ctls){ cs, nc }, HOLD_MS))
		for (j = 0; j < nc; j++)
			if (pci_suspended(&cs[j]))
				ctl_drop(&cs[j], "suspended while its ports were held active (control=on)");
	a.tp = devpm_now_us();
	for (j = 0; j < nc; j++)
		for (k = 0; cs[j].ok && k < cs[j].nports; k++)
			if (devpm_dev_knob_write(&cs[j].port[k], "control", "auto"))
				ctl_drop(&cs[j], devpm_error());
	for (j = 0; j < nc; j++) {
		a.c = &cs[j];
		devpm_block_run(&s, cs[j].pci.name, ctl_one, &a);
		for (k = 0; cs[j].released && k < cs[j].ndisks; k++) {
			a.x = &cs[j].disk[k];
			devpm_block_run(&s, a.x->d->name, chain_one, &a);
		}
	}
	ports_back_on(cs, nc);
	if (!nc)
		devpm_note("no libata controller to test");
	free(cs);
	free(a.buf);
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
