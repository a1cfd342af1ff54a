// SPDX-License-Identifier: GPL-2.0-only
/*
 * export.c - `devpm export --kcidb DIR`: a run's results in another
 * system's format, written from the run's stream.log (the record every
 * result file is built from).  KCIDB v4 (output_kcidb.h): to stdout, or
 * to --output FILE (written atomically, as report.html is).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "output_kcidb.h"
#include "stream.h"
#include "util.h"
#include "write_file.h"

static const struct option longopts[] = {
	{ "kcidb", no_argument, NULL, 'k' },
	{ "origin", required_argument, NULL, 'O' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static bool origin_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return false;
	return true;
}

int rn_cmd_export(int argc, char **argv)
{
	const char *origin = RN_KCIDB_ORIGIN, *out = NULL, *dir;
	char path[PATH_MAX], err[PATH_MAX + 128], *text;
	bool kcidb = false;
	struct rn_run *r;
	struct stat st;
	int c, code = RN_EXIT_OK;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			kcidb = true;
			break;
		case 'O':
			origin = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return rn_bad_option("export", argc, argv, c);
		}
	}
	if (!kcidb)
		return rn_usage_error("export: say the format: devpm export --kcidb results/<run-id>");
	if (!origin_ok(origin))
		return rn_usage_error("export: --origin '%s': KCIDB takes lowercase letters, digits and _ only (e.g. --origin mylab)",
				      origin);
	if (optind + 1 != argc)
		return rn_usage_error("export: give one results directory: devpm export --kcidb results/<run-id>");
	dir = argv[optind];
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return rn_usage_error("export: %s is not a directory; give a results directory (results/<run-id>)",
				      dir);
	snprintf(path, sizeof(path), "%s/stream.log", dir);
	r = rn_run_new();
	if (rn_stream_read(path, r, err, sizeof(err)) < 0) {
		rn_run_free(r);
		return rn_usage_error("export: %s; give a directory devpm run or devpm collect wrote",
				      err);
	}
	rn_stream_finish(r, NULL);
	text = rn_out_kcidb(r, origin);
	if (!out) {
		fputs(text, stdout);
		if (fflush(stdout))
			code = rn_usage_error("export: stdout: %s",
					      strerror(errno));
	} else if (rn_write_file(out, text, strlen(text)) < 0) {
		code = rn_usage_error("export: cannot write %s: %s", out,
				      rn_write_file_why());
	}
	free(text);
	rn_run_free(r);
	return code;
}
