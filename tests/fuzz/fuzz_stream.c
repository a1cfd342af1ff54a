// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_stream.c - the record stream and the test program output inside
 * it (lib/runner/stream.c, parse.c) into the model, as `devpm collect`
 * reads a stream a dying guest left; then every result file is written
 * from that model, and the runner's own readers must take them back:
 * results.ktap (ktap_read.c), summary.json and the KCIDB export
 * (json_read.c); junit.xml must be well-formed (the unit tests'
 * xml_check()).  A writer that emits
 * what its reader refuses is a crash here.
 */
#include "fuzz.h"
#include "test_runner.h"
#include "json.h"
#include "ktap.h"
#include "output.h"
#include "output_kcidb.h"
#include "stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size), *line, *next, *out, err[256];
	struct rn_run *r = rn_run_new();
	struct rn_ktap *k;
	struct rn_json *j;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		rn_stream_feed(r, line);
	}
	/* Half the inputs as a crash with its console line, half as not. */
	rn_stream_finish(r, size & 1 ? "Kernel panic - not syncing: x" : NULL);

	out = rn_out_ktap(r);
	k = rn_ktap_parse(out, err, sizeof(err));
	FZ_CHECK(k, "results.ktap refused by ktap_read: %s\n%s", err, out);
	rn_ktap_free(k);
	free(out);
	out = rn_out_summary(r);
	j = rn_json_parse(out, err, sizeof(err));
	FZ_CHECK(j, "summary.json refused by json_read: %s\n%s", err, out);
	rn_json_free(j);
	free(out);
	out = rn_out_kcidb(r, RN_KCIDB_ORIGIN);
	j = rn_json_parse(out, err, sizeof(err));
	FZ_CHECK(j, "KCIDB export refused by json_read: %s\n%s", err, out);
	rn_json_free(j);
	free(out);
	out = rn_out_env(r);
	j = rn_json_parse(out, err, sizeof(err));
	FZ_CHECK(j, "env.json refused by json_read: %s\n%s", err, out);
	rn_json_free(j);
	free(out);
	out = rn_out_junit(r);
	{
		int c, f, s;
		const char *why = xml_check(out, &c, &f, &s);

		FZ_CHECK(!why, "junit.xml not well-formed: %s\n%s", why, out);
		/* XML 1.0 allows no control character but tab and newline. */
		for (c = 0; out[c]; c++)
			FZ_CHECK((unsigned char)out[c] >= 0x20 ||
				 out[c] == '\n' || out[c] == '\t',
				 "junit.xml has control character %#x",
				 (unsigned char)out[c]);
	}
	free(out);
	free(rn_out_lava(r));
	free(rn_out_dmesg(r));
	rn_run_free(r);
	free(text);
	return 0;
}
