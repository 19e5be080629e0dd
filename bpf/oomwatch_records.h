/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: the event record shared by oomwatch.bpf.c and user space.
 *
 * One record per tracepoint hit, written into one BPF ring buffer.  Every
 * record carries a global sequence number taken with an atomic add in BPF,
 * so user space can order events from different CPUs totally even when
 * their timestamps tie.  Fields are integers and names only: no kernel
 * addresses ever leave the kernel.
 *
 * Units: times in nanoseconds (CLOCK_MONOTONIC, bpf_ktime_get_ns) unless
 * the name ends in _ms; memory in pages unless the name ends in _kb.
 */
#ifndef __OOMWATCH_H
#define __OOMWATCH_H

#define OOMWATCH_COMM_LEN	16
#define OOMWATCH_MAX_ZONES	4	/* ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, spare */
#define OOMWATCH_THRASH_ZONES	3	/* the thrash snapshot's zone[3] */

/*
 * Bumped whenever a field is added or changes meaning; written into every
 * JSON line.  2: oom_request carries the requester's memcg_id, and
 * "memcg" lines name memcg ids by cgroup path.  3: the thrash rule's four
 * events and its two sysctls in the header (docs/trace-format.md).  4: the
 * thrash windows and grants carry what the rule judges: the refaults read
 * by page faults ("faulted"), those within a kill's reach ("near"), the
 * node's anonymous pages; the grant its window's length.  5: "shed" lines
 * count the context records the BPF side did not write while its ring
 * was half full (oomwatch.bpf.c, RB_SHED_BYTES).
 */
#define OOMWATCH_FORMAT_VERSION	5

enum oomwatch_event_type {
	/* Existing kernel tracepoints */
	OW_MARK_VICTIM = 1,		/* oom:mark_victim */
	OW_RECLAIM_RETRY_ZONE,		/* oom:reclaim_retry_zone */
	OW_WAKE_REAPER,			/* oom:wake_reaper */
	OW_FINISH_REAPING,		/* oom:finish_task_reaping */
	OW_KSWAPD_WAKE,			/* vmscan:mm_vmscan_kswapd_wake */
	OW_KSWAPD_SLEEP,		/* vmscan:mm_vmscan_kswapd_sleep */
	OW_DIRECT_BEGIN,		/* vmscan:mm_vmscan_direct_reclaim_begin */
	OW_DIRECT_END,			/* vmscan:mm_vmscan_direct_reclaim_end */
	/* The patched kernel's trace system "oomwatch" */
	OW_UNRECLAIMABLE_SET,		/* oomwatch:unreclaimable_set */
	OW_UNRECLAIMABLE_CLEAR,		/* oomwatch:unreclaimable_clear */
	OW_TOKEN_GRAB,			/* oomwatch:swap_token_grab */
	OW_TOKEN_RELEASE,		/* oomwatch:swap_token_release */
	OW_TOKEN_BYPASS,		/* oomwatch:swap_token_bypass */
	OW_TOKEN_KEPT,			/* oomwatch:swap_token_kept */
	OW_OOM_REQUEST,			/* oomwatch:oom_request */
	OW_OOM_DEFER,			/* oomwatch:oom_defer */
	OW_OOM_VETO,			/* oomwatch:oom_veto */
	OW_OOM_GRANT,			/* oomwatch:oom_grant */
	OW_OOM_FALLBACK,		/* oomwatch:oom_fallback */
	OW_TASK_EXIT,			/* sched:sched_process_exit, victims only */
	/* The thrash rule (a later patch of the series; format version 3) */
	OW_THRASHING_SET,		/* oomwatch:thrashing_set */
	OW_THRASHING_CLEAR,		/* oomwatch:thrashing_clear */
	OW_THRASH_GRANT,		/* oomwatch:oom_thrash_grant */
	OW_THRASH_TAKE,			/* oomwatch:oom_thrash_take */
	OW_NR_TYPES,
};

/* Why a node's unreclaimable state ended (oomwatch:unreclaimable_clear). */
enum oomwatch_clear_reason {
	OW_CLEAR_PROGRESS = 0,	/* a reclaim pass reclaimed pages from the node */
	OW_CLEAR_FREED = 1,	/* pages were freed: the node is balanced again */
	OW_CLEAR_TIMEOUT = 2,	/* vm.oom_unreclaimable_timeout_ms ran out */
};

/* Why a node stopped thrashing (oomwatch:thrashing_clear). */
enum oomwatch_thrash_clear_reason {
	OW_THRASH_CALM = 0,	/* a 1 s window of reclaim did not thrash */
	OW_THRASH_DISABLED = 1,	/* vm.oom_arbiter_thrash was switched */
	OW_THRASH_CLEAR_MAX = OW_THRASH_DISABLED,
};

