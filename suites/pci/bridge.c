// SPDX-License-Identifier: GPL-2.0-only
/*
 * bridge.c - a PCI bridge (a PCIe port) suspends only after every device
 * behind it, and resumes before any of them.
 *
 * The port's driver (pcieport) idles only when the PCI core allows the
 * bridge D3 (bridge_d3): pci_bridge_d3_possible() says yes for
 * pcie_port_pm=force, and pci_bridge_d3_update() sets it when a child's
 * d3cold_allowed is written.  pci_pm_init() sets it only for a bridge with
 * a PM capability, which QEMU's root ports lack, so the case writes each
 * child's d3cold_allowed 0 then 1 (journaled, put back) to have it
 * recomputed.  The opposite is checked first: with one child held active
 * (control=on) the port refuses to idle.
 */
#include "harness/test.h"
#include "bus/pci/pci_role.h"
#include "bus/pci/pci_set.h"
#include "bus/pci/pci_settle.h"
#include "rpm/subtree.h"
#include "trace/transition.h"
#include "pci_set_fixture.h"

static const struct devpm_test_info info = {
	.suite = "pci",
	.timeout_s = 60,
	.needs = { .root = true, .files = (const char *[]){
			"/sys/bus/pci/devices", NULL } },
};

#define MAX_KIDS 32

static bool cmdline_has(const char *word)
{
	char line[4096], *tok, *save = NULL;

	if (devpm_read_str("/proc/cmdline", line, sizeof(line)) < 0)
		return false;
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, word))
			return true;
	return false;
}

/* The PCI devices right behind bridge b. */
static size_t kids_of(struct devpm_pci_set *s, struct devpm_pci_dev *b,
		      struct devpm_pci_dev **kids)
{
	size_t i, k = 0;

	for (i = 0; i < s->n && k < MAX_KIDS; i++)
		if (!strcmp(s->v[i].d.parent, b->d.path))
			kids[k++] = &s->v[i];
	return k;
}

static int d3cold_toggle(struct devpm_pci_dev *p)
{
	char k[DEVPM_PATH_MAX];
	int r;

	r = devpm_fmt(k, sizeof(k), "%s/d3cold_allowed", p->d.path);
	if (r < 0 || !devpm_exists(k))
		return r;
	r = devpm_knob_write(k, "0");
	return r < 0 ? r : devpm_knob_write(k, "1");
}

/* Why bridge b cannot be tested ("" if it can). */
static void bridge_unfit(struct devpm_pci_dev *b, struct devpm_pci_dev **kids,
			 size_t nk, char *why, size_t len)
{
	size_t i;

	why[0] = '\0';
	/* A bridge denied D3 for lack of a PM capability: this case acts. */
	if (b->skip[0] && !b->no_bridge_d3) {
		snprintf(why, len, "%s", b->skip);
		return;
	}
	if (b->role.role != DEVPM_PCI_CAPABLE &&
	    b->role.role != DEVPM_PCI_UNBOUND) {
		snprintf(why, len, "%s", b->role.why);
		return;
	}
	if (!nk) {
		snprintf(why, len, "no device behind it");
		return;
	}
	for (i = 0; i < nk; i++)
		if (!kids[i]->part) {
			snprintf(why, len, "%s cannot suspend: %s",
				 kids[i]->d.name, kids[i]->skip);
			return;
		}
}

/* With its children held active, the port must refuse to suspend. */
static void held_child_blocks(struct devpm_block *b,
			      struct devpm_pci_set *s,
			      struct devpm_pci_dev *br)
{
	const struct devpm_event *ev;
	uint64_t t0;
	size_t n;

	devpm_trace_poll(s->t, 0);
	t0 = devpm_now_us();
	if (devpm_pci_dev_control(br, "auto") < 0)
		devpm_block_abort(b, "%s", devpm_error());
	/* pm_runtime_allow() runs rpm_idle: it must fail with -EBUSY. */
	for (;;) {
		ev = devpm_trace_events(s->t, &n);
		if (devpm_rpm_suspended_at(ev, n, br->d.name, t0,
					   devpm_now_us(), NULL))
			devpm_block_abort(b,
					"suspended while its children were held active (control=on)");
		if (devpm_now_us() - t0 > 200 * 1000)
			break;
		devpm_trace_poll(s->t, 50);
	}
	if (!devpm_pci_dev_status_is(br, "active"))
		devpm_block_abort(b,
				"not active while its children were held active");
}

