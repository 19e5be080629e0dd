// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: arbitrary bytes through the reader, the checker and
 * the statistics, as "oomwatch --replay" would drive them.  Beyond "no
 * crash, no sanitizer report", it aborts when a property breaks:
 *
 *  - every record that decodes encodes again in its version, and that
 *    line decodes to the same record and encodes to the same bytes;
 *  - every reader error reads "FILE:LINE: why";
 *  - every violation message starts with its invariant's name;
 *  - the summary line the statistics write decodes as a summary;
 *  - the human timeline (with a -p filter on) is printable ASCII lines,
 *    whatever bytes the comms hold;
 *  - the SVG starts with <svg and ends with </svg>;
 *  - the reorder window gives back every event, in seq order.
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
#include "filter.h"
#include "output.h"
#include "reorder.h"
#include "stats.h"
#include "svg.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int encode(const struct ow_record *rec, char *buf, size_t size)
{
	unsigned int v = rec->version;

	switch (rec->kind) {
	case OW_REC_EVENT:
		return ow_json_format_event(buf, size, v, &rec->event);
	case OW_REC_HEADER:
		return ow_json_format_header(buf, size, v, &rec->header.config,
					     rec->header.kernel,
					     rec->header.kswapd_period_ms);
	case OW_REC_LOST:
		return ow_json_format_lost(buf, size, v, rec->lost.cpu,
					   rec->lost.count);
	case OW_REC_MEMCG:
		return ow_json_format_memcg(buf, size, v, rec->memcg.id,
					    rec->memcg.path);
	case OW_REC_SHED:
		return ow_json_format_shed(buf, size, v, rec->shed);
	default:
		return 0;
	}
}

static bool same(const struct ow_record *a, const struct ow_record *b)
{
	if (a->kind != b->kind || a->version != b->version)
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
	case OW_REC_MEMCG:
		return a->memcg.id == b->memcg.id &&
		       !strcmp(a->memcg.path, b->memcg.path);
	case OW_REC_SHED:
		return a->shed == b->shed;
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
	ow_stats_write_json(f, OOMWATCH_FORMAT_VERSION, s, c);
	ow_stats_print(f, s, c);
	fclose(f);
	if (!buf || !strchr(buf, '\n') ||
	    ow_json_decode_line(buf, strchr(buf, '\n') - buf, &rec, why,
				sizeof(why)) || rec.kind != OW_REC_SUMMARY)
		abort();
	free(buf);
}

/* Static: the reader is tens of kilobytes. */
static struct ow_reader r;
static struct ow_episodes ep;	/* one model for every view, as a session */
static struct ow_checker c;
static struct ow_stats s;
static struct ow_out o;
static struct ow_filter flt;
static struct ow_reorder ro;
/* memcg lines, as a replay keeps them for the timeline and -c /a */
static struct ow_memcg_paths paths;
static struct ow_cgroup_set cgset;

/* The timeline and the picture of the same events. */
struct views {
	FILE *text;
	char *text_buf;
	size_t text_len;
	struct ow_svg *svg;
	unsigned long long popped;
};

/* Everything held comes back, lowest seq first. */
static void drain(struct views *v)
{
	struct oomwatch_event out;
	unsigned long long prev = 0;
	bool first = true;

	while (ow_reorder_pop(&ro, 0, true, &out)) {
		if (!first && out.seq < prev)
			abort();
		first = false;
		prev = out.seq;
		v->popped++;
	}
}

static void views_open(struct views *v, const struct ow_config *cfg)
{
	struct ow_out_opts oo = { .clock = OW_CLOCK_RELATIVE, .cfg = *cfg,
				  .paths = &paths };

	memset(v, 0, sizeof(*v));
	v->text = open_memstream(&v->text_buf, &v->text_len);
	v->svg = ow_svg_new();
	oo.f = v->text;
	ow_out_init(&o, &oo, &ep);
	ow_reorder_init(&ro, 0, 0);
}

static void views_event(struct views *v, const struct oomwatch_event *ev,
			bool started)
{
	struct ow_requester who = { .known = ev->seq & 1,
				    .memcg_id = ev->seq };

	if (!started)
		ow_filter_init(&flt, ev->tgid, ev->seq & 2 ? &cgset : NULL,
			       &paths, false, &ep);
	ow_out_event(&o, ev, &who, ow_filter_event(&flt, ev, &who));
	ow_svg_event(v->svg, ev);
	/* force: no waiting, but still the lowest seq first */
	if (ow_reorder_full(&ro) || !ow_reorder_push(&ro, ev, 0))
		abort();
	if (ro.n > 8)
		drain(v);
}

static void check_views(struct views *v)
{
	char *pic = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&pic, &len);

	drain(v);
	fclose(v->text);
	for (size_t i = 0; i < v->text_len; i++) {
		unsigned char ch = v->text_buf[i];

		if ((ch < 0x20 || ch > 0x7e) && ch != '\n')
			abort();
	}
	if (!f || ow_svg_write(v->svg, f, NULL))
		abort();
	fclose(f);
	if (len < 12 || strncmp(pic, "<svg ", 5) ||
	    strcmp(pic + len - 7, "</svg>\n"))
		abort();
	free(pic);
	free(v->text_buf);
	ow_svg_free(v->svg);
	ow_out_free(&o);
	ow_filter_free(&flt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* No header: every invariant on, the harshest reading. */
	struct ow_config cfg = { 1, 5000, 10000, 1, 2, 1, 10000 };
	unsigned long long last = 0;
	struct ow_check_opts opts;
	unsigned long long events = 0;
	struct ow_record rec;
	struct views v;
	bool started = false;
	char why[128];
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	ow_check_opts_default(&opts);
	opts.report = check_violation;
	opts.episodes = &ep;
	ow_reader_init(&r, f, "fuzz");
	ow_memcg_paths_init(&paths);
	if (ow_cgroup_resolve_recorded(&cgset, "/a", why, sizeof(why)))
		abort();
	ow_episodes_init(&ep);
	ow_stats_init(&s, &ep);
	memset(&flt, 0, sizeof(flt));
	views_open(&v, &cfg);
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
			struct ow_requester who = { .known = rec.event.seq & 1,
						    .memcg_id = rec.event.seq };

			/* the model first, then every view, as a session */
			ow_episodes_feed(&ep, &rec.event, &who);
			views_event(&v, &rec.event, events++ > 0);
			ow_checker_feed(&c, &rec.event);
			ow_stats_feed(&s, &rec.event);
			last = rec.event.ts_ns;
		} else if (rec.kind == OW_REC_LOST) {
			ow_checker_lost(&c, rec.lost.count);
			ow_stats_lost(&s, rec.lost.count);
		} else if (rec.kind == OW_REC_MEMCG) {
			ow_memcg_paths_add(&paths, rec.memcg.id,
					   rec.memcg.path, 0);
		} else if (rec.kind == OW_REC_SHED) {
			ow_stats_shed(&s, rec.shed);
			ow_out_shed(&o, rec.shed);
		}
	}
	fclose(f);
	if (r.failed && strncmp(r.error, "fuzz:", 5))
		abort();
	if (!started)
		ow_checker_init(&c, &cfg, &opts);
	ow_checker_finish(&c, last);
	check_summary(&s, &c);
	check_views(&v);
	if (v.popped != events)
		abort();
	ow_stats_free(&s);
	ow_checker_free(&c);
	ow_episodes_free(&ep);
	ow_memcg_paths_free(&paths);
	return 0;
}
