// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: arbitrary bytes through the reader, the checker and
 * the statistics, as "oomwatch --replay" would drive them.  Beyond "no
 * crash, no sanitizer report", it aborts when a property breaks:
 *
 *  - every record that decodes encodes again, and that line decodes to
 *    the same record and encodes to the same bytes;
 *  - every reader error reads "FILE:LINE: why";
 *  - every violation message starts with its invariant's name;
 *  - the summary line the statistics write decodes as a summary.
 *
 * Built with clang -fsanitize=fuzzer for `make fuzz`, and with gcc plus
 * fuzz_main.c for `make check`, which replays the fixtures through it.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "checker.h"
#include "stats.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int encode(const struct ow_record *rec, char *buf, size_t size)
{
	switch (rec->kind) {
	case OW_REC_EVENT:
		return ow_json_format_event(buf, size, &rec->event);
	case OW_REC_HEADER:
		return ow_json_format_header(buf, size, &rec->header.config,
					     rec->header.kernel,
					     rec->header.kswapd_period_ms);
	case OW_REC_LOST:
		return ow_json_format_lost(buf, size, rec->lost.cpu,
					   rec->lost.count);
	default:
		return 0;
	}
}

static bool same(const struct ow_record *a, const struct ow_record *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case OW_REC_EVENT:
		return ow_event_equal(&a->event, &b->event);
	case OW_REC_HEADER:
		return !memcmp(&a->header.config, &b->header.config,
			       sizeof(a->header.config)) &&
		       !strcmp(a->header.kernel, b->header.kernel) &&
		       a->header.kswapd_period_ms == b->header.kswapd_period_ms;
	case OW_REC_LOST:
		return a->lost.cpu == b->lost.cpu &&
		       a->lost.count == b->lost.count;
	default:
		return true;
	}
}

static void check_round_trip(const struct ow_record *rec)
{
	static char a[OW_LINE_MAX], b[OW_LINE_MAX];
	char why[OW_ERR_MAX];
	struct ow_record again;
	int la, lb;

	la = encode(rec, a, sizeof(a));
	if (la == 0)
		return;			/* a summary: nothing to compare */
	if (la < 0 || ow_json_decode_line(a, la - 1, &again, why, sizeof(why)) ||
	    !same(rec, &again))
		abort();
	lb = encode(&again, b, sizeof(b));
	if (la != lb || memcmp(a, b, la))
		abort();
}

static void check_violation(void *ctx, const struct ow_violation *v)
{
	(void)ctx;
	if (!v->name || strncmp(v->msg, v->name, strlen(v->name)) ||
	    strchr(v->msg, '\n'))
		abort();
}

static void check_summary(struct ow_stats *s, const struct ow_checker *c)
{
	char *buf = NULL, why[OW_ERR_MAX];
	struct ow_record rec;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	ow_stats_write_json(f, s, c);
	ow_stats_print(f, s, c);
	fclose(f);
	if (!buf || !strchr(buf, '\n') ||
	    ow_json_decode_line(buf, strchr(buf, '\n') - buf, &rec, why,
				sizeof(why)) || rec.kind != OW_REC_SUMMARY)
		abort();
	free(buf);
}

/* Static: the checker and the reader are tens of kilobytes. */
static struct ow_reader r;
static struct ow_checker c;
static struct ow_stats s;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* No header: every invariant on, the harshest reading. */
	struct ow_config cfg = { 1, 5000, 10000, 1, 2 };
	unsigned long long last = 0;
	struct ow_check_opts opts;
	struct ow_record rec;
	bool started = false;
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	ow_check_opts_default(&opts);
	opts.report = check_violation;
	ow_reader_init(&r, f, "fuzz");
	ow_stats_init(&s);
	while (ow_reader_next(&r, &rec) == 1) {
		check_round_trip(&rec);
		if (!started) {
			if (rec.kind == OW_REC_HEADER) {
				cfg = rec.header.config;
				opts.kswapd_period_ms =
					rec.header.kswapd_period_ms;
			}
			ow_checker_init(&c, &cfg, &opts);
			started = true;
		}
		if (rec.kind == OW_REC_EVENT) {
			ow_checker_feed(&c, &rec.event);
			ow_stats_feed(&s, &rec.event);
			last = rec.event.ts_ns;
		} else if (rec.kind == OW_REC_LOST) {
			ow_checker_lost(&c, rec.lost.count);
			ow_stats_lost(&s, rec.lost.count);
		}
	}
	fclose(f);
	if (r.failed && strncmp(r.error, "fuzz:", 5))
		abort();
	if (!started)
		ow_checker_init(&c, &cfg, &opts);
	ow_checker_finish(&c, last);
	check_summary(&s, &c);
	ow_stats_free(&s);
	return 0;
}
