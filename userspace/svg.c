// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: the SVG timeline; svg.h describes the picture.
 *
 * Two steps: ow_svg_event() keeps a copy of the events the picture needs,
 * ow_svg_write() lays the rows out and draws them, one pass over the kept
 * events per row.  Plain fprintf: every value written is a number or text
 * that went through xml_put().
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "svg.h"
#include "xml.h"

#define NS_PER_S	1000000000ULL
#define NS_PER_MS	1000000ULL

#define WIDTH		1200
#define LEFT		200	/* row labels */
#define RIGHT		30
#define PLOT		(WIDTH - LEFT - RIGHT)
#define TOP		78	/* title, configuration, time axis */
#define LANE		24
#define CHART		120
#define GAP		14
#define LEGEND		46

#define MAX_NODES	64
#define MAX_ZONES	8	/* zone indexes drawn in "free vs min" */

struct ow_svg {
	struct oomwatch_event *ev;
	size_t n;
	size_t cap;
	unsigned long dropped;
};

/* The time axis. */
struct geom {
	unsigned long long t0;
	unsigned long long t1;
};

static const char *const zone_colour[MAX_ZONES] = {
	"#1b9e77", "#d95f02", "#7570b3", "#e7298a",
	"#66a61e", "#e6ab02", "#a6761d", "#666666",
};

struct ow_svg *ow_svg_new(void)
{
	return calloc(1, sizeof(struct ow_svg));
}

void ow_svg_free(struct ow_svg *g)
{
	if (!g)
		return;
	free(g->ev);
	free(g);
}

unsigned long ow_svg_dropped(const struct ow_svg *g)
{
	return g->dropped;
}

static bool wanted(unsigned int type)
{
	switch (type) {
	case OW_MARK_VICTIM:
	case OW_RECLAIM_RETRY_ZONE:
	case OW_UNRECLAIMABLE_SET:
	case OW_UNRECLAIMABLE_CLEAR:
	case OW_TOKEN_GRAB:
	case OW_TOKEN_RELEASE:
	case OW_TOKEN_BYPASS:
	case OW_OOM_REQUEST:
	case OW_OOM_DEFER:
	case OW_OOM_VETO:
	case OW_OOM_GRANT:
	case OW_OOM_FALLBACK:
	case OW_THRASHING_SET:
	case OW_THRASHING_CLEAR:
	case OW_THRASH_GRANT:
	case OW_THRASH_TAKE:
		return true;
	default:
		return false;
	}
}

void ow_svg_event(struct ow_svg *g, const struct oomwatch_event *ev)
{
	if (!wanted(ev->type))
		return;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 256;
		struct oomwatch_event *p = NULL;

		if (cap > OW_SVG_MAX_EVENTS)
			cap = OW_SVG_MAX_EVENTS;
		if (cap > g->cap)
			p = realloc(g->ev, cap * sizeof(*p));
		if (!p) {
			g->dropped++;
			return;
		}
		g->ev = p;
		g->cap = cap;
	}
	g->ev[g->n++] = *ev;
}

/* ------------------------------------------------------------ helpers */

static double x_of(const struct geom *gm, unsigned long long ts)
{
	if (ts <= gm->t0)
		return LEFT;
	if (ts >= gm->t1)
		return LEFT + PLOT;
	return LEFT + (double)(ts - gm->t0) * PLOT / (double)(gm->t1 - gm->t0);
}

static void task_text(FILE *f, const char *comm, __u32 pid)
{
	xml_put(f, comm, OOMWATCH_COMM_LEN);
	fprintf(f, "[%u]", pid);
}

static double secs(unsigned long long ts)
{
	return (double)ts / NS_PER_S;
}