/* Suspend order and resume order; what was measured in why. */
static void check_order(struct devpm_block *b, struct devpm_pci_set *s,
			struct devpm_pci_dev *br, struct devpm_pci_dev **kids,
			size_t nk, uint64_t from, char *why, size_t len)
{
	struct devpm_wait_result w;
	const struct devpm_event *ev;
	uint64_t kat[MAX_KIDS], last_kid = 0, dur, bat, bcall, t1, pat, first;
	size_t n, i;

	for (i = 0; i < nk; i++)
		if (devpm_pci_dev_wait_suspended(s, kids[i], &w))
			devpm_block_abort(b, "%s did not suspend: %s",
					kids[i]->d.name,
					w.why[0] ? w.why : kids[i]->skip);
	if (devpm_wait_status(&br->d, s->t, "suspended",
			      devpm_pci_dev_left_ms(br), &w) < 0) {
		if (cmdline_has("pcie_port_pm=force"))
			devpm_block_abort(b,
					"did not suspend after its children (pcie_port_pm=force given): %s",
					w.why);
		devpm_block_skip(b,
			       "bridge D3 not allowed here (pci_bridge_d3_possible(): BIOS before 2015 or hotplug bridge); boot with pcie_port_pm=force: %s",
			       w.why);
	}
	ev = devpm_trace_read(s->t, 0, &n);
	bat = devpm_rpm_suspended_at(ev, n, br->d.name, from, w.at_us, &dur);
	if (!bat)
		devpm_block_abort(b, "no traced suspend of the bridge");
	bcall = bat - dur;
	for (i = 0; i < nk; i++) {
		kat[i] = devpm_rpm_suspended_at(ev, n, kids[i]->d.name, from,
						bat, NULL);
		if (!kat[i] || kat[i] > bcall)
			devpm_block_abort(b,
					"began suspending at +%.1f ms, before %s had suspended (%s)",
					us_to_ms(bcall - from), kids[i]->d.name,
					kat[i] ? "later" :
					"no suspend traced before");
		if (kat[i] > last_kid)
			last_kid = kat[i];
	}
	devpm_metric(br->d.name, "suspend_after_children_us",
		     (double)(bcall - last_kid));

	/* Resume: each child by control=on; the bridge must come first. */
	t1 = devpm_now_us();
	for (i = 0; i < nk; i++)
		if (devpm_pci_dev_control(kids[i], "on") < 0)
			devpm_block_abort(b, "%s", devpm_error());
	ev = devpm_trace_read(s->t, 0, &n);
	if (devpm_rpm_resumes(ev, n, br->d.name, t1, devpm_now_us(), &pat,
			      1) < 1)
		devpm_block_abort(b,
				"children resumed without a traced resume of the bridge");
	first = 0;
	for (i = 0; i < nk; i++) {
		uint64_t at;

		if (devpm_rpm_resumes(ev, n, kids[i]->d.name, t1,
				      devpm_now_us(), &at, 1) < 1)
			devpm_block_abort(b,
					"control=on gave no traced resume of %s",
					kids[i]->d.name);
		if (at < pat)
			devpm_block_abort(b,
					"%s resumed at +%.1f ms, before the bridge (+%.1f ms)",
					kids[i]->d.name, us_to_ms(at - t1),
					us_to_ms(pat - t1));
		if (!first || at < first)
			first = at;
	}
	devpm_metric(br->d.name, "resume_before_children_us",
		     (double)(first - pat));
	snprintf(why, len,
		 "began suspending %llu us after the last of %zu children had, resumed %llu us before the first",
		 (unsigned long long)(bcall - last_kid), nk,
		 (unsigned long long)(first - pat));
}

/* What bridge_order's blocks share: the set, and the bridge. */
struct bridge_ctx {
	struct devpm_pci_set *s;
	struct devpm_pci_dev *br;
};

/* One bridge: held by its children, then after them, before them. */
static void bridge_one(struct devpm_block *b, void *arg)
{
	struct bridge_ctx *c = arg;
	struct devpm_pci_set *s = c->s;
	struct devpm_pci_dev *br = c->br, *kids[MAX_KIDS];
	char why[512];
	uint64_t from;
	size_t i, nk;

	nk = kids_of(s, br, kids);
	bridge_unfit(br, kids, nk, why, sizeof(why));
	if (why[0])
		devpm_block_skip(b, "%s", why);
	/* All active to begin with; the subtrees below the children idle. */
	if (devpm_pci_dev_control(br, "on") < 0)
		devpm_block_abort(b, "%s", devpm_error());
	for (i = 0; i < nk; i++)
		if (devpm_pci_dev_control(kids[i], "on") < 0 ||
		    devpm_subtree_allow(&kids[i]->d, false,
					&kids[i]->delay_ms, &s->undo) < 0 ||
		    d3cold_toggle(kids[i]) < 0)
			devpm_block_abort(b, "%s", devpm_error());
	held_child_blocks(b, s, br);
	from = devpm_now_us();
	br->deadline_us = from;
	for (i = 0; i < nk; i++) {
		kids[i]->allow_us = devpm_now_us();
		kids[i]->deadline_us = kids[i]->allow_us +
			(uint64_t)(kids[i]->delay_ms + DEVPM_PCI_BOUND_MS) *
			1000;
		if (kids[i]->deadline_us > br->deadline_us)
			br->deadline_us = kids[i]->deadline_us;
		if (devpm_pci_dev_control(kids[i], "auto") < 0)
			devpm_block_abort(b, "%s", devpm_error());
	}
	devpm_dev_snapshot(&br->d);
	if (br->d.rpm.have_autosuspend && br->d.rpm.autosuspend_delay_ms > 0)
		br->deadline_us += br->d.rpm.autosuspend_delay_ms * 1000;
	check_order(b, s, br, kids, nk, from, why, sizeof(why));
	devpm_block_pass(b, "%s; held children kept it active", why);
}

TEST_F(pci, bridge_order)
{
	struct devpm_pci_set *s = &self->s;
	struct bridge_ctx c = { .s = s };
	size_t i;

	if (!s->t)
		SKIP(return, "needs rpm trace events: %s", s->trace_why);
	devpm_pci_set_parts(s, true, NULL);
	devpm_subtest_begin(&self->sub, "bridge_order");
	for (i = 0; i < s->n; i++) {
		c.br = &s->v[i];
		/* Not a bridge: no line of this case. */
		if (c.br->info_r < 0 || !c.br->info.bridge)
			continue;
		devpm_block_run(&self->sub, c.br->d.name, bridge_one, &c);
	}
	DEVPM_SUBTEST_END(&self->sub);
}

DEVPM_TEST_MAIN(info)
