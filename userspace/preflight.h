/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: what live tracing needs, checked before anything is loaded,
 * so that each missing piece gets its own clear message:
 *
 *   privileges   CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN, effective
 *                (from /proc/self/status CapEff)
 *   BTF          /sys/kernel/btf/vmlinux: tp_btf programs and CO-RE
 *   tracepoints  each program's tracepoint, probed through the kernel
 *                BTF's btf_trace_<name> typedef, which exists exactly
 *                when the tracepoint does.  That probe is reliable on 6.1
 *                with libbpf 1.1; libbpf_probe_bpf_prog_type() for
 *                BPF_PROG_TYPE_TRACING is not.  The stock ones are
 *                required; ours are required unless --tolerate-missing,
 *                except the thrash rule's (optional): a later patch of
 *                the series, so a kernel of an older series lacks them.
 *                Missing optional ones are said and left unloaded, and
 *                the run goes on without them.
 *
 * No libbpf here: the caller hands in how to look a type up, so the host
 * tests can run every path with a fake kernel.
 */
#ifndef OW_PREFLIGHT_H
#define OW_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define OW_CAP_SYS_ADMIN	21
#define OW_CAP_PERFMON		38
#define OW_CAP_BPF		39

/* One BPF program and the tracepoint it attaches to. */
struct ow_tracepoint {
	const char *system;	/* "oom", "vmscan", "sched", "oomwatch" */
	const char *name;	/* tracepoint, and the btf_trace_ suffix */
	const char *prog;	/* program name in oomwatch.bpf.c */
	bool ours;		/* comes with the patched kernel only */
	bool optional;		/* ours, from a later patch: never fatal */
};

#define OW_MAX_TRACEPOINTS	32	/* size of a caller's disabled[] */

extern const struct ow_tracepoint ow_tracepoints[];
extern const size_t ow_nr_tracepoints;

/* What the preflight looks at; the live tool fills it from the system. */
struct ow_sys {
	bool caps_known;		/* false: could not read them */
	unsigned long long capeff;
	unsigned int euid;
	const char *btf_path;		/* /sys/kernel/btf/vmlinux */
	bool btf_present;		/* the file is there */
	/* NULL when the BTF could not be parsed */
	bool (*has_type)(void *ctx, const char *typedef_name);
	void *ctx;
};

/* Parse "CapEff:\t000001ffffffffff" out of /proc/self/status text. */
int ow_caps_parse(const char *status, unsigned long long *capeff);
/* Fill caps_known, capeff and euid from this process. */
void ow_sys_read_caps(struct ow_sys *sys);

/*
 * Check everything; messages on err.  disabled[i] (OW_MAX_TRACEPOINTS
 * entries) is set for each program to leave out (missing tracepoint,
 * tolerated).  Returns OW_EXIT_OK, OW_EXIT_SETUP or OW_EXIT_MISSING_TP.
 */
int ow_preflight(const struct ow_sys *sys, bool tolerate_missing, FILE *err,
		 bool *disabled);

#endif /* OW_PREFLIGHT_H */