/* Why the token moved (grab/release). */
enum oomwatch_token_reason {
	OW_TOKEN_FREE = 0,	/* grab: nobody held it */
	OW_TOKEN_EXPIRED = 1,	/* grab: the holder's time ran out; release: idem */
	OW_TOKEN_IDLE = 2,	/* release: holder stopped faulting */
	OW_TOKEN_EXIT = 3,	/* release: holder's mm went away */
	OW_TOKEN_DISABLED = 4,	/* release: vm.swap_token set to 0 */
};

/*
 * Which condition of the arbiter's rule failed (oom_defer), or why the
 * request's own context does not qualify (oom_veto).
 */
enum oomwatch_verdict_reason {
	OW_RULE_OK = 0,
	OW_RULE_NOT_UNRECLAIMABLE = 1,	/* node not unreclaimable */
	OW_RULE_TOO_SOON = 2,		/* unreclaimable < timeout */
	OW_RULE_NO_FULL_SCAN = 3,	/* no full scan since it was set */
	OW_RULE_PROGRESS = 4,		/* that scan reclaimed low-zone pages */
	OW_RULE_ABOVE_MIN = 5,		/* a low zone is above its min mark */
	OW_RULE_NOBODY_LOOPING = 6,	/* no task is waiting on an OOM */
	OW_RULE_EPISODE_OPEN = 7,	/* a victim of this episode still lives */
	OW_VETO_ALLOC_OK = 8,		/* the request's retry now succeeds */
	OW_VETO_NOT_QUALIFIED = 9,	/* fallback: stock semantics apply
					 * (kernels before the reasons 11-14) */
	OW_VETO_RECOVERED = 10,		/* reclaim made progress: retry */
	OW_STOCK_DYING = 11,		/* fallback: the task is dying (killed,
					 * exiting, an OOM victim) */
	OW_STOCK_NOFAIL = 12,		/* fallback: __GFP_NOFAIL */
	OW_STOCK_NOFS = 13,		/* fallback: no __GFP_FS (NOFS, NOIO) */
	OW_STOCK_DISABLED = 14,		/* fallback: vm.oom_arbiter set to 0 */
	OW_STOCK_FREEZING = 15,		/* fallback: the freezer wants the task
					 * (suspend, hibernation) */
	/*
	 * The thrash rule's conditions: in the kernel's enum, not traced
	 * today (no event carries them yet); named for completeness.
	 */
	OW_THRASH_NOT_THRASHING = 16,	/* the node is not thrashing */
	OW_THRASH_SWAP_FREE = 17,	/* swap could still help */
	OW_THRASH_ABOVE_HIGH = 18,	/* a low zone is above its high mark */
	OW_STOCK_NO_RELIEF = 19,	/* fallback, thrash rule on: no swap
					 * and no I/O in flight can relieve
					 * the node, so no wait */
	OW_THRASH_NO_VICTIM = 20,	/* veto: a thrash grant found nobody
					 * to kill, and is dropped */
};

/* Which out_of_memory() the victim came from (seen at its entry). */
enum oomwatch_constraint {
	OW_CONSTRAINT_GLOBAL = 0,	/* page allocator, whole machine/node */
	OW_CONSTRAINT_MEMCG = 1,	/* a memory cgroup's limit */
	OW_CONSTRAINT_SYSRQ = 2,	/* sysrq-f: forced, order -1 */
	OW_CONSTRAINT_UNKNOWN = 3,	/* no out_of_memory() entry seen */
	OW_CONSTRAINT_NODEMASK = 4,	/* page allocator, bound to a nodemask
					 * (MPOL_BIND, cpuset) */
};

struct ow_zone_evidence {
	__u64 free;
	__u64 min;
};

/* A low zone as the thrash rule saw it: usable free pages, high + reserve. */
struct ow_thrash_zone {
	__u64 free;
	__u64 high;
};

