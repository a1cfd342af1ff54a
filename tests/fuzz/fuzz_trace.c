// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_trace.c - the trace line parser (lib/trace/trace.c) and what reads the
 * events it gives: the call/return pairing (lib/trace/transition.c) and the
 * autosuspend timer's fields and the autosuspend judgment
 * (lib/rpm/autosuspend_timer.c).  Each line is parsed or refused; the
 * readers must not read past what was parsed, and a judgment that fails
 * or finds nothing says why.
 */
#include "devpm.h"
#include "rpm/autosuspend_timer.h"
#include "trace/transition.h"
#include "fuzz.h"

#define MAX_EV 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct devpm_autosuspend_timer tm;
	struct devpm_autosuspend as;
	struct devpm_event *ev = calloc(MAX_EV, sizeof(*ev));
	struct devpm_call c[8];
	char *text = fz_text(data, size), *line, *save = NULL, why[512];
	size_t n = 0;

	if (!ev)
		abort();
	for (line = strtok_r(text, "\n", &save); line && n < MAX_EV;
	     line = strtok_r(NULL, "\n", &save)) {
		if (devpm_trace_parse_line(line, &ev[n]))
			continue;
		FZ_CHECK(memchr(ev[n].dev, '\0', sizeof(ev[n].dev)) &&
			 memchr(ev[n].raw, '\0', sizeof(ev[n].raw)) &&
			 memchr(ev[n].event, '\0', sizeof(ev[n].event)),
			 "an event field is not terminated");
		n++;
	}
	if (n) {
		devpm_rpm_calls(ev, n, ev[0].dev, 0, UINT64_MAX, c, 8);
		if (!devpm_autosuspend_find(ev, n, ev[0].dev, 0, UINT64_MAX,
					    UINT64_MAX, &tm, why, sizeof(why)))
			devpm_autosuspend_judge(&tm, 200, why, sizeof(why));
		else
			FZ_CHECK(why[0], "not found without saying why");
		why[0] = '\0';
		if (devpm_autosuspend_check(ev, n, ev[0].dev, 0, UINT64_MAX,
					    100, &as, why, sizeof(why)))
			FZ_CHECK(why[0], "judged without saying why");
		else
			FZ_CHECK(as.begin_us >= as.idle_us,
				 "a suspend before the device was idle");
	}
	free(ev);
	free(text);
	return 0;
}
