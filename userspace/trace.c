// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: JSON-lines encoder and decoder; trace.h describes the format.
 *
 * One table per event type lists its payload fields.  The encoder, the
 * decoder and ow_event_equal() all walk the same tables, so they cannot
 * disagree on which member travels under which name.
 *
 * Decoding a line is two passes: a small JSON parser builds a flat tree of
 * nodes over a private copy of the line (strings unescaped in place, which
 * only ever shrinks them), then the tree is checked against the tables.
 * Both passes are bounded by OW_LINE_MAX, J_MAX_NODES and J_MAX_DEPTH: no
 * input makes them allocate, recurse deeply or look outside the copy.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "trace.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PRINTF(f, a)	__attribute__((format(printf, f, a)))

/* ---------------------------------------------------------------- names */

static const char *const event_names[OW_NR_TYPES] = {
	[OW_MARK_VICTIM]	 = "mark_victim",
	[OW_RECLAIM_RETRY_ZONE]	 = "reclaim_retry_zone",
	[OW_WAKE_REAPER]	 = "wake_reaper",
	[OW_FINISH_REAPING]	 = "finish_task_reaping",
	[OW_KSWAPD_WAKE]	 = "kswapd_wake",
	[OW_KSWAPD_SLEEP]	 = "kswapd_sleep",
	[OW_DIRECT_BEGIN]	 = "direct_reclaim_begin",
	[OW_DIRECT_END]		 = "direct_reclaim_end",
	[OW_UNRECLAIMABLE_SET]	 = "unreclaimable_set",
	[OW_UNRECLAIMABLE_CLEAR] = "unreclaimable_clear",
	[OW_TOKEN_GRAB]		 = "swap_token_grab",
	[OW_TOKEN_RELEASE]	 = "swap_token_release",
	[OW_TOKEN_BYPASS]	 = "swap_token_bypass",
	[OW_TOKEN_KEPT]		 = "swap_token_kept",
	[OW_OOM_REQUEST]	 = "oom_request",
	[OW_OOM_DEFER]		 = "oom_defer",
	[OW_OOM_VETO]		 = "oom_veto",
	[OW_OOM_GRANT]		 = "oom_grant",
	[OW_OOM_FALLBACK]	 = "oom_fallback",
	[OW_TASK_EXIT]		 = "task_exit",
	[OW_THRASHING_SET]	 = "thrashing_set",
	[OW_THRASHING_CLEAR]	 = "thrashing_clear",
	[OW_THRASH_GRANT]	 = "oom_thrash_grant",
	[OW_THRASH_TAKE]	 = "oom_thrash_take",
};

static const char *const constraint_names[] = {
	[OW_CONSTRAINT_GLOBAL]	= "global",
	[OW_CONSTRAINT_MEMCG]	= "memcg",
	[OW_CONSTRAINT_SYSRQ]	= "sysrq",
	[OW_CONSTRAINT_UNKNOWN]	= "unknown",
	[OW_CONSTRAINT_NODEMASK] = "nodemask",
};

static const char *const clear_names[] = {
	[OW_CLEAR_PROGRESS]	= "progress",
	[OW_CLEAR_FREED]	= "freed",
	[OW_CLEAR_TIMEOUT]	= "timeout",
};

static const char *const token_names[] = {
	[OW_TOKEN_FREE]		= "free",
	[OW_TOKEN_EXPIRED]	= "expired",
	[OW_TOKEN_IDLE]		= "idle",
	[OW_TOKEN_EXIT]		= "exit",
	[OW_TOKEN_DISABLED]	= "disabled",
};

static const char *const verdict_names[] = {
	[OW_RULE_OK]			= "ok",
	[OW_RULE_NOT_UNRECLAIMABLE]	= "not_unreclaimable",
	[OW_RULE_TOO_SOON]		= "too_soon",
	[OW_RULE_NO_FULL_SCAN]		= "no_full_scan",
	[OW_RULE_PROGRESS]		= "progress",
	[OW_RULE_ABOVE_MIN]		= "above_min",
	[OW_RULE_NOBODY_LOOPING]	= "nobody_looping",
	[OW_RULE_EPISODE_OPEN]		= "episode_open",
	[OW_VETO_ALLOC_OK]		= "alloc_ok",
	[OW_VETO_NOT_QUALIFIED]		= "not_qualified",
	[OW_VETO_RECOVERED]		= "recovered",
	[OW_STOCK_DYING]		= "dying",
	[OW_STOCK_NOFAIL]		= "nofail",
	[OW_STOCK_NOFS]			= "nofs",
	[OW_STOCK_DISABLED]		= "disabled",
	[OW_STOCK_FREEZING]		= "freezing",
	[OW_THRASH_NOT_THRASHING]	= "not_thrashing",
	[OW_THRASH_SWAP_FREE]		= "swap_free",
	[OW_THRASH_ABOVE_HIGH]		= "above_high",
	[OW_STOCK_NO_RELIEF]		= "no_relief",
	[OW_THRASH_NO_VICTIM]		= "no_victim",
};

static const char *const thrash_clear_names[] = {
	[OW_THRASH_CALM]	= "calm",
	[OW_THRASH_DISABLED]	= "disabled",
};

#define NAME_OF(tab, v)	((v) < ARRAY_SIZE(tab) && (tab)[v] ? (tab)[v] : \
			 "invalid")

const char *ow_event_type_name(unsigned int type)
{
	return type < OW_NR_TYPES ? event_names[type] : NULL;
}

static unsigned int type_from_bytes(const char *s, size_t len)
{
	for (unsigned int t = 1; t < OW_NR_TYPES; t++)
		if (event_names[t] && strlen(event_names[t]) == len &&
		    !memcmp(event_names[t], s, len))
			return t;
	return 0;
}

unsigned int ow_event_type_from_name(const char *name)
{
	return name ? type_from_bytes(name, strlen(name)) : 0;
}

const char *ow_constraint_name(unsigned int v)
{
	return NAME_OF(constraint_names, v);
}

const char *ow_clear_reason_name(unsigned int v)
{
	return NAME_OF(clear_names, v);
}

const char *ow_token_reason_name(unsigned int v)
{
	return NAME_OF(token_names, v);
}

const char *ow_verdict_reason_name(unsigned int v)
{
	return NAME_OF(verdict_names, v);
}

const char *ow_thrash_clear_reason_name(unsigned int v)
{
	return NAME_OF(thrash_clear_names, v);
}

void ow_config_unknown(struct ow_config *cfg)
{
	cfg->oom_arbiter = OW_CONFIG_UNKNOWN;
	cfg->oom_unreclaimable_timeout_ms = OW_CONFIG_UNKNOWN;
	cfg->oom_arbiter_fallback_ms = OW_CONFIG_UNKNOWN;
	cfg->swap_token = OW_CONFIG_UNKNOWN;
	cfg->swap_token_bypass_priority = OW_CONFIG_UNKNOWN;
	cfg->oom_arbiter_thrash = OW_CONFIG_UNKNOWN;
	cfg->oom_thrash_timeout_ms = OW_CONFIG_UNKNOWN;
}

/* --------------------------------------------------------------- tables */

enum field_kind {
	F_U32,
	F_S32,
	F_U64,
	F_COMM,		/* char[OOMWATCH_COMM_LEN], not always NUL-terminated */
	F_ENUM,		/* __u32, written with a "<name>_name" companion */
};

/*
 * since: the format version that added the field.  A line of an older
 * version neither carries it nor may carry it, and decodes it as 0.
 * max: for an enum the checker's rules depend on, the largest value the
 * kernel traces (anything above is malformed); 0: any value is read.
 */
struct field {
	const char *name;
	unsigned short off;
	unsigned char kind;
	unsigned char since;
	const char *(*enum_name)(unsigned int value);
	unsigned int max;
};

#define EV_OFF(m)	offsetof(struct oomwatch_event, m)
#define FLD(n, m, k)	{ n, EV_OFF(m), k, 1, NULL, 0 }
#define FLD_SINCE(n, m, k, v)	{ n, EV_OFF(m), k, v, NULL, 0 }
#define ENUMF(n, m, fn)	{ n, EV_OFF(m), F_ENUM, 1, fn, 0 }
#define ENUMF_MAX(n, m, fn, mx)	{ n, EV_OFF(m), F_ENUM, 1, fn, mx }

static bool in_version(const struct field *f, unsigned int version)
{
	return f->since <= version;
}

_Static_assert(sizeof(((struct oomwatch_event *)0)->victim.comm) ==
	       OOMWATCH_COMM_LEN, "victim.comm");
_Static_assert(sizeof(((struct oomwatch_event *)0)->token.holder_comm) ==
	       OOMWATCH_COMM_LEN, "token.holder_comm");
_Static_assert(sizeof(((struct oomwatch_event *)0)->request.comm) ==
	       OOMWATCH_COMM_LEN, "request.comm");
