// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: checks before loading; preflight.h says which and why.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "preflight.h"

/* system, tracepoint, program, ours, optional */
const struct ow_tracepoint ow_tracepoints[] = {
	{ "oom", "mark_victim", "mark_victim", false, false },
	{ "sched", "sched_process_exit", "task_exit", false, false },
	{ "oom", "reclaim_retry_zone", "reclaim_retry_zone", false, false },
	{ "oom", "wake_reaper", "wake_reaper", false, false },
	{ "oom", "finish_task_reaping", "finish_task_reaping", false, false },
	{ "vmscan", "mm_vmscan_kswapd_wake", "kswapd_wake", false, false },
	{ "vmscan", "mm_vmscan_kswapd_sleep", "kswapd_sleep", false, false },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", "direct_reclaim_begin",
	  false, false },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", "direct_reclaim_end",
	  false, false },
	{ "oomwatch", "unreclaimable_set", "unreclaimable_set", true, false },
	{ "oomwatch", "unreclaimable_clear", "unreclaimable_clear", true,
	  false },
	{ "oomwatch", "swap_token_grab", "swap_token_grab", true, false },
	{ "oomwatch", "swap_token_release", "swap_token_release", true,
	  false },
	{ "oomwatch", "swap_token_kept", "swap_token_kept", true, false },
	{ "oomwatch", "swap_token_bypass", "swap_token_bypass", true, false },
	{ "oomwatch", "oom_request", "oom_request", true, false },
	{ "oomwatch", "oom_defer", "oom_defer", true, false },
	{ "oomwatch", "oom_veto", "oom_veto", true, false },
	{ "oomwatch", "oom_grant", "oom_grant", true, false },
	{ "oomwatch", "oom_fallback", "oom_fallback", true, false },
	/* the thrash rule: a later patch of the series */
	{ "oomwatch", "thrashing_set", "thrashing_set", true, true },
	{ "oomwatch", "thrashing_clear", "thrashing_clear", true, true },
	{ "oomwatch", "oom_thrash_grant", "oom_thrash_grant", true, true },
	{ "oomwatch", "oom_thrash_take", "oom_thrash_take", true, true },
};

#define NR_TP	(sizeof(ow_tracepoints) / sizeof(ow_tracepoints[0]))
_Static_assert(NR_TP <= OW_MAX_TRACEPOINTS, "disabled[] too small");

const size_t ow_nr_tracepoints = NR_TP;

int ow_caps_parse(const char *status, unsigned long long *capeff)
{
	const char *p = status;
	char *end;

	while (p && strncmp(p, "CapEff:", 7)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return -1;
	p += 7;
	*capeff = strtoull(p, &end, 16);
	return end == p || (*end && *end != '\n') ? -1 : 0;
}

void ow_sys_read_caps(struct ow_sys *sys)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen("/proc/self/status", "r");

	sys->euid = geteuid();
	sys->caps_known = false;
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	sys->caps_known = !ow_caps_parse(buf, &sys->capeff);
}

static bool has_cap(unsigned long long caps, int cap)
{
	return caps & (1ULL << cap);
}

static int check_caps(const struct ow_sys *sys, FILE *err)
{
	unsigned long long c = sys->capeff;

	/* Unreadable: let the loader's own error speak. */
	if (!sys->caps_known || has_cap(c, OW_CAP_SYS_ADMIN) ||
	    (has_cap(c, OW_CAP_BPF) && has_cap(c, OW_CAP_PERFMON)))
		return 0;
	fprintf(err, "oomwatch: loading the BPF programs needs CAP_BPF and "
		"CAP_PERFMON, or CAP_SYS_ADMIN; this process has %s\n",
		has_cap(c, OW_CAP_BPF) ? "CAP_BPF only" :
		has_cap(c, OW_CAP_PERFMON) ? "CAP_PERFMON only" : "none of them");
	if (sys->euid)
		fprintf(err, "oomwatch: not running as root (euid %u): run it "
			"as root, e.g. with sudo, or grant the capabilities "
			"(setcap cap_bpf,cap_perfmon+ep oomwatch)\n", sys->euid);
	fprintf(err, "oomwatch: --replay FILE needs no privileges\n");
	return OW_EXIT_SETUP;
}

