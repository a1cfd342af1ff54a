// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_json.c - the runner's JSON reader (lib/runner/json_read.c), which
 * the QEMU agent shares: any input is parsed or refused, and what it
 * parsed can be walked and looked up.
 */
#include "fuzz.h"
#include "json.h"

static size_t walk(const struct rn_json *j)
{
	size_t i, n = 1;

	for (i = 0; i < j->n; i++) {
		if (j->type == RN_J_OBJ)
			n += strlen(j->keys[i]);
		n += walk(j->items[i]);
	}
	if (j->type == RN_J_STR)
		n += strlen(j->str);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size), err[128];
	struct rn_json *j = rn_json_parse(text, err, sizeof(err));
	double v;

	if (j) {
		walk(j);
		rn_json_str(j, "cases");
		rn_json_num(j, "format_version", &v);
		rn_json_free(j);
	} else {
		FZ_CHECK(err[0], "refused without saying why");
	}
	free(text);
	return 0;
}