_Static_assert(sizeof(((struct oomwatch_event *)0)->take.comm) ==
	       OOMWATCH_COMM_LEN, "take.comm");

/* "v" and "type" are handled apart: they select how to read the rest. */
static const struct field common_fields[] = {
	FLD("seq", seq, F_U64),
	FLD("ts_ns", ts_ns, F_U64),
	FLD("cpu", cpu, F_U32),
	FLD("pid", pid, F_U32),
	FLD("tgid", tgid, F_U32),
	FLD("comm", comm, F_COMM),
};

static const struct field victim_fields[] = {
	FLD("victim_pid", victim.pid, F_U32),
	FLD("uid", victim.uid, F_U32),
	FLD("oom_score_adj", victim.oom_score_adj, F_S32),
	ENUMF("constraint", victim.constraint, ow_constraint_name),
	FLD("total_vm_kb", victim.total_vm_kb, F_U64),
	FLD("anon_rss_kb", victim.anon_rss_kb, F_U64),
	FLD("file_rss_kb", victim.file_rss_kb, F_U64),
	FLD("shmem_rss_kb", victim.shmem_rss_kb, F_U64),
	FLD("memcg_id", victim.memcg_id, F_U64),
	FLD("victim_comm", victim.comm, F_COMM),
};

static const struct field retry_fields[] = {
	FLD("nid", retry.nid, F_S32),
	FLD("zone_idx", retry.zone_idx, F_S32),
	FLD("order", retry.order, F_S32),
	FLD("no_progress_loops", retry.no_progress_loops, F_S32),
	FLD("reclaimable", retry.reclaimable, F_U64),
	FLD("available", retry.available, F_U64),
	FLD("min_wmark", retry.min_wmark, F_U64),
	FLD("wmark_check", retry.wmark_check, F_U32),
};

static const struct field reaper_fields[] = {
	FLD("reaper_pid", reaper.pid, F_U32),
};

static const struct field kswapd_fields[] = {
	FLD("nid", kswapd.nid, F_S32),
	FLD("zid", kswapd.zid, F_S32),
	FLD("order", kswapd.order, F_S32),
};

static const struct field direct_fields[] = {
	FLD("order", direct.order, F_S32),
	FLD("gfp_flags", direct.gfp_flags, F_U32),
	FLD("nr_reclaimed", direct.nr_reclaimed, F_U64),
};

/* reason means nothing for set: no name, so a reader is not misled. */
static const struct field unrecl_set_fields[] = {
	FLD("nid", unrecl.nid, F_S32),
	FLD("reason", unrecl.reason, F_U32),
	FLD("failures", unrecl.failures, F_U32),
	FLD("duration_ms", unrecl.duration_ms, F_U32),
};

static const struct field unrecl_clear_fields[] = {
	FLD("nid", unrecl.nid, F_S32),
	ENUMF("reason", unrecl.reason, ow_clear_reason_name),
	FLD("failures", unrecl.failures, F_U32),
	FLD("duration_ms", unrecl.duration_ms, F_U32),
};

static const struct field token_fields[] = {
	FLD("token_tgid", token.tgid, F_U32),
	FLD("prev_tgid", token.prev_tgid, F_U32),
	ENUMF("reason", token.reason, ow_token_reason_name),
	FLD("holder_comm", token.holder_comm, F_COMM),
};

static const struct field token_pass_fields[] = {
	FLD("reclaimer", token_pass.reclaimer, F_U32),
	FLD("holder_tgid", token_pass.holder_tgid, F_U32),
	FLD("nid", token_pass.nid, F_S32),
	FLD("priority", token_pass.priority, F_S32),
	FLD("nr_folios", token_pass.nr_folios, F_U64),
};

/*
 * request and fallback carry no verdict: reason gets no name there.  Only
 * the request is raised in the requester's context, where BPF can read
 * its memcg: the verdicts come from kswapd or name it by pid alone.
 */
static const struct field request_fields[] = {
	FLD("request_pid", request.pid, F_U32),
	FLD("nid", request.nid, F_S32),
	FLD("order", request.order, F_S32),
	FLD("gfp_flags", request.gfp_flags, F_U32),
	FLD("reason", request.reason, F_U32),
	FLD("waited_ms", request.waited_ms, F_U32),
	FLD_SINCE("memcg_id", request.memcg_id, F_U64, 2),
	FLD("request_comm", request.comm, F_COMM),
};

static const struct field fallback_fields[] = {
	FLD("request_pid", request.pid, F_U32),
	FLD("nid", request.nid, F_S32),
	FLD("order", request.order, F_S32),
	FLD("gfp_flags", request.gfp_flags, F_U32),
	FLD("reason", request.reason, F_U32),
	FLD("waited_ms", request.waited_ms, F_U32),
	FLD("request_comm", request.comm, F_COMM),
};

static const struct field verdict_fields[] = {
	FLD("request_pid", request.pid, F_U32),
	FLD("nid", request.nid, F_S32),
	FLD("order", request.order, F_S32),
	FLD("gfp_flags", request.gfp_flags, F_U32),
	ENUMF("reason", request.reason, ow_verdict_reason_name),
	FLD("waited_ms", request.waited_ms, F_U32),
	FLD("request_comm", request.comm, F_COMM),
};

/* Followed by "zones", which no flat table can describe. */
static const struct field grant_fields[] = {
	FLD("nid", grant.nid, F_S32),
	FLD("grant_pid", grant.pid, F_U32),
	FLD("unreclaimable_ms", grant.unreclaimable_ms, F_U32),
	FLD("looping", grant.looping, F_U32),
	FLD("low_reclaimed", grant.low_reclaimed, F_U64),
	FLD("nr_zones", grant.nr_zones, F_U32),
};

static const struct field exit_fields[] = {
	FLD("exit_pid", exit.pid, F_U32),
	FLD("exit_tgid", exit.tgid, F_U32),
};

/* reason and duration_ms mean nothing for set: 0, no name (as above). */
static const struct field thrash_set_fields[] = {
	FLD("nid", thrash.nid, F_S32),
	FLD("reason", thrash.reason, F_U32),
	FLD("duration_ms", thrash.duration_ms, F_U32),
	FLD("window_ms", thrash.window_ms, F_U32),
	FLD("refaulted", thrash.refaulted, F_U64),
	FLD("reclaimed", thrash.reclaimed, F_U64),
	FLD_SINCE("faulted", thrash.faulted, F_U64, 4),
	FLD_SINCE("near", thrash.near, F_U64, 4),
	FLD_SINCE("anon", thrash.anon, F_U64, 4),
};

/* The checker's rules tell calm from disabled: no other value is read. */
static const struct field thrash_clear_fields[] = {
	FLD("nid", thrash.nid, F_S32),
	ENUMF_MAX("reason", thrash.reason, ow_thrash_clear_reason_name,
		  OW_THRASH_CLEAR_MAX),
	FLD("duration_ms", thrash.duration_ms, F_U32),
	FLD("window_ms", thrash.window_ms, F_U32),
	FLD("refaulted", thrash.refaulted, F_U64),
	FLD("reclaimed", thrash.reclaimed, F_U64),
	FLD_SINCE("faulted", thrash.faulted, F_U64, 4),
	FLD_SINCE("near", thrash.near, F_U64, 4),
	FLD_SINCE("anon", thrash.anon, F_U64, 4),
};

/* Followed by "zones", as oom_grant's, with "high" for "min". */
static const struct field thrash_grant_fields[] = {
	FLD("nid", thrash_grant.nid, F_S32),
	FLD("thrashing_ms", thrash_grant.thrashing_ms, F_U32),
	FLD("refaulted", thrash_grant.refaulted, F_U64),
	FLD("reclaimed", thrash_grant.reclaimed, F_U64),
	FLD_SINCE("faulted", thrash_grant.faulted, F_U64, 4),
	FLD_SINCE("near", thrash_grant.near, F_U64, 4),
	FLD_SINCE("anon", thrash_grant.anon, F_U64, 4),
	FLD_SINCE("window_ms", thrash_grant.window_ms, F_U32, 4),
	FLD("swap_free", thrash_grant.swap_free, F_U64),
	FLD("swap_total", thrash_grant.swap_total, F_U64),
	FLD("nr_zones", thrash_grant.nr_zones, F_U32),
};

/* Raised in the taker's own context, like oom_request: its memcg too. */
static const struct field take_fields[] = {
	FLD("take_pid", take.pid, F_U32),
	FLD("nid", take.nid, F_S32),
	FLD("order", take.order, F_S32),
	FLD("gfp_flags", take.gfp_flags, F_U32),
	FLD("memcg_id", take.memcg_id, F_U64),
	FLD("take_comm", take.comm, F_COMM),
};

/*
 * The array after a grant's flat fields: nr_zones entries of two u64
 * members, under their JSON names.  oom_grant's and oom_thrash_grant's
 * differ in the second member and in how many the record holds.
 */
