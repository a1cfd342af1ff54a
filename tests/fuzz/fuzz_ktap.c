// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ktap.c - the runner's strict KTAP reader (lib/runner/ktap_read.c):
 * any input is read into a tree or refused with a reason.
 */
#include "fuzz.h"
#include "ktap.h"

static size_t walk(const struct rn_ktap *k)
{
	size_t i, n = strlen(k->name) + (k->reason ? strlen(k->reason) : 0);

	for (i = 0; i < k->nkids; i++)
		n += walk(&k->kids[i]);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size), err[256] = "";
	struct rn_ktap *k = rn_ktap_parse(text, err, sizeof(err));

	if (k) {
		walk(k);
		rn_ktap_kid(k, "pci");
		rn_ktap_free(k);
	} else {
		FZ_CHECK(err[0], "refused without saying why");
	}
	free(text);
	return 0;
}