static int node_of(const struct oomwatch_event *ev)
{
	int nid;

	switch (ev->type) {
	case OW_UNRECLAIMABLE_SET:
	case OW_UNRECLAIMABLE_CLEAR:
		nid = ev->unrecl.nid;
		break;
	case OW_OOM_REQUEST:
	case OW_OOM_DEFER:
	case OW_OOM_VETO:
	case OW_OOM_FALLBACK:
		nid = ev->request.nid;
		break;
	case OW_OOM_GRANT:
		nid = ev->grant.nid;
		break;
	case OW_RECLAIM_RETRY_ZONE:
		nid = ev->retry.nid;
		break;
	case OW_THRASHING_SET:
	case OW_THRASHING_CLEAR:
		nid = ev->thrash.nid;
		break;
	case OW_THRASH_GRANT:
		nid = ev->thrash_grant.nid;
		break;
	case OW_THRASH_TAKE:
		nid = ev->take.nid;
		break;
	default:
		return -1;
	}
	return nid >= 0 && nid < MAX_NODES ? nid : -1;
}

static bool is_thrash(unsigned int type)
{
	return type >= OW_THRASHING_SET && type <= OW_THRASH_TAKE;
}

static void row_label(FILE *f, double y, const char *what, int nid)
{
	fprintf(f, "<text class=\"row\" x=\"8\" y=\"%.1f\">", y);
	if (nid >= 0)
		fprintf(f, "node %d ", nid);
	fprintf(f, "%s</text>\n", what);
}

/* --------------------------------------------------------- the frame */

static void head(FILE *f, int height)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		"font-size=\"11\">\n", WIDTH, height, WIDTH, height);
	fprintf(f, "<style>\n"
		".unrecl{fill:#f4a582;stroke:#b2182b}\n"
		".token{fill:#92c5de;stroke:#2166ac}\n"
		".bypass{stroke:#b2182b;stroke-width:2}\n"
		".kill{stroke:#b2182b;stroke-width:2}\n"
		".request{fill:#fff;stroke:#333}\n"
		".defer{stroke:#999;stroke-width:2}\n"
		".veto{fill:#4dac26;stroke:#1b7837}\n"
		".grant{fill:#d6604d;stroke:#67001f}\n"
		".fallback{fill:#fdb863;stroke:#b35806}\n"
		".thrash{fill:#c2a5cf;stroke:#762a83}\n"
		".tgrant{fill:#762a83;stroke:#40004b}\n"
		".take{stroke:#40004b;stroke-width:2}\n"
		".free{fill:none;stroke-width:2}\n"
		".min{fill:none;stroke-width:1.5;stroke-dasharray:5 3}\n"
		".afree{fill:none;stroke-width:1;stroke-opacity:.6}\n"
		".amin{fill:none;stroke-width:1;stroke-opacity:.6;"
		"stroke-dasharray:1 2}\n"
		".frame{fill:none;stroke:#ccc}\n"
		".axis{stroke:#333}\n"
		".grid{stroke:#eee}\n"
		".row{font-weight:bold}\n"
		".label{font-size:10px}\n"
		"</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#fff\"/>\n", WIDTH, height);
}

/* Said only when the recording has them (format 3 on a kernel with it). */
static void thrash_config(FILE *f, const struct ow_config *c)
{
	if (c->oom_arbiter_thrash == OW_CONFIG_UNKNOWN)
		return;
	fprintf(f, ", thrash %d, thrash_timeout_ms ", c->oom_arbiter_thrash);
	if (c->oom_thrash_timeout_ms == OW_CONFIG_UNKNOWN)
		fprintf(f, "unknown");
	else
		fprintf(f, "%d", c->oom_thrash_timeout_ms);
}

