// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cycle.c - the sleep cycle cache's reader (lib/trace/sleep_trace.c
 * devpm_sleep_cycle_load(), read back by the cases of async/sleep from
 * lib/sleep/sleep_cycle_cache.c's files): any input is read whole or refused with a
 * reason, and what it read saves and reads back the same.
 */
#include "devpm.h"
#include "trace/sleep_trace.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct devpm_sleep_cycle c, back;
	char *text, *out = NULL;
	size_t olen = 0, i;
	FILE *f;

	if (!size)	/* fmemopen() refuses a size of 0 */
		return 0;
	text = fz_text(data, size);
	f = fmemopen(text, size, "r");
	if (!f)
		abort();
	if (devpm_sleep_cycle_load(f, &c)) {
		FZ_CHECK(!c.ncb && !c.cb, "refused, yet callbacks kept");
		fclose(f);
		free(text);
		return 0;
	}
	fclose(f);
	f = open_memstream(&out, &olen);
	if (!f)
		abort();
	FZ_CHECK(!devpm_sleep_cycle_save(&c, f), "a loaded cycle did not save");
	fclose(f);
	f = fmemopen(out, olen, "r");
	FZ_CHECK(f && !devpm_sleep_cycle_load(f, &back),
		 "a saved cycle did not load back");
	fclose(f);
	FZ_CHECK(back.ncb == c.ncb, "callbacks %zu read back as %zu", c.ncb,
		 back.ncb);
	for (i = 0; i < c.ncb; i++)
		FZ_CHECK(back.cb[i].held_us == c.cb[i].held_us &&
			 back.cb[i].start_us == c.cb[i].start_us &&
			 !strcmp(back.cb[i].dev, c.cb[i].dev),
			 "callback %zu changed on the way back", i);
	devpm_sleep_cycle_free(&back);
	devpm_sleep_cycle_free(&c);
	free(out);
	free(text);
	return 0;
}