struct zones_desc {
	unsigned short nr_off;		/* the __u32 count */
	unsigned short off;		/* zone[0] */
	unsigned int max;		/* entries the record holds */
	const char *keys[2];
};

_Static_assert(sizeof(struct ow_zone_evidence) == 2 * sizeof(__u64) &&
	       sizeof(struct ow_thrash_zone) == 2 * sizeof(__u64),
	       "a zone is two u64");

static const struct zones_desc grant_zones = {
	EV_OFF(grant.nr_zones), EV_OFF(grant.zone), OOMWATCH_MAX_ZONES,
	{ "free", "min" },
};

static const struct zones_desc thrash_zones = {
	EV_OFF(thrash_grant.nr_zones), EV_OFF(thrash_grant.zone),
	OOMWATCH_THRASH_ZONES, { "free", "high" },
};

/* since: the format version that added the type (as for fields). */
struct type_desc {
	const struct field *fields;
	unsigned int nfields;
	const struct zones_desc *zones;	/* NULL: none */
	unsigned char since;
};

#define TD(tab)	{ tab, ARRAY_SIZE(tab), NULL, 1 }
#define TD_SINCE(tab, z, v)	{ tab, ARRAY_SIZE(tab), z, v }

static const struct type_desc types[OW_NR_TYPES] = {
	[OW_MARK_VICTIM]	 = TD(victim_fields),
	[OW_RECLAIM_RETRY_ZONE]	 = TD(retry_fields),
	[OW_WAKE_REAPER]	 = TD(reaper_fields),
	[OW_FINISH_REAPING]	 = TD(reaper_fields),
	[OW_KSWAPD_WAKE]	 = TD(kswapd_fields),
	[OW_KSWAPD_SLEEP]	 = TD(kswapd_fields),
	[OW_DIRECT_BEGIN]	 = TD(direct_fields),
	[OW_DIRECT_END]		 = TD(direct_fields),
	[OW_UNRECLAIMABLE_SET]	 = TD(unrecl_set_fields),
	[OW_UNRECLAIMABLE_CLEAR] = TD(unrecl_clear_fields),
	[OW_TOKEN_GRAB]		 = TD(token_fields),
	[OW_TOKEN_RELEASE]	 = TD(token_fields),
	[OW_TOKEN_BYPASS]	 = TD(token_pass_fields),
	[OW_TOKEN_KEPT]		 = TD(token_pass_fields),
	[OW_OOM_REQUEST]	 = TD(request_fields),
	[OW_OOM_DEFER]		 = TD(verdict_fields),
	[OW_OOM_VETO]		 = TD(verdict_fields),
	[OW_OOM_GRANT]		 = TD_SINCE(grant_fields, &grant_zones, 1),
	[OW_OOM_FALLBACK]	 = TD(fallback_fields),
	[OW_TASK_EXIT]		 = TD(exit_fields),
	[OW_THRASHING_SET]	 = TD_SINCE(thrash_set_fields, NULL, 3),
	[OW_THRASHING_CLEAR]	 = TD_SINCE(thrash_clear_fields, NULL, 3),
	[OW_THRASH_GRANT]	 = TD_SINCE(thrash_grant_fields, &thrash_zones,
					    3),
	[OW_THRASH_TAKE]	 = TD_SINCE(take_fields, NULL, 3),
};

static const struct type_desc *type_desc(unsigned int type)
{
	if (type == 0 || type >= OW_NR_TYPES || !types[type].fields)
		return NULL;
	return &types[type];
}

unsigned int ow_event_type_since(unsigned int type)
{
	const struct type_desc *t = type_desc(type);

	return t ? t->since : 0;
}

/*
 * The sysctls of the header, in the order they are written, with the
 * ranges the kernel accepts for them (vm.rst of the series) and the
 * format version that added them.  A value outside its range is a
 * malformed header, not a configuration: the checker would silently
 * switch off what depends on it.
 */
static const struct {
	const char *name;
	size_t off;
	int min;
	int max;
	unsigned int since;
} config_fields[] = {
	{ "oom_arbiter", offsetof(struct ow_config, oom_arbiter), 0, 1, 1 },
	{ "oom_unreclaimable_timeout_ms",
	  offsetof(struct ow_config, oom_unreclaimable_timeout_ms),
	  0, 600000, 1 },
	{ "oom_arbiter_fallback_ms",
	  offsetof(struct ow_config, oom_arbiter_fallback_ms), 100, 600000,
	  1 },
	{ "swap_token", offsetof(struct ow_config, swap_token), 0, 1, 1 },
	{ "swap_token_bypass_priority",
	  offsetof(struct ow_config, swap_token_bypass_priority), -1, 12, 1 },
	{ "oom_arbiter_thrash",
	  offsetof(struct ow_config, oom_arbiter_thrash), 0, 1, 3 },
	{ "oom_thrash_timeout_ms",
	  offsetof(struct ow_config, oom_thrash_timeout_ms), 0, 600000, 3 },
};

/* Members are read and written with memcpy: the tables only know offsets. */
static __u32 get_u32(const struct oomwatch_event *ev, const struct field *f)
{
	__u32 v;

	memcpy(&v, (const char *)ev + f->off, sizeof(v));
	return v;
}

static __s32 get_s32(const struct oomwatch_event *ev, const struct field *f)
{
	__s32 v;

	memcpy(&v, (const char *)ev + f->off, sizeof(v));
	return v;
}

static __u64 get_u64(const struct oomwatch_event *ev, const struct field *f)
{
	__u64 v;

	memcpy(&v, (const char *)ev + f->off, sizeof(v));
	return v;
}

static const char *get_comm(const struct oomwatch_event *ev,
			    const struct field *f)
{
	return (const char *)ev + f->off;
}

static __u32 zones_nr(const struct oomwatch_event *ev,
		      const struct zones_desc *z)
{
	__u32 v;

	memcpy(&v, (const char *)ev + z->nr_off, sizeof(v));
	return v;
}

/* Member k (0: free, 1: min or high) of entry i; i < z->max. */
static size_t zone_off(const struct zones_desc *z, unsigned int i,
		       unsigned int k)
{
	return z->off + (i * 2 + k) * sizeof(__u64);
}

static __u64 zone_get(const struct oomwatch_event *ev,
		      const struct zones_desc *z, unsigned int i,
		      unsigned int k)
{
	__u64 v;

	memcpy(&v, (const char *)ev + zone_off(z, i, k), sizeof(v));
	return v;
}

static void zone_set(struct oomwatch_event *ev, const struct zones_desc *z,
		     unsigned int i, unsigned int k, __u64 v)
{
	memcpy((char *)ev + zone_off(z, i, k), &v, sizeof(v));
}

/* -------------------------------------------------------------- encoder */

/* A bounded string builder: once full it stays full and writes nothing. */
struct sb {
	char *buf;
	size_t size;
	size_t len;
	bool full;
};

static void sb_init(struct sb *b, char *buf, size_t size)
{
	b->buf = buf;
	b->size = size;
	b->len = 0;
	b->full = size == 0;
	if (size)
		buf[0] = '\0';
}

static void sb_putc(struct sb *b, char c)
{
	if (b->full || b->len + 1 >= b->size) {
		b->full = true;
		return;
	}
	b->buf[b->len++] = c;
	b->buf[b->len] = '\0';
}

PRINTF(2, 3)
static void sb_printf(struct sb *b, const char *fmt, ...)
{
	size_t room;
	va_list ap;
	int n;

	if (b->full)
		return;
	room = b->size - b->len;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		b->full = true;
		b->buf[b->len] = '\0';
		return;
	}
	b->len += n;
}

/* Escapes so that the output is ASCII and every byte comes back as is. */
static void sb_str(struct sb *b, const char *s, size_t max)
{
	sb_putc(b, '"');
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = s[i];

		switch (c) {
		case '"':
			sb_printf(b, "\\\"");
			break;
		case '\\':
			sb_printf(b, "\\\\");
			break;
		case '\b':
			sb_printf(b, "\\b");
			break;
		case '\f':
			sb_printf(b, "\\f");
			break;
		case '\n':
			sb_printf(b, "\\n");
			break;
		case '\r':
			sb_printf(b, "\\r");
			break;
		case '\t':
			sb_printf(b, "\\t");
			break;
		default:
			if (c < 0x20 || c >= 0x7f)
				sb_printf(b, "\\u%04x", c);
			else
				sb_putc(b, c);
		}
	}
	sb_putc(b, '"');
}

/* For messages, not for JSON: sb_str() is the encoder's escaping. */
size_t ow_bytes_printable(char *buf, size_t size, const char *s, size_t len)
{
	struct sb b;

	sb_init(&b, buf, size);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			sb_putc(&b, c);
		else
			sb_printf(&b, "\\x%02x", c);
	}
	return b.len;
}