static void title(FILE *f, const struct ow_header *h,
		  const struct ow_svg *g)
{
	static const char *const names[] = {
		"oom_arbiter", "timeout_ms", "fallback_ms", "swap_token",
		"bypass_priority",
	};
	int v[5];

	fprintf(f, "<text x=\"8\" y=\"18\" font-size=\"14\" "
		"font-weight=\"bold\">oomwatch: ");
	if (h)
		xml_put(f, h->kernel, OW_KERNEL_MAX);
	else
		fprintf(f, "recording without a header");
	fprintf(f, "</text>\n<text x=\"8\" y=\"36\">");
	if (h) {
		v[0] = h->config.oom_arbiter;
		v[1] = h->config.oom_unreclaimable_timeout_ms;
		v[2] = h->config.oom_arbiter_fallback_ms;
		v[3] = h->config.swap_token;
		v[4] = h->config.swap_token_bypass_priority;
		for (int i = 0; i < 5; i++) {
			fprintf(f, "%s%s ", i ? ", " : "", names[i]);
			if (v[i] == OW_CONFIG_UNKNOWN)
				fprintf(f, "unknown");
			else
				fprintf(f, "%d", v[i]);
		}
		thrash_config(f, &h->config);
	} else {
		fprintf(f, "configuration unknown");
	}
	fprintf(f, "; %zu events drawn", g->n);
	if (g->dropped)
		fprintf(f, ", %lu NOT drawn (picture full)", g->dropped);
	fprintf(f, "</text>\n");
}

/* 1, 2 or 5 times a power of ten: at most about ten ticks. */
static unsigned long long tick_step(unsigned long long span)
{
	unsigned long long step = NS_PER_MS;

	for (;;) {
		if (span / step <= 10)
			return step;
		if (span / (step * 2) <= 10)
			return step * 2;
		if (span / (step * 5) <= 10)
			return step * 5;
		step *= 10;
	}
}

static void axis(FILE *f, const struct geom *gm, int bottom)
{
	unsigned long long step = tick_step(gm->t1 - gm->t0);
	unsigned long long t = (gm->t0 + step - 1) / step * step;

	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\"/>\n", LEFT, TOP - 10, LEFT + PLOT, TOP - 10);
	fprintf(f, "<text x=\"8\" y=\"%d\">time (s)</text>\n", TOP - 14);
	for (; t <= gm->t1; t += step) {
		double x = x_of(gm, t);

		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\"/>\n", x, TOP - 6, x, bottom);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
			"%.*f</text>\n", x, TOP - 14, step < NS_PER_S ? 3 : 0,
			secs(t));
	}
}

/* ------------------------------------------------------ global rows */

static const char *constraint_word(unsigned int c)
{
	return ow_constraint_name(c);
}

static void kills_row(FILE *f, const struct ow_svg *g, const struct geom *gm,
		      int y)
{
	row_label(f, y + 16, "OOM kills", -1);
	for (size_t i = 0; i < g->n; i++) {
		const struct oomwatch_event *e = &g->ev[i];
		double x;

		if (e->type != OW_MARK_VICTIM)
			continue;
		x = x_of(gm, e->ts_ns);
		fprintf(f, "<line class=\"kill\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\"><title>%.6f s: %s kill of ", x, y,
			x, y + LANE, secs(e->ts_ns),
			constraint_word(e->victim.constraint));
		task_text(f, e->victim.comm, e->victim.pid);
		fprintf(f, ", rss %llu kB, oom_score_adj %d, memcg %llu"
			"</title></line>\n",
			(unsigned long long)(e->victim.anon_rss_kb +
					     e->victim.file_rss_kb +
					     e->victim.shmem_rss_kb),
			e->victim.oom_score_adj,
			(unsigned long long)e->victim.memcg_id);
		/* Near the right edge the name goes to the left of the mark. */
		if (x > LEFT + PLOT - 100)
			fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%d\" "
				"text-anchor=\"end\">", x - 3, y + 15);
		else
			fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%d\">",
				x + 3, y + 15);
		task_text(f, e->victim.comm, e->victim.pid);
		fprintf(f, "</text>\n");
	}
}

