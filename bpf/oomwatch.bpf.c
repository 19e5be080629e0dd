// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: stream every OOM decision of the patched kernel, and the
 * stock events around it, into one ring buffer.
 *
 * BTF-typed tracepoints (tp_btf) throughout: the arguments arrive as the
 * kernel's own types, so no field offsets are hard-coded.  The victim is
 * taken from oom:mark_victim, not from a kprobe on oom_kill_process(),
 * which misses the task_will_free_mem() shortcut and every member of a
 * memory.oom.group after the first.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "oomwatch_records.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * About 11400 records of 184 bytes.  1 MB overflowed once in make test's
 * 32-task oom-storm guest (153 records lost in one burst, the consumer
 * awake and keeping up otherwise): twice that costs 1 MB more of locked
 * memory in the guest, and record_whole is a promise.  Capacity alone
 * does not keep it: see RB_SHED_BYTES.
 */
#define RB_SIZE		(1 << 21)

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RB_SIZE);
} events SEC(".maps");

/* The ring's size as loaded (oomwatch --ring-size sets both). */
const volatile __u64 rb_size = RB_SIZE;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, OW_NR_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/*
 * Which out_of_memory() a thread is inside (its struct oom_control): set
 * at entry, read by the kill, which out_of_memory() makes after it has
 * worked out the constraint.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} oom_context SEC(".maps");

/* Victims whose exit we want to see (tgid -> 1). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} victims SEC(".maps");

__u64 next_seq = 0;

static __always_inline void count(__u32 which)
{
	__u64 *val = bpf_map_lookup_elem(&counters, &which);

	if (val)
		*val += 1;
}

/*
 * Context records: the allocator's retries, direct reclaim and kswapd's
 * wake and sleep say what led to a decision, but no rule of the checker
 * reads them, and in an OOM storm they are nearly all the traffic: 14,400
 * of 14,650 records in 0.3 s in make test's 32-task oom-storm guest, at
 * 4.5 us each in BPF against about 40 us each for oomwatch to decode,
 * check and write under TCG.  No ring is big enough for that: that run
 * lost 2966 records, decisions among them, and the checker rightly
 * called the recording broken.  So once half the ring is unread, context
 * records are shed: counted, not written, and given no sequence number,
 * so that the decisions keep the other half and the recording stays
 * whole for every rule.
 */
#define RB_SHED_BYTES	(rb_size / 2)

static __always_inline bool sheddable(__u32 type)
{
	switch (type) {
	case OW_RECLAIM_RETRY_ZONE:
	case OW_KSWAPD_WAKE:
	case OW_KSWAPD_SLEEP:
	case OW_DIRECT_BEGIN:
	case OW_DIRECT_END:
		return true;
	}
	return false;
}

/*
 * Reserve a record and fill its common header; NULL when the ring is full
 * (counted as dropped, its sequence number taken: the gap shows where) or
 * a context record is shed (counted as shed, no sequence number).
 */
static __always_inline struct oomwatch_event *reserve(__u32 type)
{
	struct oomwatch_event *e;
	__u64 id = bpf_get_current_pid_tgid();

	if (sheddable(type) &&
	    bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= RB_SHED_BYTES) {
		count(OW_CNT_SHED);
		return NULL;
	}
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		/* The sequence number is still taken: the gap shows where. */
		__sync_fetch_and_add(&next_seq, 1);
		count(OW_CNT_DROPPED);
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->seq = __sync_fetch_and_add(&next_seq, 1);
	e->ts_ns = bpf_ktime_get_ns();
	e->type = type;
	e->cpu = bpf_get_smp_processor_id();
	e->pid = (__u32)id;
	e->tgid = id >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	return e;
}