size_t ow_comm_printable(char *buf, size_t size, const char *comm)
{
	return ow_bytes_printable(buf, size, comm,
				  strnlen(comm, OOMWATCH_COMM_LEN));
}

bool ow_memcg_path_valid(const char *path, size_t len)
{
	size_t start = 1;

	if (len == 0 || len > OW_MEMCG_PATH_MAX || path[0] != '/' ||
	    memchr(path, '\0', len))
		return false;
	if (len == 1)
		return true;		/* the root */
	/* Each component: between one '/' and the next, or the end. */
	for (size_t i = 1; i <= len; i++) {
		size_t n;

		if (i < len && path[i] != '/')
			continue;
		n = i - start;
		if (n == 0 || (n == 1 && path[start] == '.') ||
		    (n == 2 && path[start] == '.' && path[start + 1] == '.'))
			return false;
		start = i + 1;
	}
	return true;
}

static int sb_finish(struct sb *b)
{
	if (b->full) {
		errno = ENOSPC;
		return -1;
	}
	return (int)b->len;
}

static bool version_known(unsigned int version)
{
	return version >= OW_FORMAT_VERSION_MIN &&
	       version <= OOMWATCH_FORMAT_VERSION;
}

static void put_field(struct sb *b, const struct oomwatch_event *ev,
		      const struct field *f)
{
	sb_printf(b, ",\"%s\":", f->name);
	switch (f->kind) {
	case F_U32:
		sb_printf(b, "%u", get_u32(ev, f));
		break;
	case F_ENUM:
		sb_printf(b, "%u,\"%s_name\":\"%s\"", get_u32(ev, f), f->name,
			  f->enum_name(get_u32(ev, f)));
		break;
	case F_S32:
		sb_printf(b, "%d", get_s32(ev, f));
		break;
	case F_U64:
		sb_printf(b, "%llu", (unsigned long long)get_u64(ev, f));
		break;
	case F_COMM:
		sb_str(b, get_comm(ev, f), OOMWATCH_COMM_LEN);
		break;
	}
}

static void put_zones(struct sb *b, const struct oomwatch_event *ev,
		      const struct zones_desc *z)
{
	sb_printf(b, ",\"zones\":[");
	for (__u32 i = 0; i < zones_nr(ev, z); i++)
		sb_printf(b, "%s{\"%s\":%llu,\"%s\":%llu}", i ? "," : "",
			  z->keys[0], (unsigned long long)zone_get(ev, z, i, 0),
			  z->keys[1], (unsigned long long)zone_get(ev, z, i, 1));
	sb_putc(b, ']');
}

/* What the decoder would refuse is never written: a round trip never fails. */
static bool encodable(const struct oomwatch_event *ev,
		      const struct type_desc *t, unsigned int version)
{
	if (version < t->since ||
	    (t->zones && zones_nr(ev, t->zones) > t->zones->max))
		return false;
	for (unsigned int i = 0; i < t->nfields; i++) {
		const struct field *f = &t->fields[i];

		if (f->kind == F_ENUM && f->max && get_u32(ev, f) > f->max)
			return false;
	}
	return true;
}

int ow_json_format_event(char *buf, size_t size, unsigned int version,
			 const struct oomwatch_event *ev)
{
	const struct type_desc *t = type_desc(ev->type);
	struct sb b;

	if (!version_known(version) || !t || !encodable(ev, t, version)) {
		errno = EINVAL;
		return -1;
	}
	sb_init(&b, buf, size);
	sb_printf(&b, "{\"v\":%u", version);
	for (size_t i = 0; i < ARRAY_SIZE(common_fields); i++)
		put_field(&b, ev, &common_fields[i]);
	sb_printf(&b, ",\"type\":\"%s\"", event_names[ev->type]);
	for (unsigned int i = 0; i < t->nfields; i++)
		if (in_version(&t->fields[i], version))
			put_field(&b, ev, &t->fields[i]);
	if (t->zones)
		put_zones(&b, ev, t->zones);
	sb_printf(&b, "}\n");
	return sb_finish(&b);
}

int ow_json_format_header(char *buf, size_t size, unsigned int version,
			  const struct ow_config *cfg, const char *kernel,
			  unsigned int kswapd_period_ms)
{
	struct sb b;

	if (!kernel)
		kernel = "";
	if (!version_known(version) || strlen(kernel) > OW_KERNEL_MAX) {
		errno = EINVAL;
		return -1;
	}
	sb_init(&b, buf, size);
	sb_printf(&b, "{\"v\":%u,\"type\":\"header\",\"tool\":\"oomwatch\","
		  "\"kernel\":", version);
	sb_str(&b, kernel, OW_KERNEL_MAX);
	sb_printf(&b, ",\"config\":{");
	for (size_t i = 0; i < ARRAY_SIZE(config_fields); i++) {
		int v;

		if (config_fields[i].since > version)
			continue;
		memcpy(&v, (const char *)cfg + config_fields[i].off, sizeof(v));
		sb_printf(&b, "%s\"%s\":", i ? "," : "", config_fields[i].name);
		if (v == OW_CONFIG_UNKNOWN)
			sb_printf(&b, "null");
		else
			sb_printf(&b, "%d", v);
	}
	sb_printf(&b, "},\"kswapd_period_ms\":%u}\n", kswapd_period_ms);
	return sb_finish(&b);
}

int ow_json_format_lost(char *buf, size_t size, unsigned int version,
			int cpu, long long count)
{
	struct sb b;

	if (!version_known(version) || count < 0) {
		errno = EINVAL;
		return -1;
	}
	sb_init(&b, buf, size);
	sb_printf(&b, "{\"v\":%u,\"type\":\"lost\",\"cpu\":%d,\"count\":%lld}\n",
		  version, cpu, count);
	return sb_finish(&b);
}

int ow_json_format_shed(char *buf, size_t size, unsigned int version,
			long long count)
{
	struct sb b;

	if (!version_known(version) || version < 5 || count < 0) {
		errno = EINVAL;
		return -1;
	}
	sb_init(&b, buf, size);
	sb_printf(&b, "{\"v\":%u,\"type\":\"shed\",\"count\":%lld}\n",
		  version, count);
	return sb_finish(&b);
}

/* The encoder refuses what the decoder would: a round trip never fails. */
int ow_json_format_memcg(char *buf, size_t size, unsigned int version,
			 __u64 memcg_id, const char *path)
{
	struct sb b;

	if (!version_known(version) || version < 2 || !memcg_id || !path ||
	    !ow_memcg_path_valid(path, strnlen(path, OW_MEMCG_PATH_MAX + 1))) {
		errno = EINVAL;
		return -1;
	}
	sb_init(&b, buf, size);
	sb_printf(&b, "{\"v\":%u,\"type\":\"memcg\",\"memcg_id\":%llu,"
		  "\"path\":", version, (unsigned long long)memcg_id);
	sb_str(&b, path, OW_MEMCG_PATH_MAX);
	sb_printf(&b, "}\n");
	return sb_finish(&b);
}

/* One fwrite per line, so a reader of a pipe never sees half a record. */
static int write_line(FILE *f, const char *buf, int len)
{
	if (len < 0)
		return -1;
	if (fwrite(buf, 1, len, f) != (size_t)len) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

int ow_json_write_header(FILE *f, unsigned int version,
			 const struct ow_config *cfg, const char *kernel,
			 unsigned int kswapd_period_ms)
{
	char buf[OW_LINE_MAX];

	return write_line(f, buf, ow_json_format_header(buf, sizeof(buf),
							version, cfg, kernel,
							kswapd_period_ms));
}

int ow_json_write_event(FILE *f, unsigned int version,
			const struct oomwatch_event *ev)
{
	char buf[OW_LINE_MAX];

	return write_line(f, buf, ow_json_format_event(buf, sizeof(buf),
						       version, ev));
}

int ow_json_write_lost_cpu(FILE *f, unsigned int version, int cpu,
			   long long count)
{
	char buf[OW_LINE_MAX];

	return write_line(f, buf, ow_json_format_lost(buf, sizeof(buf),
						      version, cpu, count));
}

int ow_json_write_lost(FILE *f, unsigned int version, long long count)
{
	return ow_json_write_lost_cpu(f, version, -1, count);
}

int ow_json_write_shed(FILE *f, unsigned int version, long long count)
{
	char buf[128];

	return write_line(f, buf, ow_json_format_shed(buf, sizeof(buf),
						      version, count));
}

int ow_json_write_memcg(FILE *f, unsigned int version, __u64 memcg_id,
			const char *path)
{
	char buf[OW_LINE_MAX];

	return write_line(f, buf, ow_json_format_memcg(buf, sizeof(buf),
						       version, memcg_id,
						       path));
}

/* ---------------------------------------------------------- JSON parser */

#define J_MAX_NODES	1024	/* values in one line; each takes >= 2 bytes */
#define J_MAX_DEPTH	16	/* objects and arrays inside each other */
#define J_NIL		0xffff
#define MSG_BYTES	40	/* longest quote of the input in a message */

_Static_assert(OW_LINE_MAX < J_NIL, "offsets are unsigned short");

enum jtype { J_NULL, J_TRUE, J_FALSE, J_NUM, J_STR, J_OBJ, J_ARR };

struct jnode {
	unsigned char type;
	unsigned char integer;		/* J_NUM: no fraction, no exponent */
	unsigned short key, key_len;	/* in an object: the decoded key */
	unsigned short off, len;	/* J_STR: decoded bytes; J_NUM: text */
	unsigned short child;		/* J_OBJ, J_ARR: first element */
	unsigned short next;		/* next element of the parent */
	unsigned short count;		/* J_OBJ, J_ARR: number of elements */
};

struct jparser {
	size_t len;
	size_t pos;
	unsigned int nnodes;
	bool failed;
	char *why;
	size_t whysize;
	char buf[OW_LINE_MAX];
	struct jnode node[J_MAX_NODES];
};

PRINTF(2, 3)
static int jfail(struct jparser *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->failed && p->why && p->whysize) {
		va_start(ap, fmt);
		vsnprintf(p->why, p->whysize, fmt, ap);
		va_end(ap);
	}
	p->failed = true;
	return -1;
}