static void token_span(FILE *f, const struct geom *gm, int y,
		       const struct oomwatch_event *grab,
		       unsigned long long end)
{
	double x0 = x_of(gm, grab->ts_ns), x1 = x_of(gm, end);

	fprintf(f, "<rect class=\"token\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		"height=\"%d\"><title>swap token held by ", x0, y + 4,
		x1 - x0 > 1 ? x1 - x0 : 1, LANE - 8);
	task_text(f, grab->token.holder_comm, grab->token.tgid);
	fprintf(f, " from %.6f s to %.6f s</title></rect>\n",
		secs(grab->ts_ns), secs(end));
	if (x1 - x0 > 60) {
		fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%d\">",
			x0 + 3, y + 16);
		task_text(f, grab->token.holder_comm, grab->token.tgid);
		fprintf(f, "</text>\n");
	}
}

static void token_row(FILE *f, const struct ow_svg *g, const struct geom *gm,
		      int y)
{
	const struct oomwatch_event *grab = NULL;

	row_label(f, y + 16, "swap token", -1);
	for (size_t i = 0; i < g->n; i++) {
		const struct oomwatch_event *e = &g->ev[i];
		double x;

		switch (e->type) {
		case OW_TOKEN_GRAB:
			if (grab)
				token_span(f, gm, y, grab, e->ts_ns);
			grab = e;
			break;
		case OW_TOKEN_RELEASE:
			if (grab && grab->token.tgid == e->token.tgid) {
				token_span(f, gm, y, grab, e->ts_ns);
				grab = NULL;
			}
			break;
		case OW_TOKEN_BYPASS:
			x = x_of(gm, e->ts_ns);
			fprintf(f, "<line class=\"bypass\" x1=\"%.1f\" y1=\"%d\" "
				"x2=\"%.1f\" y2=\"%d\"><title>%.6f s: pid %u "
				"bypassed the token of pid %u at priority %d: "
				"%llu folios (node %d)</title></line>\n", x, y,
				x, y + LANE, secs(e->ts_ns),
				e->token_pass.reclaimer,
				e->token_pass.holder_tgid,
				e->token_pass.priority,
				(unsigned long long)e->token_pass.nr_folios,
				e->token_pass.nid);
			break;
		default:
			break;
		}
	}
	if (grab)
		token_span(f, gm, y, grab, gm->t1);
}

/* ---------------------------------------------------------- node rows */

static void unrecl_span(FILE *f, const struct geom *gm, int y,
			unsigned long long from, unsigned long long to,
			const struct oomwatch_event *clear)
{
	double x0 = x_of(gm, from), x1 = x_of(gm, to);

	fprintf(f, "<rect class=\"unrecl\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		"height=\"%d\"%s><title>unreclaimable from %.6f s ", x0, y + 4,
		x1 - x0 > 1 ? x1 - x0 : 1, LANE - 8,
		clear ? "" : " stroke-dasharray=\"3 2\"", secs(from));
	if (clear)
		fprintf(f, "to %.6f s (%u ms): cleared by %s", secs(to),
			clear->unrecl.duration_ms,
			ow_clear_reason_name(clear->unrecl.reason));
	else
		fprintf(f, "to the end: never cleared");
	fprintf(f, "</title></rect>\n");
}

static void unrecl_row(FILE *f, const struct ow_svg *g, const struct geom *gm,
		       int y, int nid)
{
	unsigned long long from = 0;
	bool set = false;

	row_label(f, y + 16, "unreclaimable", nid);
	for (size_t i = 0; i < g->n; i++) {
		const struct oomwatch_event *e = &g->ev[i];

		if (node_of(e) != nid)
			continue;
		if (e->type == OW_UNRECLAIMABLE_SET && !set) {
			set = true;
			from = e->ts_ns;
		} else if (e->type == OW_UNRECLAIMABLE_CLEAR && set) {
			unrecl_span(f, gm, y, from, e->ts_ns, e);
			set = false;
		}
	}
	if (set)
		unrecl_span(f, gm, y, from, gm->t1, NULL);
}