/*
 * When to wake oomwatch.  A wakeup per record (the ring buffer's adaptive
 * default: whenever the consumer has caught up) was most of oomwatch's
 * cost: about 1100 wakeups in a 10 s update run, about 180 us each under
 * TCG, 2.6% of a CPU (oomwatch --cost, README).  Now only what a reader
 * wants to see at once wakes it: a decision (a verdict, a kill, a
 * fallback, a node's state changing) or a ring filling up; the rest is
 * collected at its next poll, at most POLL_MS (100 ms) later.  Forced,
 * not adaptive: with records left unconsumed on purpose the consumer is
 * behind, and an adaptive wakeup would never come.
 *
 * The fill mark is low (about 450 records, 1/32 of the ring) so that in
 * an OOM storm, where the producers are no longer slowed by a wakeup per
 * record, the consumer starts draining long before the ring is full: a
 * quarter (session 7, 1 MB ring) lost 319 records in oom-storm.
 */
#define RB_WAKE_BYTES	(rb_size / 32)

static __always_inline bool wake_now(__u32 type)
{
	switch (type) {
	case OW_MARK_VICTIM:
	case OW_TASK_EXIT:
	case OW_UNRECLAIMABLE_SET:
	case OW_UNRECLAIMABLE_CLEAR:
	case OW_OOM_VETO:
	case OW_OOM_GRANT:
	case OW_OOM_FALLBACK:
	case OW_THRASHING_SET:
	case OW_THRASHING_CLEAR:
	case OW_THRASH_GRANT:
	case OW_THRASH_TAKE:
		return true;
	}
	return false;
}

static __always_inline void submit(struct oomwatch_event *e)
{
	__u64 flags = BPF_RB_NO_WAKEUP;

	if (wake_now(e->type) ||
	    bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= RB_WAKE_BYTES)
		flags = BPF_RB_FORCE_WAKEUP;
	bpf_ringbuf_submit(e, flags);
	count(OW_CNT_EMITTED);
}

static __always_inline __u64 memcg_id_of(struct task_struct *task)
{
	struct cgroup_subsys_state *css;

	css = BPF_CORE_READ(task, cgroups, subsys[memory_cgrp_id]);
	if (!css)
		return 0;
	return BPF_CORE_READ(css, cgroup, kn, id);
}

static __always_inline __u64 rss_kb(struct mm_struct *mm, int member)
{
	long pages = BPF_CORE_READ(mm, rss_stat.count[member].counter);

	return pages < 0 ? 0 : (__u64)pages * 4;
}

SEC("kprobe/out_of_memory")
int BPF_KPROBE(out_of_memory_entry, struct oom_control *oc)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 ptr = (__u64)oc;

	bpf_map_update_elem(&oom_context, &tid, &ptr, BPF_ANY);
	return 0;
}

/*
 * The OOM killer's own verdict, oc->constraint (constrained_alloc()), is
 * what tells a cpuset's OOM from a global one: a cpuset confines the
 * allocation zone by zone and leaves oc->nodemask NULL.
 */
static __always_inline __u32 constraint_of(struct oom_control *oc)
{
	int c;

	if (BPF_CORE_READ(oc, memcg))
		return OW_CONSTRAINT_MEMCG;
	if (BPF_CORE_READ(oc, order) == -1)
		return OW_CONSTRAINT_SYSRQ;
	c = BPF_CORE_READ(oc, constraint);
	if (c == bpf_core_enum_value(enum oom_constraint, CONSTRAINT_CPUSET) ||
	    c == bpf_core_enum_value(enum oom_constraint,
				     CONSTRAINT_MEMORY_POLICY))
		return OW_CONSTRAINT_NODEMASK;
	return OW_CONSTRAINT_GLOBAL;
}

SEC("kretprobe/out_of_memory")
int BPF_KRETPROBE(out_of_memory_exit)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	bpf_map_delete_elem(&oom_context, &tid);
	return 0;
}