/*
 * Quote input bytes in a message: printable ASCII as is, anything else as
 * \xNN, at most MSG_BYTES of them, so an error line stays one short line.
 */
static const char *msg_bytes(char *dst, size_t size, const char *s,
			     size_t len)
{
	struct sb b;

	sb_init(&b, dst, size);
	for (size_t i = 0; i < len && i < MSG_BYTES; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f)
			sb_putc(&b, c);
		else
			sb_printf(&b, "\\x%02x", c);
	}
	if (len > MSG_BYTES)
		sb_printf(&b, "...");
	return dst;
}

#define MSG_SIZE	(MSG_BYTES * 4 + 4)

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_delim(char c)
{
	return is_ws(c) || c == ',' || c == '}' || c == ']';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void skip_ws(struct jparser *p)
{
	while (p->pos < p->len && is_ws(p->buf[p->pos]))
		p->pos++;
}

static bool at(const struct jparser *p, char c)
{
	return p->pos < p->len && p->buf[p->pos] == c;
}

static int expected(struct jparser *p, const char *what)
{
	if (p->pos >= p->len)
		return jfail(p, "expected %s at end of line", what);
	return jfail(p, "expected %s at column %zu", what, p->pos + 1);
}

static int new_node(struct jparser *p, enum jtype type, unsigned short *idx)
{
	struct jnode *n;

	if (p->nnodes >= J_MAX_NODES)
		return jfail(p, "more than %d values in one line", J_MAX_NODES);
	*idx = p->nnodes++;
	n = &p->node[*idx];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->child = J_NIL;
	n->next = J_NIL;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int bad_escape(struct jparser *p, size_t bs, size_t len)
{
	char m[MSG_SIZE];

	if (bs + len > p->len)
		len = p->len - bs;
	return jfail(p, "bad escape \"%s\" at column %zu",
		     msg_bytes(m, sizeof(m), p->buf + bs, len), bs + 1);
}

/* p->pos is on a backslash; decode one escape into *out. */
static int parse_escape(struct jparser *p, unsigned char *out)
{
	static const char simple[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	size_t bs = p->pos;
	unsigned int v = 0;
	char c;

	if (bs + 1 >= p->len)
		return jfail(p, "unterminated string at end of line");
	c = p->buf[bs + 1];
	for (size_t i = 0; i + 1 < sizeof(simple); i += 2) {
		if (c == simple[i]) {
			*out = simple[i + 1];
			p->pos = bs + 2;
			return 0;
		}
	}
	if (c != 'u')
		return bad_escape(p, bs, 2);
	for (size_t i = 2; i < 6; i++) {
		int d = bs + i < p->len ? hex_digit(p->buf[bs + i]) : -1;

		if (d < 0)
			return bad_escape(p, bs, i + 1);
		v = v * 16 + d;
	}
	/* Strings are bytes: a code point above 0xff has no byte to be. */
	if (v > 0xff)
		return bad_escape(p, bs, 6);
	*out = v;
	p->pos = bs + 6;
	return 0;
}

/* Unescape in place: the write position never passes the read one. */
static int parse_string(struct jparser *p, unsigned short *off,
			unsigned short *len)
{
	size_t start, w;

	start = w = ++p->pos;
	for (;;) {
		unsigned char c;

		if (p->pos >= p->len)
			return jfail(p, "unterminated string at column %zu",
				     start);
		c = p->buf[p->pos];
		if (c == '"')
			break;
		if (c < 0x20)
			return jfail(p, "control byte 0x%02x in string at column %zu",
				     c, p->pos + 1);
		/* The format is ASCII: such a byte is written \u00XX. */
		if (c >= 0x80)
			return jfail(p, "byte 0x%02x in string at column %zu: not ASCII",
				     c, p->pos + 1);
		if (c == '\\') {
			if (parse_escape(p, &c))
				return -1;
		} else {
			p->pos++;
		}
		p->buf[w++] = c;
	}
	p->pos++;
	*off = start;
	*len = w - start;
	return 0;
}

static bool digits(const struct jparser *p, size_t *i)
{
	size_t s = *i;

	while (*i < p->len && is_digit(p->buf[*i]))
		(*i)++;
	return *i > s;
}

/* JSON number syntax; whether it fits a field is checked later. */
static int parse_number(struct jparser *p, struct jnode *n)
{
	size_t s = p->pos, i = s, e;
	char m[MSG_SIZE];

	n->integer = 1;
	if (i < p->len && p->buf[i] == '-')
		i++;
	if (i < p->len && p->buf[i] == '0')
		i++;
	else if (i >= p->len || p->buf[i] < '1' || p->buf[i] > '9' ||
		 !digits(p, &i))
		goto bad;
	if (i < p->len && p->buf[i] == '.') {
		i++;
		n->integer = 0;
		if (!digits(p, &i))
			goto bad;
	}
	if (i < p->len && (p->buf[i] == 'e' || p->buf[i] == 'E')) {
		i++;
		n->integer = 0;
		if (i < p->len && (p->buf[i] == '+' || p->buf[i] == '-'))
			i++;
		if (!digits(p, &i))
			goto bad;
	}
	if (i < p->len && !is_delim(p->buf[i]))
		goto bad;
	n->off = s;
	n->len = i - s;
	p->pos = i;
	return 0;
bad:
	for (e = s; e < p->len && !is_delim(p->buf[e]); e++)
		;
	return jfail(p, "bad number \"%s\" at column %zu",
		     msg_bytes(m, sizeof(m), p->buf + s, e - s), s + 1);
}

static int parse_literal(struct jparser *p, const char *word,
			 enum jtype type, unsigned short *idx)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->buf + p->pos, word, n))
		return jfail(p, "unexpected character '%c' at column %zu",
			     p->buf[p->pos], p->pos + 1);
	p->pos += n;
	return new_node(p, type, idx);
}

static unsigned short find_key(const struct jparser *p, unsigned short obj,
			       const char *key, size_t len)
{
	for (unsigned short c = p->node[obj].child; c != J_NIL;
	     c = p->node[c].next)
		if (p->node[c].key_len == len &&
		    !memcmp(p->buf + p->node[c].key, key, len))
			return c;
	return J_NIL;
}

static void append(struct jparser *p, unsigned short parent,
		   unsigned short *last, unsigned short child)
{
	if (*last == J_NIL)
		p->node[parent].child = child;
	else
		p->node[*last].next = child;
	*last = child;
	p->node[parent].count++;
}

static int parse_value(struct jparser *p, unsigned int depth,
		       unsigned short *idx);

static int parse_member(struct jparser *p, unsigned int depth,
			unsigned short obj, unsigned short *last)
{
	unsigned short koff, klen, val;
	char m[MSG_SIZE];

	skip_ws(p);
	if (!at(p, '"'))
		return expected(p, "a key");
	if (parse_string(p, &koff, &klen))
		return -1;
	if (find_key(p, obj, p->buf + koff, klen) != J_NIL)
		return jfail(p, "duplicate key \"%s\"",
			     msg_bytes(m, sizeof(m), p->buf + koff, klen));
	skip_ws(p);
	if (!at(p, ':'))
		return expected(p, "':'");
	p->pos++;
	if (parse_value(p, depth + 1, &val))
		return -1;
	p->node[val].key = koff;
	p->node[val].key_len = klen;
	append(p, obj, last, val);
	return 0;
}