/* ------------------------------------------------------ thrashing row */

static void thrash_span(FILE *f, const struct geom *gm, int y,
			unsigned long long from, unsigned long long to,
			const struct oomwatch_event *clear)
{
	double x0 = x_of(gm, from > gm->t0 ? from : gm->t0), x1 = x_of(gm, to);

	fprintf(f, "<rect class=\"thrash\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		"height=\"%d\"%s><title>thrashing from %.6f s ", x0, y + 4,
		x1 - x0 > 1 ? x1 - x0 : 1, LANE - 8,
		clear ? "" : " stroke-dasharray=\"3 2\"", secs(from));
	if (clear)
		fprintf(f, "to %.6f s (%u ms): %s", secs(to),
			clear->thrash.duration_ms,
			ow_thrash_clear_reason_name(clear->thrash.reason));
	else
		fprintf(f, "to the end: never cleared");
	fprintf(f, "</title></rect>\n");
}

static void thrash_grant_mark(FILE *f, const struct geom *gm, int y,
			      const struct oomwatch_event *e)
{
	double x = x_of(gm, e->ts_ns), m = y + LANE / 2.0;

	fprintf(f, "<polygon class=\"tgrant\" points=\"%.1f,%.1f %.1f,%.1f "
		"%.1f,%.1f\"><title>%.6f s: oom_thrash_grant, thrashing %u ms, "
		"swap %llu of %llu pages free</title></polygon>\n", x, m - 7,
		x + 6, m + 5, x - 6, m + 5, secs(e->ts_ns),
		e->thrash_grant.thrashing_ms,
		(unsigned long long)e->thrash_grant.swap_free,
		(unsigned long long)e->thrash_grant.swap_total);
}

static void take_mark(FILE *f, const struct geom *gm, int y,
		      const struct oomwatch_event *e)
{
	double x = x_of(gm, e->ts_ns);

	fprintf(f, "<line class=\"take\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
		"y2=\"%d\"><title>%.6f s: oom_thrash_take by ", x, y, x,
		y + LANE, secs(e->ts_ns));
	task_text(f, e->take.comm, e->take.pid);
	fprintf(f, ", order %d</title></line>\n", e->take.order);
}

/* Windows first, marks over them. */
static void thrash_row(FILE *f, const struct ow_svg *g, const struct geom *gm,
		       int y, int nid)
{
	unsigned long long from = 0;
	bool set = false;

	row_label(f, y + 16, "thrashing", nid);
	for (size_t i = 0; i < g->n; i++) {
		const struct oomwatch_event *e = &g->ev[i];

		if (node_of(e) != nid)
			continue;
		if (e->type == OW_THRASHING_SET && !set) {
			unsigned long long w = e->thrash.window_ms * 1000000ULL;

			/* Thrashing since the window the set closed began. */
			set = true;
			from = e->ts_ns > w ? e->ts_ns - w : 0;
		} else if (e->type == OW_THRASHING_CLEAR && set) {
			thrash_span(f, gm, y, from, e->ts_ns, e);
			set = false;
		}
	}
	if (set)
		thrash_span(f, gm, y, from, gm->t1, NULL);
	for (size_t i = 0; i < g->n; i++) {
		const struct oomwatch_event *e = &g->ev[i];

		if (node_of(e) != nid)
			continue;
		if (e->type == OW_THRASH_GRANT)
			thrash_grant_mark(f, gm, y, e);
		else if (e->type == OW_THRASH_TAKE)
			take_mark(f, gm, y, e);
	}
}

