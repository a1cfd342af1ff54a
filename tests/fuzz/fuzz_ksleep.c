// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ksleep.c - the perf records of the kernel's sleeps
 * (devpm_kernel_sleep_parse_record(), lib/trace/kernel_sleep.c), walked as the ring
 * reader walks them, and the attribution of those sleeps to the PM
 * windows of trace lines parsed from the same input
 * (devpm_least_time_sleeps_spans(), lib/trace/least_time_sleeps.c).  A record is read or
 * refused; a counted span is never longer than the sleep it came from.
 * The input is the trace text, a NUL, then the records.
 */
#include <linux/perf_event.h>

#include "devpm.h"
#include "trace/kernel_sleep.h"
#include "trace/least_time_sleeps.h"
#include "fuzz.h"

#define MAX_EV 64
#define MAX_SLEEPS 64

struct check {
	const struct devpm_kernel_sleep *s;
	size_t ns;
};

static void span(uint64_t from, uint64_t len, void *ctx)
{
	const struct check *c = ctx;
	size_t i;

	FZ_CHECK(len > 0, "counted a sleep of no length");
	for (i = 0; i < c->ns; i++)
		if (!c->s[i].edge && c->s[i].at_us == from &&
		    len <= c->s[i].len_us)
			return;
	FZ_CHECK(0, "counted %llu us at %llu: no sleep that long there",
		 (unsigned long long)len, (unsigned long long)from);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int edge_of[3] = { 0, 1, -1 };
	struct devpm_kernel_sleep s[MAX_SLEEPS];
	struct devpm_event *ev = calloc(MAX_EV, sizeof(*ev));
	char *text = fz_text(data, size), *line, *save = NULL;
	struct perf_event_header h;
	struct check c = { s, 0 };
	const uint8_t *nul = memchr(data, 0, size);
	size_t off = nul ? (size_t)(nul - data) + 1 : size, nev = 0;
	uint64_t lost = 0;
	uint8_t *rec;

	if (!ev)
		abort();
	while (off + sizeof(h) <= size && c.ns < MAX_SLEEPS) {
		memcpy(&h, data + off, sizeof(h));
		if (h.size < sizeof(h) || off + h.size > size)
			break;
		/* Its own block: ASan sees a read past the record. */
		rec = malloc(h.size);
		if (!rec)
			abort();
		memcpy(rec, data + off, h.size);
		/* misc's low bits pick a sleep or a window's edge. */
		if (devpm_kernel_sleep_parse_record(rec, h.size,
					      h.misc % 3 ? 0 : 1000, &s[c.ns],
					      &lost) == 1) {
			s[c.ns].edge = edge_of[h.misc % 3];
			c.ns++;
		}
		free(rec);
		off += h.size;
	}
	for (line = strtok_r(text, "\n", &save); line && nev < MAX_EV;
	     line = strtok_r(NULL, "\n", &save))
		if (!devpm_trace_parse_line(line, &ev[nev]))
			nev++;
	devpm_least_time_sleeps_spans(ev, nev, s, c.ns, span, &c);
	free(ev);
	free(text);
	return 0;
}