SEC("tp_btf/mark_victim")
int BPF_PROG(mark_victim, struct task_struct *task, uid_t uid)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct oomwatch_event *e;
	struct mm_struct *mm;
	__u32 tgid, one = 1;
	__u64 *oc;

	tgid = BPF_CORE_READ(task, tgid);
	e = reserve(OW_MARK_VICTIM);
	if (!e)
		return 0;
	oc = bpf_map_lookup_elem(&oom_context, &tid);
	e->victim.constraint = oc ? constraint_of((struct oom_control *)*oc) :
				    OW_CONSTRAINT_UNKNOWN;
	e->victim.pid = BPF_CORE_READ(task, pid);
	e->victim.uid = uid;
	e->victim.oom_score_adj = BPF_CORE_READ(task, signal, oom_score_adj);
	mm = BPF_CORE_READ(task, mm);
	if (mm) {
		e->victim.total_vm_kb = BPF_CORE_READ(mm, total_vm) * 4;
		e->victim.anon_rss_kb = rss_kb(mm, MM_ANONPAGES);
		e->victim.file_rss_kb = rss_kb(mm, MM_FILEPAGES);
		e->victim.shmem_rss_kb = rss_kb(mm, MM_SHMEMPAGES);
	}
	e->victim.memcg_id = memcg_id_of(task);
	BPF_CORE_READ_STR_INTO(&e->victim.comm, task, comm);
	submit(e);
	bpf_map_update_elem(&victims, &tgid, &one, BPF_ANY);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(task_exit, struct task_struct *task)
{
	__u32 tgid = BPF_CORE_READ(task, tgid);
	__u32 pid = BPF_CORE_READ(task, pid);
	struct oomwatch_event *e;

	/* Only a victim's last thread matters to the checker. */
	if (pid != tgid || !bpf_map_lookup_elem(&victims, &tgid))
		return 0;
	bpf_map_delete_elem(&victims, &tgid);
	e = reserve(OW_TASK_EXIT);
	if (!e)
		return 0;
	e->exit.pid = pid;
	e->exit.tgid = tgid;
	submit(e);
	return 0;
}

SEC("tp_btf/reclaim_retry_zone")
int BPF_PROG(reclaim_retry_zone, struct zoneref *zref, int order,
	     unsigned long reclaimable, unsigned long available,
	     unsigned long min_wmark, int no_progress_loops, bool wmark_check)
{
	struct oomwatch_event *e = reserve(OW_RECLAIM_RETRY_ZONE);
	struct zone *zone;

	if (!e)
		return 0;
	zone = BPF_CORE_READ(zref, zone);
	e->retry.nid = BPF_CORE_READ(zone, zone_pgdat, node_id);
	e->retry.zone_idx = BPF_CORE_READ(zref, zone_idx);
	e->retry.order = order;
	e->retry.reclaimable = reclaimable;
	e->retry.available = available;
	e->retry.min_wmark = min_wmark;
	e->retry.no_progress_loops = no_progress_loops;
	e->retry.wmark_check = wmark_check;
	submit(e);
	return 0;
}

static __always_inline int reaper_event(__u32 type, int pid)
{
	struct oomwatch_event *e = reserve(type);

	if (!e)
		return 0;
	e->reaper.pid = pid;
	submit(e);
	return 0;
}

SEC("tp_btf/wake_reaper")
int BPF_PROG(wake_reaper, int pid)
{
	return reaper_event(OW_WAKE_REAPER, pid);
}

SEC("tp_btf/finish_task_reaping")
int BPF_PROG(finish_task_reaping, int pid)
{
	return reaper_event(OW_FINISH_REAPING, pid);
}

SEC("tp_btf/mm_vmscan_kswapd_wake")
int BPF_PROG(kswapd_wake, int nid, int zid, int order)
{
	struct oomwatch_event *e = reserve(OW_KSWAPD_WAKE);

	if (!e)
		return 0;
	e->kswapd.nid = nid;
	e->kswapd.zid = zid;
	e->kswapd.order = order;
	submit(e);
	return 0;
}