/* One mark per request event; shapes tell the kinds apart. */
static void request_mark(FILE *f, const struct geom *gm, int y,
			 const struct oomwatch_event *e)
{
	double x = x_of(gm, e->ts_ns), m = y + LANE / 2.0;
	const char *what = ow_event_type_name(e->type);
	__u32 pid = e->type == OW_OOM_GRANT ? e->grant.pid : e->request.pid;

	switch (e->type) {
	case OW_OOM_REQUEST:
		fprintf(f, "<circle class=\"request\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"4\">", x, m);
		break;
	case OW_OOM_DEFER:
		fprintf(f, "<line class=\"defer\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\">", x, m - 6, x, m + 6);
		break;
	case OW_OOM_VETO:
		fprintf(f, "<polygon class=\"veto\" points=\"%.1f,%.1f %.1f,%.1f "
			"%.1f,%.1f %.1f,%.1f\">", x, m - 6, x + 5, m, x, m + 6,
			x - 5, m);
		break;
	case OW_OOM_GRANT:
		fprintf(f, "<polygon class=\"grant\" points=\"%.1f,%.1f %.1f,%.1f "
			"%.1f,%.1f\">", x, m - 7, x + 6, m + 5, x - 6, m + 5);
		break;
	default:
		fprintf(f, "<rect class=\"fallback\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"9\" height=\"9\">", x - 4.5, m - 4.5);
		break;
	}
	fprintf(f, "<title>%.6f s: %s, pid %u", secs(e->ts_ns), what, pid);
	if (e->type == OW_OOM_REQUEST) {
		fprintf(f, " (");
		xml_put(f, e->request.comm, OOMWATCH_COMM_LEN);
		fprintf(f, "), order %d", e->request.order);
	} else if (e->type == OW_OOM_GRANT) {
		fprintf(f, ", unreclaimable %u ms, %u looping, %llu reclaimed",
			e->grant.unreclaimable_ms, e->grant.looping,
			(unsigned long long)e->grant.low_reclaimed);
	} else {
		fprintf(f, ": %s", ow_verdict_reason_name(e->request.reason));
	}
	fprintf(f, "</title></%s>\n", e->type == OW_OOM_REQUEST ? "circle" :
		e->type == OW_OOM_DEFER ? "line" :
		e->type == OW_OOM_FALLBACK ? "rect" : "polygon");
}

static void requests_row(FILE *f, const struct ow_svg *g,
			 const struct geom *gm, int y, int nid)
{
	row_label(f, y + 16, "requests", nid);
	for (size_t i = 0; i < g->n; i++) {
		const struct oomwatch_event *e = &g->ev[i];

		if (node_of(e) == nid && e->type >= OW_OOM_REQUEST &&
		    e->type <= OW_OOM_FALLBACK)
			request_mark(f, gm, y, e);
	}
}

/*
 * Two views of a node's low zones, drawn apart because they differ: the
 * grant's evidence (kswapd: the i-th managed zone up to ZONE_NORMAL, min
 * including the lowmem reserve) and the allocator's reclaim_retry_zone
 * (zone index z, available vs min_wmark).
 */
enum view {
	KSWAPD,		/* oom_grant zones[]: classes "free", "min" */
	ALLOCATOR,	/* reclaim_retry_zone: classes "afree", "amin" */
};

/* Zone z of event e in that view, in pages; false if e says nothing. */
static bool zone_point(const struct oomwatch_event *e, int z, enum view view,
		       __u64 *free, __u64 *min)
{
	if (view == KSWAPD && e->type == OW_OOM_GRANT) {
		if (z >= (int)e->grant.nr_zones || z >= OOMWATCH_MAX_ZONES)
			return false;
		*free = e->grant.zone[z].free;
		*min = e->grant.zone[z].min;
		return true;
	}
	if (view == ALLOCATOR && e->type == OW_RECLAIM_RETRY_ZONE &&
	    e->retry.zone_idx == z) {
		*free = e->retry.available;
		*min = e->retry.min_wmark;
		return true;
	}
	return false;
}

struct chart {
	int y;			/* top */
	int nid;
	__u64 vmax;
};

static double y_of(const struct chart *c, __u64 v)
{
	return c->y + CHART - (double)v * CHART / (double)c->vmax;
}