/* Objects and arrays: the same loop, members or bare values inside. */
static int parse_container(struct jparser *p, unsigned int depth,
			   unsigned short *idx)
{
	bool obj = p->buf[p->pos] == '{';
	char close = obj ? '}' : ']';
	unsigned short self = J_NIL, last = J_NIL, val;

	if (depth >= J_MAX_DEPTH)
		return jfail(p, "nesting deeper than %d at column %zu",
			     J_MAX_DEPTH, p->pos + 1);
	if (new_node(p, obj ? J_OBJ : J_ARR, &self))
		return -1;
	p->pos++;
	skip_ws(p);
	if (at(p, close)) {
		p->pos++;
		*idx = self;
		return 0;
	}
	for (;;) {
		if (obj) {
			if (parse_member(p, depth, self, &last))
				return -1;
		} else {
			if (parse_value(p, depth + 1, &val))
				return -1;
			append(p, self, &last, val);
		}
		skip_ws(p);
		if (at(p, ',')) {
			p->pos++;
			continue;
		}
		if (at(p, close)) {
			p->pos++;
			break;
		}
		return expected(p, obj ? "',' or '}'" : "',' or ']'");
	}
	*idx = self;
	return 0;
}

static int parse_value(struct jparser *p, unsigned int depth,
		       unsigned short *idx)
{
	char c;

	skip_ws(p);
	if (p->pos >= p->len)
		return expected(p, "a value");
	c = p->buf[p->pos];
	switch (c) {
	case '{':
	case '[':
		return parse_container(p, depth, idx);
	case '"':
		if (new_node(p, J_STR, idx))
			return -1;
		return parse_string(p, &p->node[*idx].off, &p->node[*idx].len);
	case 't':
		return parse_literal(p, "true", J_TRUE, idx);
	case 'f':
		return parse_literal(p, "false", J_FALSE, idx);
	case 'n':
		return parse_literal(p, "null", J_NULL, idx);
	}
	if (c == '-' || is_digit(c)) {
		if (new_node(p, J_NUM, idx))
			return -1;
		return parse_number(p, &p->node[*idx]);
	}
	if (c >= 0x20 && c < 0x7f)
		return jfail(p, "unexpected character '%c' at column %zu", c,
			     p->pos + 1);
	return jfail(p, "unexpected byte 0x%02x at column %zu",
		     (unsigned char)c, p->pos + 1);
}

static int jparse(struct jparser *p, unsigned short *root)
{
	skip_ws(p);
	if (p->pos >= p->len)
		return jfail(p, "empty line");
	if (!at(p, '{'))
		return jfail(p, "not a JSON object");
	if (parse_container(p, 0, root))
		return -1;
	skip_ws(p);
	if (p->pos < p->len)
		return jfail(p, "trailing characters after the object at column %zu",
			     p->pos + 1);
	return 0;
}

/* ------------------------------------------------- tree -> C structures */

static const struct jnode *member(const struct jparser *p, unsigned short obj,
				  const char *name)
{
	unsigned short c = find_key(p, obj, name, strlen(name));

	return c == J_NIL ? NULL : &p->node[c];
}

static bool key_is(const struct jparser *p, const struct jnode *n,
		   const char *name)
{
	return n->key_len == strlen(name) &&
	       !memcmp(p->buf + n->key, name, n->key_len);
}

static const char *key_msg(const struct jparser *p, const struct jnode *n,
			   char *m, size_t size)
{
	return msg_bytes(m, size, p->buf + n->key, n->key_len);
}

/* Magnitude and sign of an integer's text; false when it overflows. */
static bool int_value(const struct jparser *p, const struct jnode *n,
		      bool *neg, __u64 *mag)
{
	const char *s = p->buf + n->off, *end = s + n->len;

	*neg = s < end && *s == '-';
	if (*neg)
		s++;
	*mag = 0;
	for (; s < end; s++) {
		unsigned int d = *s - '0';

		if (*mag > (UINT64_MAX - d) / 10)
			return false;
		*mag = *mag * 10 + d;
	}
	return true;
}

static int want_integer(struct jparser *p, const struct jnode *n,
			const char *name)
{
	char m[MSG_SIZE];

	if (n->type != J_NUM)
		return jfail(p, "field \"%s\": expected an integer", name);
	if (!n->integer)
		return jfail(p, "field \"%s\": bad number \"%s\" (not an integer)",
			     name, msg_bytes(m, sizeof(m), p->buf + n->off,
					     n->len));
	return 0;
}

static int out_of_range(struct jparser *p, const struct jnode *n,
			const char *name)
{
	char m[MSG_SIZE];

	return jfail(p, "field \"%s\": %s out of range", name,
		     msg_bytes(m, sizeof(m), p->buf + n->off, n->len));
}

static int to_u64(struct jparser *p, const struct jnode *n, const char *name,
		  __u64 max, __u64 *out)
{
	bool neg;
	__u64 mag;

	if (want_integer(p, n, name))
		return -1;
	if (!int_value(p, n, &neg, &mag) || (neg && mag) || mag > max)
		return out_of_range(p, n, name);
	*out = mag;
	return 0;
}

static int to_s64(struct jparser *p, const struct jnode *n, const char *name,
		  long long min, long long max, long long *out)
{
	bool neg;
	__u64 mag;

	if (want_integer(p, n, name))
		return -1;
	if (!int_value(p, n, &neg, &mag))
		return out_of_range(p, n, name);
	if (neg ? mag > (__u64)-(min + 1) + 1 : mag > (__u64)max)
		return out_of_range(p, n, name);
	/* -(mag - 1) - 1: -mag itself overflows for the minimum */
	*out = neg && mag ? -(long long)(mag - 1) - 1 : (long long)mag;
	return 0;
}

/* A string field into char[max]: no NUL inside, zero padded. */
static int to_bytes(struct jparser *p, const struct jnode *n, const char *name,
		    size_t max, char *dst)
{
	if (n->type != J_STR)
		return jfail(p, "field \"%s\": expected a string", name);
	if (n->len > max)
		return jfail(p, "field \"%s\": longer than %zu bytes", name,
			     max);
	if (memchr(p->buf + n->off, '\0', n->len))
		return jfail(p, "field \"%s\": NUL byte in string", name);
	memset(dst, 0, max);
	memcpy(dst, p->buf + n->off, n->len);
	return 0;
}

static int store_field(struct jparser *p, const struct jnode *n,
		       const struct field *f, struct oomwatch_event *ev)
{
	char *dst = (char *)ev + f->off;
	long long s;
	__u64 u;
	__u32 u32;
	__s32 s32;

	switch (f->kind) {
	case F_U32:
	case F_ENUM:
		if (to_u64(p, n, f->name, f->max ? f->max : UINT32_MAX, &u))
			return -1;
		u32 = u;
		memcpy(dst, &u32, sizeof(u32));
		return 0;
	case F_S32:
		if (to_s64(p, n, f->name, INT32_MIN, INT32_MAX, &s))
			return -1;
		s32 = s;
		memcpy(dst, &s32, sizeof(s32));
		return 0;
	case F_U64:
		if (to_u64(p, n, f->name, UINT64_MAX, &u))
			return -1;
		memcpy(dst, &u, sizeof(u));
		return 0;
	case F_COMM:
		return to_bytes(p, n, f->name, OOMWATCH_COMM_LEN, dst);
	}
	return -1;
}

static int find_field(const struct jparser *p, const struct jnode *n,
		      const struct field *tab, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		if (key_is(p, n, tab[i].name))
			return i;
	return -1;
}

/* An unknown key; one a later version added says which version has it. */
static int unknown_field(struct jparser *p, const struct jnode *n,
			 const struct type_desc *t, unsigned int type,
			 unsigned int version)
{
	int i = find_field(p, n, t->fields, t->nfields);
	char m[MSG_SIZE];

	if (i >= 0)
		return jfail(p, "unknown field \"%s\" in version %u %s event "
			     "(added in version %u)", t->fields[i].name,
			     version, event_names[type], t->fields[i].since);
	return jfail(p, "unknown field \"%s\" in %s event",
		     key_msg(p, n, m, sizeof(m)), event_names[type]);
}

/* Is n the "<enum>_name" companion of one of the enum fields of tab? */
static bool is_enum_name(const struct jparser *p, const struct jnode *n,
			 const struct field *tab, unsigned int nr)
{
	static const char suffix[] = "_name";
	const size_t sl = sizeof(suffix) - 1;

	for (unsigned int i = 0; i < nr; i++) {
		size_t l = strlen(tab[i].name);

		if (tab[i].kind == F_ENUM && n->key_len == l + sl &&
		    !memcmp(p->buf + n->key, tab[i].name, l) &&
		    !memcmp(p->buf + n->key + l, suffix, sl))
			return true;
	}
	return false;
}

static int missing(struct jparser *p, const char *name)
{
	return jfail(p, "field \"%s\" missing", name);
}

static int decode_zone(struct jparser *p, const struct jnode *z,
		       unsigned int i, const struct zones_desc *zd,
		       struct oomwatch_event *ev)
{
	const char *const *keys = zd->keys;
	unsigned int seen = 0;
	char name[48], m[MSG_SIZE];
	__u64 v;

