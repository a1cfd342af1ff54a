/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h - a small strict JSON reader (RFC 8259): devpm's own summary.json
 * (compare, the unit tests reading results back) and, in the QEMU host
 * agent, QMP replies and events (qemu/json.c).  The one parser in the
 * tree; tests/fuzz/fuzz_json.c fuzzes it.
 */
#ifndef DEVPM_RUNNER_JSON_H
#define DEVPM_RUNNER_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum rn_jtype { RN_J_NULL, RN_J_BOOL, RN_J_NUM, RN_J_STR, RN_J_ARR,
		RN_J_OBJ };

struct rn_json {
	enum rn_jtype type;
	bool b;
	double num;
	char *str;
	size_t n;		/* items of an array or object */
	size_t cap;		/* room in items (and keys) */
	char **keys;		/* object keys */
	struct rn_json **items;
};

/* NULL on error, err (if non-NULL) says what and where. */
struct rn_json *rn_json_parse(const char *text, char *err, size_t len);
void rn_json_free(struct rn_json *j);

/* Member of an object (NULL if absent or j is no object). */
const struct rn_json *rn_json_get(const struct rn_json *j, const char *key);
/* A string member, or NULL. */
const char *rn_json_str(const struct rn_json *j, const char *key);
/* A number member; false if absent or not a number. */
bool rn_json_num(const struct rn_json *j, const char *key, double *v);

#endif
