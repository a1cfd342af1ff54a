/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktap.h - a strict reader of KTAP v1 as devpm writes it (results.ktap):
 * every block has "KTAP version 1" and a plan, results are numbered from 1
 * and as many as planned, subtests are indented by 4 spaces, "# " lines
 * may stand anywhere in a block.  Used to read
 * results back in the unit tests and to check what we write.
 */
#ifndef DEVPM_RUNNER_KTAP_H
#define DEVPM_RUNNER_KTAP_H

#include <stddef.h>
#include "model.h"

struct rn_ktap {
	char *name;
	/* "# SKIP XFAIL" reads as RN_XFAIL, "not ok # ERROR" as RN_NOT_RUN */
	enum rn_result result;
	/* directive text, or the "# " line before a "not ok" */
	char *reason;
	struct rn_ktap *kids;
	size_t nkids;
};

/* The root holds the top-level results.  NULL with err on bad input. */
struct rn_ktap *rn_ktap_parse(const char *text, char *err, size_t len);
void rn_ktap_free(struct rn_ktap *k);
const struct rn_ktap *rn_ktap_kid(const struct rn_ktap *k, const char *name);

#endif