SEC("tp_btf/mm_vmscan_kswapd_sleep")
int BPF_PROG(kswapd_sleep, int nid)
{
	struct oomwatch_event *e = reserve(OW_KSWAPD_SLEEP);

	if (!e)
		return 0;
	e->kswapd.nid = nid;
	e->kswapd.zid = -1;
	submit(e);
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(direct_reclaim_begin, int order, gfp_t gfp_flags)
{
	struct oomwatch_event *e;

	e = reserve(OW_DIRECT_BEGIN);
	if (!e)
		return 0;
	e->direct.order = order;
	e->direct.gfp_flags = gfp_flags;
	submit(e);
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(direct_reclaim_end, unsigned long nr_reclaimed)
{
	struct oomwatch_event *e;

	e = reserve(OW_DIRECT_END);
	if (!e)
		return 0;
	e->direct.nr_reclaimed = nr_reclaimed;
	submit(e);
	return 0;
}

/* The patched kernel's own trace system, "oomwatch". */

SEC("tp_btf/unreclaimable_set")
int BPF_PROG(unreclaimable_set, int nid, int failures)
{
	struct oomwatch_event *e = reserve(OW_UNRECLAIMABLE_SET);

	if (!e)
		return 0;
	e->unrecl.nid = nid;
	e->unrecl.failures = failures;
	submit(e);
	return 0;
}

SEC("tp_btf/unreclaimable_clear")
int BPF_PROG(unreclaimable_clear, int nid, unsigned int duration_ms,
	     int reason)
{
	struct oomwatch_event *e = reserve(OW_UNRECLAIMABLE_CLEAR);

	if (!e)
		return 0;
	e->unrecl.nid = nid;
	e->unrecl.duration_ms = duration_ms;
	e->unrecl.reason = reason;
	submit(e);
	return 0;
}

static __always_inline int token_event(__u32 type, pid_t tgid,
				       const char *comm, pid_t prev, int reason)
{
	struct oomwatch_event *e = reserve(type);

	if (!e)
		return 0;
	e->token.tgid = tgid;
	e->token.prev_tgid = prev;
	e->token.reason = reason;
	bpf_probe_read_kernel_str(e->token.holder_comm,
				  sizeof(e->token.holder_comm), comm);
	submit(e);
	return 0;
}

SEC("tp_btf/swap_token_grab")
int BPF_PROG(swap_token_grab, pid_t tgid, const char *comm, pid_t prev_tgid,
	     int reason)
{
	return token_event(OW_TOKEN_GRAB, tgid, comm, prev_tgid, reason);
}

SEC("tp_btf/swap_token_release")
int BPF_PROG(swap_token_release, pid_t tgid, const char *comm, int reason)
{
	return token_event(OW_TOKEN_RELEASE, tgid, comm, 0, reason);
}

static __always_inline int token_pass(__u32 type, pid_t reclaimer,
				      pid_t holder, int nid, int priority,
				      unsigned long nr_folios)
{
	struct oomwatch_event *e = reserve(type);

	if (!e)
		return 0;
	e->token_pass.reclaimer = reclaimer;
	e->token_pass.holder_tgid = holder;
	e->token_pass.nid = nid;
	e->token_pass.priority = priority;
	e->token_pass.nr_folios = nr_folios;
	submit(e);
	return 0;
}

SEC("tp_btf/swap_token_kept")
int BPF_PROG(swap_token_kept, pid_t reclaimer, pid_t holder_tgid, int nid,
	     int priority, unsigned long nr_folios)
{
	return token_pass(OW_TOKEN_KEPT, reclaimer, holder_tgid, nid, priority,
			  nr_folios);
}

SEC("tp_btf/swap_token_bypass")
int BPF_PROG(swap_token_bypass, pid_t reclaimer, pid_t holder_tgid, int nid,
	     int priority, unsigned long nr_folios)
{
	return token_pass(OW_TOKEN_BYPASS, reclaimer, holder_tgid, nid,
			  priority, nr_folios);
}

/*
 * The arbiter's evidence, read with CO-RE relocations against the
 * kernel's struct oom_arbiter_snapshot: only the fields used are named.
 */
struct oom_arbiter_zone___ow {
	unsigned long free;
	unsigned long min;
} __attribute__((preserve_access_index));

struct oom_arbiter_snapshot___ow {
	unsigned int unreclaimable_ms;
	unsigned long low_reclaimed;
	unsigned int looping;
	int nr_zones;
	struct oom_arbiter_zone___ow zone[3];
} __attribute__((preserve_access_index));

SEC("tp_btf/oom_request")
int BPF_PROG(oom_request, pid_t pid, const char *comm, int nid, int order,
	     gfp_t gfp_flags)
{
	struct oomwatch_event *e = reserve(OW_OOM_REQUEST);

	if (!e)
		return 0;
	e->request.pid = pid;
	e->request.nid = nid;
	e->request.order = order;
	e->request.gfp_flags = gfp_flags;
	bpf_probe_read_kernel_str(e->request.comm, sizeof(e->request.comm),
				  comm);
	/*
	 * The tracepoint fires in the allocating task's own context: its
	 * memcg is read here, where a recording keeps it, rather than from
	 * /proc later, which only a live run could do (and only while the
	 * task still exists).
	 */
	e->request.memcg_id = memcg_id_of(bpf_get_current_task_btf());
	submit(e);
	return 0;
}

static __always_inline int verdict_event(__u32 type, pid_t pid, int nid,
					 int reason, unsigned int waited_ms)
{
	struct oomwatch_event *e = reserve(type);

	if (!e)
		return 0;
	e->request.pid = pid;
	e->request.nid = nid;
	e->request.reason = reason;
	e->request.waited_ms = waited_ms;
	submit(e);
	return 0;
}

SEC("tp_btf/oom_defer")
int BPF_PROG(oom_defer, pid_t pid, int nid, int reason)
{
	return verdict_event(OW_OOM_DEFER, pid, nid, reason, 0);
}

SEC("tp_btf/oom_veto")
int BPF_PROG(oom_veto, pid_t pid, int nid, int reason)
{
	return verdict_event(OW_OOM_VETO, pid, nid, reason, 0);
}

SEC("tp_btf/oom_fallback")
int BPF_PROG(oom_fallback, pid_t pid, int nid, unsigned int waited_ms,
	     int reason)
{
	return verdict_event(OW_OOM_FALLBACK, pid, nid, reason, waited_ms);
}

SEC("tp_btf/oom_grant")
int BPF_PROG(oom_grant, int nid, pid_t pid,
	     struct oom_arbiter_snapshot___ow *snap)
{
	struct oomwatch_event *e = reserve(OW_OOM_GRANT);
	int i, n;

	if (!e)
		return 0;
	e->grant.nid = nid;
	e->grant.pid = pid;
	e->grant.unreclaimable_ms = BPF_CORE_READ(snap, unreclaimable_ms);
	e->grant.looping = BPF_CORE_READ(snap, looping);
	e->grant.low_reclaimed = BPF_CORE_READ(snap, low_reclaimed);
	n = BPF_CORE_READ(snap, nr_zones);
	if (n > 3)
		n = 3;
	e->grant.nr_zones = n < 0 ? 0 : n;
	for (i = 0; i < 3; i++) {
		if (i >= n)
			break;
		e->grant.zone[i].free = BPF_CORE_READ(snap, zone[i].free);
		e->grant.zone[i].min = BPF_CORE_READ(snap, zone[i].min);
	}
	submit(e);
	return 0;
}

/*
 * The thrash rule (a later patch of the series than the arbiter): an
 * older series or a stock kernel lacks these tracepoints, and oomwatch
 * then leaves the programs unloaded (preflight.c: optional).
 */

/*
 * The thrash rule's evidence, read with CO-RE relocations against the
 * kernel's struct oom_arbiter_thrash_snapshot: only the fields used are
 * named.  Its zone[] elements are an anonymous struct: a relocation
 * rooted at a local element type would find no kernel type of that name
 * and poison the program, so every zone is read with a constant index,
 * from the snapshot itself (snap->zone[0].free, ...), never zone[i].
 */
struct oom_arbiter_thrash_snapshot___ow {
	unsigned int thrashing_ms;
	unsigned long swap_free;
	unsigned long swap_total;
	unsigned long refaulted;
	unsigned long faulted;
	unsigned long near;
	unsigned long reclaimed;
	unsigned long anon;
	unsigned int window_ms;
	int nr_zones;
	struct {
		unsigned long free;
		unsigned long high;
	} zone[OOMWATCH_THRASH_ZONES];
} __attribute__((preserve_access_index));

static __always_inline int
thrash_event(__u32 type, int nid, unsigned int duration_ms,
	     struct oom_arbiter_thrash_snapshot___ow *snap, int reason)
{
	struct oomwatch_event *e = reserve(type);

	if (!e)
		return 0;
	e->thrash.nid = nid;
	e->thrash.duration_ms = duration_ms;
	e->thrash.refaulted = BPF_CORE_READ(snap, refaulted);
	e->thrash.faulted = BPF_CORE_READ(snap, faulted);
	e->thrash.near = BPF_CORE_READ(snap, near);
	e->thrash.reclaimed = BPF_CORE_READ(snap, reclaimed);
	e->thrash.anon = BPF_CORE_READ(snap, anon);
	e->thrash.window_ms = BPF_CORE_READ(snap, window_ms);
	e->thrash.reason = reason;
	submit(e);
	return 0;
}

SEC("tp_btf/thrashing_set")
int BPF_PROG(thrashing_set, int nid,
	     struct oom_arbiter_thrash_snapshot___ow *snap)
{
	return thrash_event(OW_THRASHING_SET, nid, 0, snap, 0);
}

SEC("tp_btf/thrashing_clear")
int BPF_PROG(thrashing_clear, int nid, unsigned int duration_ms,
	     struct oom_arbiter_thrash_snapshot___ow *snap, int reason)
{
	return thrash_event(OW_THRASHING_CLEAR, nid, duration_ms, snap,
			    reason);
}

#define THRASH_ZONE(e, snap, n, i)					\
	do {								\
		if ((n) > (i)) {					\
			(e)->thrash_grant.zone[i].free =		\
				BPF_CORE_READ(snap, zone[i].free);	\
			(e)->thrash_grant.zone[i].high =		\
				BPF_CORE_READ(snap, zone[i].high);	\
		}							\
	} while (0)

SEC("tp_btf/oom_thrash_grant")
int BPF_PROG(oom_thrash_grant, int nid,
	     struct oom_arbiter_thrash_snapshot___ow *snap)
{
	struct oomwatch_event *e = reserve(OW_THRASH_GRANT);
	int n;

	if (!e)
		return 0;
	e->thrash_grant.nid = nid;
	e->thrash_grant.thrashing_ms = BPF_CORE_READ(snap, thrashing_ms);
	e->thrash_grant.refaulted = BPF_CORE_READ(snap, refaulted);
	e->thrash_grant.faulted = BPF_CORE_READ(snap, faulted);
	e->thrash_grant.near = BPF_CORE_READ(snap, near);
	e->thrash_grant.reclaimed = BPF_CORE_READ(snap, reclaimed);
	e->thrash_grant.anon = BPF_CORE_READ(snap, anon);
	e->thrash_grant.window_ms = BPF_CORE_READ(snap, window_ms);
	e->thrash_grant.swap_free = BPF_CORE_READ(snap, swap_free);
	e->thrash_grant.swap_total = BPF_CORE_READ(snap, swap_total);
	n = BPF_CORE_READ(snap, nr_zones);
	if (n > OOMWATCH_THRASH_ZONES)
		n = OOMWATCH_THRASH_ZONES;
	e->thrash_grant.nr_zones = n < 0 ? 0 : n;
	THRASH_ZONE(e, snap, n, 0);
	THRASH_ZONE(e, snap, n, 1);
	THRASH_ZONE(e, snap, n, 2);
	submit(e);
	return 0;
}

SEC("tp_btf/oom_thrash_take")
int BPF_PROG(oom_thrash_take, pid_t pid, const char *comm, int nid,
	     int order, gfp_t gfp_flags)
{
	struct oomwatch_event *e = reserve(OW_THRASH_TAKE);

	if (!e)
		return 0;
	e->take.pid = pid;
	e->take.nid = nid;
	e->take.order = order;
	e->take.gfp_flags = gfp_flags;
	bpf_probe_read_kernel_str(e->take.comm, sizeof(e->take.comm), comm);
	/*
	 * The allocating task takes the grant itself, in its own context:
	 * its memcg is read here, as for oom_request, so that -c can place
	 * the take on a replay.
	 */
	e->take.memcg_id = memcg_id_of(bpf_get_current_task_btf());
	submit(e);
	return 0;
}