static const char *series_class(enum view view, bool want_min)
{
	if (view == KSWAPD)
		return want_min ? "min" : "free";
	return want_min ? "amin" : "afree";
}

static const char *series_title(enum view view, bool want_min)
{
	if (view == KSWAPD)
		return want_min ? "low zone %d, kswapd's grant evidence: min "
				  "watermark + lowmem reserve" :
				  "low zone %d, kswapd's grant evidence: free";
	return want_min ? "zone index %d, allocator (reclaim_retry_zone): "
			  "min watermark" :
			  "zone index %d, allocator (reclaim_retry_zone): "
			  "available";
}

/* One series: polyline for two points or more, a dot for one. */
static void series(FILE *f, const struct ow_svg *g, const struct geom *gm,
		   const struct chart *c, int z, enum view view, bool want_min)
{
	const char *cls = series_class(view, want_min);
	size_t n = 0;
	__u64 fr, mn;

	for (size_t i = 0; i < g->n; i++)
		n += node_of(&g->ev[i]) == c->nid &&
		     zone_point(&g->ev[i], z, view, &fr, &mn);
	if (!n)
		return;
	if (n == 1)
		fprintf(f, "<circle class=\"%s\" r=\"3\" stroke=\"%s\" "
			"fill=\"%s\"", cls, zone_colour[z],
			want_min ? "none" : zone_colour[z]);
	else
		fprintf(f, "<polyline class=\"%s\" stroke=\"%s\" points=\"",
			cls, zone_colour[z]);
	for (size_t i = 0; i < g->n; i++) {
		const struct oomwatch_event *e = &g->ev[i];
		double x, v;

		if (node_of(e) != c->nid || !zone_point(e, z, view, &fr, &mn))
			continue;
		x = x_of(gm, e->ts_ns);
		v = y_of(c, want_min ? mn : fr);
		if (n == 1)
			fprintf(f, " cx=\"%.1f\" cy=\"%.1f\"", x, v);
		else
			fprintf(f, "%.1f,%.1f ", x, v);
	}
	fprintf(f, "%s<title>node %d ", n == 1 ? ">" : "\">", c->nid);
	fprintf(f, series_title(view, want_min), z);
	fprintf(f, " (pages)</title></%s>\n", n == 1 ? "circle" : "polyline");
}

static void chart_row(FILE *f, const struct ow_svg *g, const struct geom *gm,
		      int y, int nid)
{
	struct chart c = { .y = y, .nid = nid, .vmax = 1 };
	size_t points = 0;
	__u64 fr, mn;

	for (size_t i = 0; i < g->n; i++)
		for (int z = 0; z < 2 * MAX_ZONES; z++)
			if (node_of(&g->ev[i]) == nid &&
			    zone_point(&g->ev[i], z % MAX_ZONES,
				       z < MAX_ZONES ? KSWAPD : ALLOCATOR,
				       &fr, &mn)) {
				points++;
				if (fr > c.vmax)
					c.vmax = fr;
				if (mn > c.vmax)
					c.vmax = mn;
			}
	c.vmax += c.vmax / 10;		/* headroom above the highest */
	row_label(f, y + 14, "free vs min", nid);
	fprintf(f, "<text class=\"label\" x=\"8\" y=\"%d\">pages; free "
		"solid, min dashed;</text>\n", y + 30);
	fprintf(f, "<text class=\"label\" x=\"8\" y=\"%d\">bold: kswapd's "
		"grants, thin:</text>\n", y + 42);
	fprintf(f, "<text class=\"label\" x=\"8\" y=\"%d\">the allocator's "
		"retries</text>\n", y + 54);
	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\"/>\n", LEFT, y, PLOT, CHART);
	fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">%llu</text>\n", LEFT - 4, y + 10,
		(unsigned long long)c.vmax);
	fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">0</text>\n", LEFT - 4, y + CHART);
	for (int z = 0; z < MAX_ZONES; z++) {
		series(f, g, gm, &c, z, KSWAPD, false);
		series(f, g, gm, &c, z, KSWAPD, true);
		series(f, g, gm, &c, z, ALLOCATOR, false);
		series(f, g, gm, &c, z, ALLOCATOR, true);
	}
	if (!points)
		fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\">no zone "
			"evidence: no oom_grant or reclaim_retry_zone on this "
			"node</text>\n", LEFT + 8, y + CHART / 2);
}