static int check_btf(const struct ow_sys *sys, FILE *err)
{
	if (!sys->btf_present) {
		fprintf(err, "oomwatch: %s is missing: this kernel has no BTF; "
			"oomwatch needs a kernel built with CONFIG_DEBUG_INFO_BTF=y "
			"(the oomwatch guest kernel has it)\n", sys->btf_path);
		return OW_EXIT_SETUP;
	}
	if (!sys->has_type) {
		fprintf(err, "oomwatch: %s: cannot parse the kernel's BTF\n",
			sys->btf_path);
		return OW_EXIT_SETUP;
	}
	return 0;
}

static bool tp_present(const struct ow_sys *sys, const struct ow_tracepoint *t)
{
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", t->name);
	return sys->has_type(sys->ctx, name);
}

/* "oomwatch:oom_grant, oomwatch:oom_veto" for one kind of missing. */
static unsigned int list_missing(FILE *err, const bool *missing, bool ours)
{
	unsigned int n = 0;

	for (size_t i = 0; i < ow_nr_tracepoints; i++) {
		if (!missing[i] || ow_tracepoints[i].ours != ours)
			continue;
		fprintf(err, "%s%s:%s", n ? ", " : "", ow_tracepoints[i].system,
			ow_tracepoints[i].name);
		n++;
	}
	return n;
}

static unsigned int count_missing(const bool *missing, bool ours)
{
	unsigned int n = 0;

	for (size_t i = 0; i < ow_nr_tracepoints; i++)
		n += missing[i] && ow_tracepoints[i].ours == ours;
	return n;
}

/* Only optional ones are missing: a series from before the thrash rule. */
static bool only_optional(const bool *missing)
{
	for (size_t i = 0; i < ow_nr_tracepoints; i++)
		if (missing[i] && !ow_tracepoints[i].optional)
			return false;
	return true;
}

/*
 * A kernel of the series from before its thrash rule: said, and the run
 * goes on without those programs, --tolerate-missing or not; oomwatch
 * reads those kernels' recordings as well.
 */
static void say_optional(FILE *err, const bool *missing, unsigned int n)
{
	fprintf(err, "oomwatch: this kernel lacks %u tracepoint%s of the "
		"oomwatch kernel series' thrash rule (a later patch): ", n,
		n == 1 ? "" : "s");
	list_missing(err, missing, true);
	fprintf(err, "\noomwatch: running without %s: thrashing and thrash "
		"grants will not be seen\n", n == 1 ? "it" : "them");
}

static int check_tracepoints(const struct ow_sys *sys, bool tolerate,
			     FILE *err, bool *missing)
{
	unsigned int stock, ours;

	for (size_t i = 0; i < ow_nr_tracepoints; i++)
		missing[i] = !tp_present(sys, &ow_tracepoints[i]);
	stock = count_missing(missing, false);
	ours = count_missing(missing, true);
	if (ours && !stock && only_optional(missing)) {
		say_optional(err, missing, ours);
		return 0;
	}
	if (stock) {
		fprintf(err, "oomwatch: this kernel lacks %u stock tracepoint%s "
			"oomwatch always needs: ", stock, stock == 1 ? "" : "s");
		list_missing(err, missing, false);
		fprintf(err, "\n");
	}
	if (ours && (!tolerate || stock)) {
		fprintf(err, "oomwatch: this kernel lacks %u tracepoint%s of the "
			"oomwatch kernel series: ", ours, ours == 1 ? "" : "s");
		list_missing(err, missing, true);
		/* One line: a service's journal shows it as the reason. */
		fprintf(err, "; boot the oomwatch-patched kernel (patches/), "
			"or run with --tolerate-missing to watch the stock "
			"events only\n");
	}
	if (stock || (ours && !tolerate))
		return OW_EXIT_MISSING_TP;
	if (ours) {
		fprintf(err, "oomwatch: --tolerate-missing: not watching %u "
			"tracepoint%s this kernel lacks (", ours,
			ours == 1 ? "" : "s");
		list_missing(err, missing, true);
		fprintf(err, "); the arbiter's, the token's and the thrash "
			"rule's decisions will not be seen\n");
	}
	return 0;
}

int ow_preflight(const struct ow_sys *sys, bool tolerate_missing, FILE *err,
		 bool *disabled)
{
	int ret;

	memset(disabled, 0, ow_nr_tracepoints * sizeof(*disabled));
	ret = check_caps(sys, err);
	if (!ret)
		ret = check_btf(sys, err);
	if (!ret)
		ret = check_tracepoints(sys, tolerate_missing, err, disabled);
	return ret;
}
