// SPDX-License-Identifier: GPL-2.0-only
/*
 * collect.c - `devpm collect STREAM`: rebuild a run's results from its
 * stream (written by `devpm run --stream`, e.g. from a QEMU guest), with
 * the same code the run used.  A program without END died with the guest.
 */
#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "stream.h"
#include "untested.h"

static const struct option collect_longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "env", required_argument, NULL, 'e' },
	{ "crash", required_argument, NULL, 'c' },
	{ NULL, 0, NULL, 0 },
};

/* A run id from a stream names a directory: keep it plain. */
static bool id_ok(const char *id)
{
	if (!*id || *id == '.' || strlen(id) > 64)
		return false;
	for (; *id; id++)
		if (!isalnum((unsigned char)*id) && !strchr("-_.", *id))
			return false;
	return true;
}

static int copy_stream(const char *from, int dirfd)
{
	char *text;
	size_t len;
	int r;

	text = rn_read_file(from, &len);
	if (!text)
		return -1;
	r = rn_result_put(dirfd, "stream.log", text, len);
	free(text);
	return r;
}

int rn_cmd_collect(int argc, char **argv)
{
	const char *output = "results", *crash = NULL, *stream;
	char err[PATH_MAX + 128], dir[PATH_MAX], id[128], totals[256], *ktap;
	char why[512];
	char **env = NULL, *eq;
	struct rn_run *r;
	size_t nenv = 0, i;
	int c, code, dfd;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", collect_longopts,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'e':
			if (rn_check_env_arg(optarg)) {
				rn_strv_free(env, nenv);
				return RN_EXIT_USAGE;
			}
			rn_strv_push(&env, &nenv, optarg);
			break;
		case 'c':
			crash = optarg;
			break;
		default:
			rn_strv_free(env, nenv);
			return rn_bad_option("collect", argc, argv, c);
		}
	}
	if (optind + 1 != argc) {
		rn_strv_free(env, nenv);
		return rn_usage_error("collect needs one STREAM file: devpm collect STREAM --output DIR");
	}
	stream = argv[optind];
	r = rn_run_new();
	if (rn_stream_read(stream, r, err, sizeof(err)) < 0) {
		rn_run_free(r);
		rn_strv_free(env, nenv);
		return rn_usage_error("collect: %s; give the file 'devpm run --stream' wrote",
				      err);
	}
	rn_stream_finish(r, crash);
	for (i = 0; i < nenv; i++) {
		eq = strchr(env[i], '=');
		*eq = '\0';
		rn_env_set(r, env[i], eq + 1);
	}
	if (crash)
		rn_env_set(r, "crash", crash);
	if (r->bad_records)
		fprintf(stderr, "devpm: %zu record(s) of %s not understood and ignored (first: '%s')\n",
			r->bad_records, stream, r->first_bad);
	dfd = rn_run_dir(output, id_ok(r->run_id) ? r->run_id : "collected",
			 dir, sizeof(dir), id, sizeof(id));
	if (dfd >= 0) {
		free(r->run_id);
		r->run_id = rn_xstrdup(id);
		if (copy_stream(stream, dfd) < 0)
			fprintf(stderr, "devpm: cannot copy %s into %s\n",
				stream, dir);
		code = rn_results_write(r, output, dir, dfd) < 0 ?
			RN_EXIT_USAGE : rn_exit_code(r);
		close(dfd);
		ktap = rn_out_ktap(r);
		fputs(ktap, stdout);
		fflush(stdout);
		free(ktap);
		rn_totals_line(r, totals, sizeof(totals));
		if (code == RN_EXIT_SKIP) {
			rn_untested_why(r, why, sizeof(why));
			fprintf(stderr, "devpm: %s\n", why);
		}
		fprintf(stderr, "devpm: %s; results in %s\n", totals, dir);
	} else {
		code = RN_EXIT_USAGE;
	}
	rn_run_free(r);
	rn_strv_free(env, nenv);
	return code;
}
