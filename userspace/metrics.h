/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch --metrics: the run's decisions as Prometheus metrics, in the
 * text exposition format, for node_exporter's textfile collector.
 *
 * Live and replay give the same numbers for the same recording by
 * construction: every number is read from what the event stream made of
 * the episode model (episodes.h), the statistics and the checker, or
 * counted here from the events in seq order; none from a clock or from
 * when the file happened to be written.  Times are the events'
 * timestamps: a node unreclaimable (or thrashing) and not cleared yet
 * counts up to the latest event's time, and its clear adds up to that
 * same time, so the seconds never go down from one write to the next.
 * Only what the checker judges at the end of a run (deadlines still
 * open, which depend on when the run ended, not on any event) is left
 * out: the summary has it.  The exposition carries no timestamps.
 *
 * Labels are bounded: node (the first OW_METRICS_NODES node ids named,
 * in the order the events name them; any further node is summed into
 * node="other"), reason (a verdict or token reason name, or "invalid"),
 * constraint and invariant.  Never a pid or a comm.
 *
 * The file is written whole into FILE.tmp.PID in FILE's directory, then
 * renamed over FILE: a reader sees the old file or the new one, never a
 * part (node_exporter reads only *.prom, which the temporary name is
 * not).
 */
#ifndef OW_METRICS_H
#define OW_METRICS_H

#include <stddef.h>
#include <stdio.h>
#include "checker.h"
#include "episodes.h"
#include "stats.h"

#define OW_METRICS_NODES	64	/* node ids with a label of their own */
#define OW_METRICS_INTERVAL	15	/* seconds between writes, default */
#define OW_METRICS_INTERVAL_MAX	86400

struct ow_metrics;

/*
 * Reads the model m and the statistics st (fed before each event reaches
 * ow_metrics_feed()).  NULL when out of memory.
 */
struct ow_metrics *ow_metrics_new(const struct ow_episodes *m,
				  const struct ow_stats *st);
void ow_metrics_free(struct ow_metrics *mx);

/* After the model and the statistics took the event. */
void ow_metrics_feed(struct ow_metrics *mx, const struct oomwatch_event *ev);

/* The exposition into f; c NULL: no checker yet, no violation. */
int ow_metrics_format(const struct ow_metrics *mx, const struct ow_checker *c,
		      FILE *f);

/*
 * The exposition into path, atomically (see above).  Returns 0, or -1
 * with errno set; the temporary file is gone either way.
 */
int ow_metrics_write(const struct ow_metrics *mx, const struct ow_checker *c,
		     const char *path);

#endif /* OW_METRICS_H */