	if (z->type != J_OBJ) {
		snprintf(name, sizeof(name), "zones[%u]", i);
		return jfail(p, "field \"%s\": expected an object", name);
	}
	for (unsigned short c = z->child; c != J_NIL; c = p->node[c].next) {
		const struct jnode *n = &p->node[c];
		unsigned int k = key_is(p, n, keys[0]) ? 0 : 1;

		if (!key_is(p, n, keys[k]))
			return jfail(p, "unknown field \"zones[%u].%s\"", i,
				     key_msg(p, n, m, sizeof(m)));
		snprintf(name, sizeof(name), "zones[%u].%.4s", i, keys[k]);
		if (to_u64(p, n, name, UINT64_MAX, &v))
			return -1;
		zone_set(ev, zd, i, k, v);
		seen |= 1u << k;
	}
	for (unsigned int k = 0; k < 2; k++) {
		if (!(seen & (1u << k))) {
			snprintf(name, sizeof(name), "zones[%u].%.4s", i, keys[k]);
			return missing(p, name);
		}
	}
	return 0;
}

static int decode_zones(struct jparser *p, const struct jnode *zones,
			const struct zones_desc *zd, struct oomwatch_event *ev)
{
	__u32 nr = zones_nr(ev, zd);
	unsigned int i = 0;

	if (!zones)
		return missing(p, "zones");
	if (nr > zd->max)
		return jfail(p, "field \"nr_zones\": %u out of range (at most %u)",
			     nr, zd->max);
	if (zones->type != J_ARR)
		return jfail(p, "field \"zones\": expected an array");
	if (zones->count != nr)
		return jfail(p, "field \"zones\": %u entries but nr_zones is %u",
			     zones->count, nr);
	for (unsigned short c = zones->child; c != J_NIL;
	     c = p->node[c].next, i++)
		if (decode_zone(p, &p->node[c], i, zd, ev))
			return -1;
	return 0;
}

static int decode_event(struct jparser *p, unsigned short root,
			unsigned int type, unsigned int version,
			struct oomwatch_event *ev)
{
	const struct type_desc *t = &types[type];
	const unsigned int nc = ARRAY_SIZE(common_fields);
	const struct jnode *zones = NULL;
	__u32 seen_common = 0, seen = 0;
	char m[MSG_SIZE];

	ev->type = type;
	for (unsigned short c = p->node[root].child; c != J_NIL;
	     c = p->node[c].next) {
		const struct jnode *n = &p->node[c];
		int i;

		if (key_is(p, n, "v") || key_is(p, n, "type"))
			continue;
		i = find_field(p, n, common_fields, nc);
		if (i >= 0) {
			if (store_field(p, n, &common_fields[i], ev))
				return -1;
			seen_common |= 1u << i;
			continue;
		}
		i = find_field(p, n, t->fields, t->nfields);
		if (i >= 0 && in_version(&t->fields[i], version)) {
			if (store_field(p, n, &t->fields[i], ev))
				return -1;
			seen |= 1u << i;
			continue;
		}
		if (is_enum_name(p, n, t->fields, t->nfields)) {
			if (n->type != J_STR)
				return jfail(p, "field \"%s\": expected a string",
					     key_msg(p, n, m, sizeof(m)));
			continue;
		}
		if (t->zones && key_is(p, n, "zones")) {
			zones = n;
			continue;
		}
		return unknown_field(p, n, t, type, version);
	}
	for (unsigned int i = 0; i < nc; i++)
		if (!(seen_common & (1u << i)))
			return missing(p, common_fields[i].name);
	for (unsigned int i = 0; i < t->nfields; i++)
		if (!(seen & (1u << i)) && in_version(&t->fields[i], version))
			return missing(p, t->fields[i].name);
	return t->zones ? decode_zones(p, zones, t->zones, ev) : 0;
}

/* The sysctls an older header does not carry stay unknown. */
static int decode_config(struct jparser *p, const struct jnode *obj,
			 unsigned int version, struct ow_config *cfg)
{
	const unsigned int nr = ARRAY_SIZE(config_fields);
	char name[64], m[MSG_SIZE];
	unsigned int seen = 0;

	ow_config_unknown(cfg);
	if (obj->type != J_OBJ)
		return jfail(p, "field \"config\": expected an object");
	for (unsigned short c = obj->child; c != J_NIL; c = p->node[c].next) {
		const struct jnode *n = &p->node[c];
		unsigned int i;
		long long v;
		int iv;

		for (i = 0; i < nr; i++)
			if (key_is(p, n, config_fields[i].name))
				break;
		if (i == nr)
			return jfail(p, "unknown field \"config.%s\"",
				     key_msg(p, n, m, sizeof(m)));
		if (config_fields[i].since > version)
			return jfail(p, "unknown field \"config.%s\" in a "
				     "version %u header (added in version %u)",
				     config_fields[i].name, version,
				     config_fields[i].since);
		snprintf(name, sizeof(name), "config.%.40s", config_fields[i].name);
		/* INT_MIN is how "unknown" is held: it is spelled null only. */
		if (n->type == J_NULL)
			v = OW_CONFIG_UNKNOWN;
		else if (to_s64(p, n, name, INT_MIN + 1LL, INT_MAX, &v))
			return -1;
		else if (v < config_fields[i].min || v > config_fields[i].max)
			return out_of_range(p, n, name);
		iv = v;
		memcpy((char *)cfg + config_fields[i].off, &iv, sizeof(iv));
		seen |= 1u << i;
	}
	for (unsigned int i = 0; i < nr; i++) {
		if (!(seen & (1u << i)) && config_fields[i].since <= version) {
			snprintf(name, sizeof(name), "config.%.40s",
				 config_fields[i].name);
			return missing(p, name);
		}
	}
	return 0;
}

static int decode_header(struct jparser *p, unsigned short root,
			 unsigned int version, struct ow_header *h)
{
	static const char *const keys[] = {
		"tool", "kernel", "config", "kswapd_period_ms",
	};
	const struct jnode *n[ARRAY_SIZE(keys)] = { NULL };
	char m[MSG_SIZE];
	__u64 u;

	for (unsigned short c = p->node[root].child; c != J_NIL;
	     c = p->node[c].next) {
		const struct jnode *k = &p->node[c];
		size_t i;

		if (key_is(p, k, "v") || key_is(p, k, "type"))
			continue;
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (key_is(p, k, keys[i]))
				break;
		if (i == ARRAY_SIZE(keys))
			return jfail(p, "unknown field \"%s\" in header",
				     key_msg(p, k, m, sizeof(m)));
		n[i] = k;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!n[i])
			return missing(p, keys[i]);
	if (n[0]->type != J_STR)
		return jfail(p, "field \"tool\": expected a string");
	if (n[0]->len != 8 || memcmp(p->buf + n[0]->off, "oomwatch", 8))
		return jfail(p, "not an oomwatch recording (tool \"%s\")",
			     msg_bytes(m, sizeof(m), p->buf + n[0]->off,
				       n[0]->len));
	if (to_bytes(p, n[1], "kernel", OW_KERNEL_MAX, h->kernel) ||
	    decode_config(p, n[2], version, &h->config) ||
	    to_u64(p, n[3], "kswapd_period_ms", UINT32_MAX, &u))
		return -1;
	h->kernel[OW_KERNEL_MAX] = '\0';
	h->kswapd_period_ms = u;
	return 0;
}

/*
 * The keys of a line that is not an event: each of names[0..n) once into
 * found[] (in the same order), "v" and "type" skipped, any other key an
 * error naming the record.  Every name is required.
 */
static int record_keys(struct jparser *p, unsigned short root,
		       const char *record, const char *const *names,
		       const struct jnode **found, size_t n)
{
	char m[MSG_SIZE];
	size_t i;

	for (i = 0; i < n; i++)
		found[i] = NULL;
	for (unsigned short c = p->node[root].child; c != J_NIL;
	     c = p->node[c].next) {
		const struct jnode *k = &p->node[c];

		if (key_is(p, k, "v") || key_is(p, k, "type"))
			continue;
		for (i = 0; i < n && !key_is(p, k, names[i]); i++)
			;
		if (i == n)
			return jfail(p, "unknown field \"%s\" in %s record",
				     key_msg(p, k, m, sizeof(m)), record);
		found[i] = k;
	}
	for (i = 0; i < n; i++)
		if (!found[i])
			return missing(p, names[i]);
	return 0;
}

static int decode_lost(struct jparser *p, unsigned short root,
		       struct ow_lost *l)
{
	static const char *const names[] = { "cpu", "count" };
	const struct jnode *k[2];
	long long v;

	if (record_keys(p, root, "lost", names, k, 2) ||
	    to_s64(p, k[0], "cpu", INT_MIN, INT_MAX, &v))
		return -1;
	l->cpu = v;
	return to_s64(p, k[1], "count", 0, LLONG_MAX, &l->count);
}

