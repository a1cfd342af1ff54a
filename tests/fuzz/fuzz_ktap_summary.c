// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ktap_summary.c - KTAP of any runner as `devpm compare` reads it
 * (lib/runner/ktap_summary.c): any input gives a summary or a reason,
 * and the summary is always JSON that the runner's own reader takes,
 * with every metric value a number (issue #35: "92.", "nan" and the like
 * once went into it raw).
 */
#include "fuzz.h"
#include "json.h"
#include "ktap_summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size), err[256] = "", jerr[128] = "";
	const struct rn_json *cases, *m;
	struct rn_json *j;
	char *json;
	size_t i, k;
	double v;

	rn_ktap_input(text);
	json = rn_ktap_summary(text, err, sizeof(err));
	if (!json) {
		FZ_CHECK(err[0], "refused without saying why");
		free(text);
		return 0;
	}
	j = rn_json_parse(json, jerr, sizeof(jerr));
	FZ_CHECK(j, "summary is not valid JSON (%s): %.200s", jerr, json);
	cases = rn_json_get(j, "cases");
	FZ_CHECK(cases && cases->type == RN_J_ARR && cases->n,
		 "summary without cases: %.200s", json);
	for (i = 0; i < cases->n; i++) {
		FZ_CHECK(rn_json_str(cases->items[i], "suite") &&
			 rn_json_str(cases->items[i], "result"),
			 "case %zu without suite or result", i);
		m = rn_json_get(cases->items[i], "metrics");
		FZ_CHECK(m && m->type == RN_J_ARR, "case %zu: no metrics", i);
		for (k = 0; k < m->n; k++)
			FZ_CHECK(rn_json_num(m->items[k], "value", &v),
				 "case %zu metric %zu: value not a number", i,
				 k);
	}
	rn_json_free(j);
	free(json);
	free(text);
	return 0;
}