/* Eight items a row; the thrash rule's only when the picture has them. */
static void legend(FILE *f, int y, bool thrash)
{
	static const struct {
		const char *fill;
		const char *what;
	} items[] = {
		{ "#b2182b", "kill / bypass" },
		{ "#92c5de", "swap token held" },
		{ "#f4a582", "node unreclaimable" },
		{ "#ffffff", "request" },
		{ "#999999", "defer" },
		{ "#4dac26", "veto" },
		{ "#d6604d", "grant" },
		{ "#fdb863", "fallback" },
		{ "#c2a5cf", "node thrashing" },
		{ "#762a83", "thrash grant" },
		{ "#40004b", "thrash take" },
	};
	size_t n = sizeof(items) / sizeof(items[0]);

	for (size_t i = 0; i < (thrash ? n : 8); i++) {
		int x = 8 + (int)(i % 8) * 145, yi = y + (int)(i / 8) * 16;

		fprintf(f, "<rect class=\"lg\" x=\"%d\" y=\"%d\" width=\"10\" "
			"height=\"10\" fill=\"%s\" stroke=\"#333\"/>\n", x, yi,
			items[i].fill);
		fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + 14,
			yi + 9, items[i].what);
	}
}

/* ------------------------------------------------------------- write */

int ow_svg_write(struct ow_svg *g, FILE *f, const struct ow_header *h)
{
	bool nodes[MAX_NODES] = { false }, thrash[MAX_NODES] = { false };
	struct geom gm = { 0, 0 };
	int nr_nodes = 0, nr_thrash = 0, height, y;

	for (size_t i = 0; i < g->n; i++) {
		int nid = node_of(&g->ev[i]);

		if (!i || g->ev[i].ts_ns < gm.t0)
			gm.t0 = g->ev[i].ts_ns;
		if (g->ev[i].ts_ns > gm.t1)
			gm.t1 = g->ev[i].ts_ns;
		if (nid >= 0 && !nodes[nid]) {
			nodes[nid] = true;
			nr_nodes++;
		}
		/* a lane for the thrash rule only where it did something */
		if (nid >= 0 && is_thrash(g->ev[i].type) && !thrash[nid]) {
			thrash[nid] = true;
			nr_thrash++;
		}
	}
	if (gm.t1 <= gm.t0)
		gm.t1 = gm.t0 + NS_PER_S;	/* one instant: one second */
	height = TOP + 2 * LANE + GAP +
		 nr_nodes * (2 * LANE + CHART + 2 * GAP) + nr_thrash * LANE +
		 LEGEND;
	head(f, height);
	title(f, h, g);
	axis(f, &gm, height - LEGEND);
	y = TOP;
	kills_row(f, g, &gm, y);
	token_row(f, g, &gm, y + LANE);
	y += 2 * LANE + GAP;
	for (int nid = 0; nid < MAX_NODES; nid++) {
		if (!nodes[nid])
			continue;
		unrecl_row(f, g, &gm, y, nid);
		if (thrash[nid]) {
			thrash_row(f, g, &gm, y + LANE, nid);
			y += LANE;
		}
		requests_row(f, g, &gm, y + LANE, nid);
		chart_row(f, g, &gm, y + 2 * LANE + GAP / 2, nid);
		y += 2 * LANE + CHART + 2 * GAP;
	}
	legend(f, height - LEGEND + 16, nr_thrash > 0);
	fprintf(f, "</svg>\n");
	if (fflush(f) || ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