struct oomwatch_event {
	__u64 seq;		/* global order, from 0, no gaps unless lost */
	__u64 ts_ns;		/* bpf_ktime_get_ns() */
	__u32 type;		/* enum oomwatch_event_type */
	__u32 cpu;
	__u32 pid;		/* current thread */
	__u32 tgid;		/* current process */
	char comm[OOMWATCH_COMM_LEN];	/* current */
	union {
		struct {
			__u32 pid;	/* victim */
			__u32 uid;
			__s32 oom_score_adj;
			__u32 constraint;	/* enum oomwatch_constraint */
			__u64 total_vm_kb;
			__u64 anon_rss_kb;
			__u64 file_rss_kb;
			__u64 shmem_rss_kb;
			__u64 memcg_id;	/* victim's memcg cgroup id, 0 if none */
			char comm[OOMWATCH_COMM_LEN];
		} victim;
		struct {
			__s32 nid;
			__s32 zone_idx;
			__s32 order;
			__s32 no_progress_loops;
			__u64 reclaimable;
			__u64 available;
			__u64 min_wmark;
			__u32 wmark_check;
		} retry;
		struct {
			__u32 pid;	/* wake_reaper / finish_task_reaping */
		} reaper;
		struct {
			__s32 nid;
			__s32 zid;
			__s32 order;
		} kswapd;
		struct {
			__s32 order;
			__u32 gfp_flags;
			__u64 nr_reclaimed;	/* direct_end only */
		} direct;
		struct {
			__s32 nid;
			__u32 reason;		/* clear: enum oomwatch_clear_reason */
			__u32 failures;		/* set: kswapd_failures */
			__u32 duration_ms;	/* clear: how long it was set */
		} unrecl;
		struct {
			__u32 tgid;		/* new / released holder */
			__u32 prev_tgid;	/* grab: previous holder, 0 none */
			__u32 reason;		/* enum oomwatch_token_reason */
			__u32 pad;
			char holder_comm[OOMWATCH_COMM_LEN];
		} token;
		struct {
			__u32 reclaimer;	/* bypass: reclaiming pid */
			__u32 holder_tgid;
			__s32 nid;
			__s32 priority;
			__u64 nr_folios;	/* bypass: would have been protected;
						 * kept: protected in this pass */
		} token_pass;
		struct {
			__u32 pid;		/* the allocating task */
			__s32 nid;		/* its preferred node */
			__s32 order;
			__u32 gfp_flags;
			__u32 reason;		/* defer/veto: verdict_reason */
			__u32 waited_ms;	/* fallback */
			char comm[OOMWATCH_COMM_LEN];
			__u64 memcg_id;		/* oom_request: the requester's
						 * memcg cgroup id, 0 if none */
		} request;
		struct {
			__s32 nid;
			__u32 pid;		/* request granted */
			__u32 unreclaimable_ms;
			__u32 looping;		/* tasks waiting on an OOM */
			__u64 low_reclaimed;	/* in the last full scan */
			__u32 nr_zones;		/* valid entries in zone[] */
			__u32 pad;
			struct ow_zone_evidence zone[OOMWATCH_MAX_ZONES];
		} grant;
		struct {
			__u32 pid;
			__u32 tgid;
		} exit;
		struct {
			__s32 nid;
			__u32 reason;		/* clear: thrash_clear_reason */
			__u32 duration_ms;	/* clear: since the set */
			__u32 window_ms;	/* the window judged */
			__u64 refaulted;	/* its file refaults */
			__u64 reclaimed;	/* pages global reclaim took */
			__u64 faulted;		/* refaults read by a fault (v4) */
			__u64 near;		/* of those, within a kill's
						 * reach: what the rule judges */
			__u64 anon;		/* the node's anon pages */
		} thrash;
		struct {
			__s32 nid;
			__u32 thrashing_ms;	/* since the set or the node's
						 * last thrash grant */
			__u64 refaulted;	/* in the last window */
			__u64 reclaimed;
			__u64 faulted;		/* as for thrash (v4) */
			__u64 near;
			__u64 anon;
			__u32 window_ms;	/* the last window's length */
			__u32 pad2;
			__u64 swap_free;	/* pages */
			__u64 swap_total;
			__u32 nr_zones;		/* valid entries in zone[] */
			__u32 pad;
			struct ow_thrash_zone zone[OOMWATCH_THRASH_ZONES];
		} thrash_grant;
		struct {
			__u32 pid;		/* the allocating task */
			__s32 nid;		/* the node whose grant it took */
			__s32 order;
			__u32 gfp_flags;
			char comm[OOMWATCH_COMM_LEN];
			__u64 memcg_id;		/* its memcg cgroup id, 0 if none */
		} take;
	};
};

/* Counters the BPF side keeps per CPU; user space sums them. */
enum oomwatch_counter {
	OW_CNT_EMITTED = 0,	/* records committed to the ring buffer */
	OW_CNT_DROPPED = 1,	/* bpf_ringbuf_reserve() failed */
	OW_CNT_SHED = 2,	/* context records not written: ring half full */
	OW_NR_COUNTERS,
};

#endif /* __OOMWATCH_H */