static int decode_shed(struct jparser *p, unsigned short root,
		       long long *count)
{
	static const char *const names[] = { "count" };
	const struct jnode *k[1];

	if (record_keys(p, root, "shed", names, k, 1))
		return -1;
	return to_s64(p, k[0], "count", 0, LLONG_MAX, count);
}

/*
 * A memcg line: its id, and its path from the cgroup2 root in the one
 * spelling ow_memcg_path_valid() allows.
 */
static int decode_memcg(struct jparser *p, unsigned short root,
			struct ow_memcg *mc)
{
	static const char *const names[] = { "memcg_id", "path" };
	const struct jnode *k[2], *id, *path;
	char m[MSG_SIZE];

	if (record_keys(p, root, "memcg", names, k, 2))
		return -1;
	id = k[0];
	path = k[1];
	if (to_u64(p, id, "memcg_id", UINT64_MAX, &mc->id))
		return -1;
	if (!mc->id)
		return out_of_range(p, id, "memcg_id");
	if (to_bytes(p, path, "path", OW_MEMCG_PATH_MAX, mc->path))
		return -1;
	if (!ow_memcg_path_valid(mc->path, path->len))
		return jfail(p, "field \"path\": \"%s\" is not a cgroup path "
			     "(\"/\" or \"/a/b\")",
			     msg_bytes(m, sizeof(m), mc->path, path->len));
	mc->path[path->len] = '\0';
	return 0;
}

static int check_version(struct jparser *p, unsigned short root,
			 unsigned int *version)
{
	const struct jnode *v = member(p, root, "v");
	char m[MSG_SIZE];
	bool neg;
	__u64 mag;

	if (!v)
		return missing(p, "v");
	if (want_integer(p, v, "v"))
		return -1;
	if (!int_value(p, v, &neg, &mag) || neg ||
	    mag < OW_FORMAT_VERSION_MIN || mag > OOMWATCH_FORMAT_VERSION)
		return jfail(p, "version %s not supported",
			     msg_bytes(m, sizeof(m), p->buf + v->off, v->len));
	*version = mag;
	return 0;
}

static bool bytes_are(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && !memcmp(s, word, len);
}

/* A line kind that came with format version since, in an older line. */
static int record_too_old(struct jparser *p, const char *kind,
			  unsigned int version, unsigned int since)
{
	if (version >= since)
		return 0;
	return jfail(p, "record type \"%s\" in a version %u line (added in "
		     "version %u)", kind, version, since);
}

static int decode_tree(struct jparser *p, unsigned short root,
		       struct ow_record *out)
{
	const struct jnode *t;
	const char *name;
	unsigned int type;
	char m[MSG_SIZE];

	if (check_version(p, root, &out->version))
		return -1;
	t = member(p, root, "type");
	if (!t)
		return missing(p, "type");
	if (t->type != J_STR)
		return jfail(p, "field \"type\": expected a string");
	name = p->buf + t->off;
	if (bytes_are(name, t->len, "header")) {
		out->kind = OW_REC_HEADER;
		return decode_header(p, root, out->version, &out->header);
	}
	if (bytes_are(name, t->len, "lost")) {
		out->kind = OW_REC_LOST;
		return decode_lost(p, root, &out->lost);
	}
	if (bytes_are(name, t->len, "summary")) {
		/* Written by newer tools too: any keys, syntax checked only. */
		out->kind = OW_REC_SUMMARY;
		return 0;
	}
	if (bytes_are(name, t->len, "memcg")) {
		if (record_too_old(p, "memcg", out->version, 2))
			return -1;
		out->kind = OW_REC_MEMCG;
		return decode_memcg(p, root, &out->memcg);
	}
	if (bytes_are(name, t->len, "shed")) {
		if (record_too_old(p, "shed", out->version, 5))
			return -1;
		out->kind = OW_REC_SHED;
		return decode_shed(p, root, &out->shed);
	}
	type = type_from_bytes(name, t->len);
	if (!type)
		return jfail(p, "unknown event type \"%s\"",
			     msg_bytes(m, sizeof(m), name, t->len));
	if (types[type].since > out->version)
		return jfail(p, "event type \"%s\" in a version %u line (added "
			     "in version %u)", event_names[type], out->version,
			     types[type].since);
	out->kind = OW_REC_EVENT;
	return decode_event(p, root, type, out->version, &out->event);
}

int ow_json_decode_line(const char *line, size_t len, struct ow_record *out,
			char *why, size_t whysize)
{
	struct jparser p;
	unsigned short root;

	memset(out, 0, sizeof(*out));
	p.len = len;
	p.pos = 0;
	p.nnodes = 0;
	p.failed = false;
	p.why = why;
	p.whysize = whysize;
	if (why && whysize)
		why[0] = '\0';
	if (len >= OW_LINE_MAX)
		return jfail(&p, "line longer than %d bytes", OW_LINE_MAX);
	memcpy(p.buf, line, len);
	if (jparse(&p, &root) || decode_tree(&p, root, out)) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- equality */

static bool fields_equal(const struct oomwatch_event *a,
			 const struct oomwatch_event *b,
			 const struct field *tab, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		const struct field *f = &tab[i];
		const char *ca, *cb;
		size_t la, lb;

		switch (f->kind) {
		case F_U32:
		case F_ENUM:
			if (get_u32(a, f) != get_u32(b, f))
				return false;
			break;
		case F_S32:
			if (get_s32(a, f) != get_s32(b, f))
				return false;
			break;
		case F_U64:
			if (get_u64(a, f) != get_u64(b, f))
				return false;
			break;
		case F_COMM:
			ca = get_comm(a, f);
			cb = get_comm(b, f);
			la = strnlen(ca, OOMWATCH_COMM_LEN);
			lb = strnlen(cb, OOMWATCH_COMM_LEN);
			if (la != lb || memcmp(ca, cb, la))
				return false;
			break;
		}
	}
	return true;
}

bool ow_event_equal(const struct oomwatch_event *a,
		    const struct oomwatch_event *b)
{
	const struct type_desc *t = type_desc(a->type);

	if (a->type != b->type ||
	    !fields_equal(a, b, common_fields, ARRAY_SIZE(common_fields)))
		return false;
	if (!t)
		return true;
	if (!fields_equal(a, b, t->fields, t->nfields))
		return false;
	if (t->zones) {
		for (__u32 i = 0; i < zones_nr(a, t->zones) &&
				  i < t->zones->max; i++)
			for (unsigned int k = 0; k < 2; k++)
				if (zone_get(a, t->zones, i, k) !=
				    zone_get(b, t->zones, i, k))
					return false;
	}
	return true;
}

/* --------------------------------------------------------------- reader */

void ow_reader_init(struct ow_reader *r, FILE *f, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->name = name ? name : "-";
}

const char *ow_reader_error(const struct ow_reader *r)
{
	return r->error;
}

PRINTF(3, 4)
static int reader_fail(struct ow_reader *r, unsigned long line,
		       const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->error, sizeof(r->error), "%s:%lu: ", r->name, line);
	if (n >= 0 && (size_t)n < sizeof(r->error)) {
		va_start(ap, fmt);
		vsnprintf(r->error + n, sizeof(r->error) - n, fmt, ap);
		va_end(ap);
	}
	r->failed = true;
	return -1;
}

int ow_reader_next(struct ow_reader *r, struct ow_record *out)
{
	unsigned long line = r->line + 1;
	char why[OW_ERR_MAX];
	size_t len = 0;
	int c;

	if (r->failed)
		return -1;
	if (r->eof)
		return 0;
	/* Byte by byte: a NUL in the input must not end the line early. */
	while ((c = getc(r->f)) != EOF && c != '\n') {
		if (len == sizeof(r->buf) - 1)
			return reader_fail(r, line, "line longer than %d bytes",
					   OW_LINE_MAX);
		r->buf[len++] = (char)c;
	}
	if (c == EOF) {
		if (ferror(r->f))
			return reader_fail(r, line, "read error: %s",
					   strerror(errno));
		if (len == 0) {
			r->eof = true;
			return 0;
		}
		return reader_fail(r, line,
				   "truncated line (no newline at end of file)");
	}
	r->line = line;
	if (r->summary_seen)
		return reader_fail(r, line, "line after the summary (summary must be the last line)");
	if (ow_json_decode_line(r->buf, len, out, why, sizeof(why)))
		return reader_fail(r, line, "%s", why);
	/* One version per file: a writer writes the version of its source. */
	if (r->version && out->version != r->version)
		return reader_fail(r, line, "version %u line after version %u "
				   "lines (a recording has one version)",
				   out->version, r->version);
	r->version = out->version;
	if (out->kind == OW_REC_HEADER) {
		if (line != 1)
			return reader_fail(r, line,
					   "header must be the first line");
		r->header_seen = true;
	}
	if (out->kind == OW_REC_SUMMARY)
		r->summary_seen = true;
	return 1;
}
