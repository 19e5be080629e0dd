/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: the run as an SVG timeline, written by oomwatch itself (no
 * plotting tool needed in the guest or on the host).
 *
 * Time runs left to right in the events' own seconds (as in the human
 * timeline).  Rows, top to bottom:
 *
 *   OOM kills            one mark per mark_victim        class "kill"
 *   swap token           holder intervals                class "token"
 *                        bypasses                        class "bypass"
 *   per node N:
 *     unreclaimable      set -> clear windows            class "unrecl"
 *     thrashing          (only a node with thrash events)
 *                        thrashing_set -> clear windows  class "thrash"
 *                        oom_thrash_grant                class "tgrant"
 *                        oom_thrash_take                 class "take"
 *     requests           oom_request                     class "request"
 *                        oom_defer / oom_veto            "defer" / "veto"
 *                        oom_grant / oom_fallback        "grant" / "fallback"
 *     free vs min        pages, free solid and min dashed, two views
 *                        kept apart: kswapd's, from the grants' evidence
 *                        (low zone i: the i-th managed zone up to
 *                        ZONE_NORMAL, min with the lowmem reserve;
 *                        classes "free", "min"), and the allocator's, from
 *                        reclaim_retry_zone (zone index i, available vs
 *                        min_wmark; classes "afree", "amin")
 *
 * Every mark has a <title> with the details, shown as a tooltip.  Each
 * class above is used by exactly one element per thing drawn (the legend
 * uses class "lg"), so counting class="..." counts things; the tests do.
 */
#ifndef OW_SVG_H
#define OW_SVG_H

#include <stdbool.h>
#include <stdio.h>
#include "trace.h"

#define OW_SVG_MAX_EVENTS	200000	/* about 30 MB; later ones dropped */

struct ow_svg;

struct ow_svg *ow_svg_new(void);
/* Keeps what the picture needs; any order of types, seq order of events. */
void ow_svg_event(struct ow_svg *g, const struct oomwatch_event *ev);
/* Events not kept because the picture was full (said in the picture). */
unsigned long ow_svg_dropped(const struct ow_svg *g);
/* h may be NULL (no header: configuration unknown).  0, or -1 + errno. */
int ow_svg_write(struct ow_svg *g, FILE *f, const struct ow_header *h);
void ow_svg_free(struct ow_svg *g);

#endif /* OW_SVG_H */
