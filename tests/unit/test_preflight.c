// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Preflight checks with a fake kernel: capabilities, BTF, tracepoints.
 * Each error must say what is missing and what to do, and choose the
 * documented exit status; --tolerate-missing must leave out exactly the
 * patched kernel's programs; a series from before the thrash rule runs
 * without it, and says so.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "preflight.h"

#include "proc.h"
#include "tap.h"

#define CAP(n)		(1ULL << (n))
#define ALL_CAPS	0x1ffffffffffULL

/*
 * The fake kernel's BTF: "stock" has no oomwatch:*, "none" nothing,
 * "older" the series before its thrash rule, "old" a stock kernel
 * without oom:mark_victim.
 */
static bool fake_has(void *ctx, const char *name)
{
	const char *kind = ctx;

	if (strncmp(name, "btf_trace_", 10))
		return false;
	if (!strcmp(kind, "patched"))
		return true;
	if (!strcmp(kind, "none"))
		return false;
	for (size_t i = 0; i < ow_nr_tracepoints; i++) {
		const struct ow_tracepoint *t = &ow_tracepoints[i];

		if (strcmp(name + 10, t->name))
			continue;
		if (!strcmp(kind, "older"))
			return !t->optional;
		return !t->ours && (strcmp(kind, "old") ||
				    strcmp(t->name, "mark_victim"));
	}
	return false;
}

static struct ow_sys sys_of(unsigned long long caps, unsigned int euid,
			    const char *kernel)
{
	struct ow_sys s = {
		.caps_known = true, .capeff = caps, .euid = euid,
		.btf_path = "/sys/kernel/btf/vmlinux", .btf_present = true,
		.has_type = fake_has, .ctx = (void *)kernel,
	};
	return s;
}

struct run {
	int ret;
	char *msg;
	bool disabled[OW_MAX_TRACEPOINTS];
};

static void run(const struct ow_sys *s, bool tolerate, struct run *r)
{
	size_t len = 0;
	FILE *f = open_memstream(&r->msg, &len);

	r->ret = ow_preflight(s, tolerate, f, r->disabled);
	fclose(f);
}

static bool has(const struct run *r, const char *text)
{
	if (strstr(r->msg, text))
		return true;
	tap_diag("no \"%s\" in: %s", text, r->msg);
	return false;
}

static void test_caps(void)
{
	unsigned long long c = 0;
	struct ow_sys s;
	struct run r;

	tap_ok(!ow_caps_parse("Name:\tx\nCapInh:\t0\nCapEff:\t000001fffeffffff\n"
			      "CapBnd:\t0\n", &c) && c == 0x1fffeffffffULL &&
	       ow_caps_parse("Name:\tx\n", &c) == -1 &&
	       ow_caps_parse("CapEff:\tzz\n", &c) == -1,
	       "caps: CapEff parsed from /proc/self/status text");

	s = sys_of(0, 1000, "patched");
	run(&s, false, &r);
	tap_ok(r.ret == OW_EXIT_SETUP && has(&r, "needs CAP_BPF and CAP_PERFMON, "
	       "or CAP_SYS_ADMIN") && has(&r, "has none of them") &&
	       has(&r, "not running as root (euid 1000)") &&
	       has(&r, "--replay FILE needs no privileges"),
	       "not root: exit 1, says which capabilities and how");
	free(r.msg);

	s = sys_of(CAP(OW_CAP_BPF), 0, "patched");
	run(&s, false, &r);
	tap_ok(r.ret == OW_EXIT_SETUP && has(&r, "has CAP_BPF only") &&
	       !strstr(r.msg, "not running as root"),
	       "root without CAP_PERFMON (a container): exit 1, names it");
	free(r.msg);

	s = sys_of(CAP(OW_CAP_BPF) | CAP(OW_CAP_PERFMON), 1000, "patched");
	run(&s, false, &r);
	tap_ok(r.ret == 0 && !r.msg[0],
	       "CAP_BPF + CAP_PERFMON without root is enough");
	free(r.msg);

	s = sys_of(CAP(OW_CAP_SYS_ADMIN), 0, "patched");
	run(&s, false, &r);
	tap_ok(r.ret == 0, "CAP_SYS_ADMIN is enough");
	free(r.msg);

	s = sys_of(0, 1000, "patched");
	s.caps_known = false;
	run(&s, false, &r);
	tap_ok(r.ret == 0, "unreadable capabilities: left to the loader");
	free(r.msg);
}

static void test_btf(void)
{
	struct ow_sys s = sys_of(ALL_CAPS, 0, "patched");
	struct run r;

	s.btf_present = false;
	s.has_type = NULL;
	run(&s, false, &r);
	tap_ok(r.ret == OW_EXIT_SETUP &&
	       has(&r, "/sys/kernel/btf/vmlinux is missing") &&
	       has(&r, "CONFIG_DEBUG_INFO_BTF=y"),
	       "no BTF: exit 1, names the file and the config option");
	free(r.msg);

	s.btf_present = true;
	run(&s, false, &r);
	tap_ok(r.ret == OW_EXIT_SETUP && has(&r, "cannot parse the kernel's BTF"),
	       "unparsable BTF: exit 1");
	free(r.msg);
}

static void test_tracepoints(void)
{
	struct ow_sys s = sys_of(ALL_CAPS, 0, "patched");
	size_t ours = 0, right = 0;
	struct run r;

	run(&s, false, &r);
	tap_ok(r.ret == 0 && !r.msg[0], "patched kernel: every tracepoint found");
	free(r.msg);

	s.ctx = "stock";
	run(&s, false, &r);
	tap_ok(r.ret == OW_EXIT_MISSING_TP &&
	       has(&r, "lacks 15 tracepoints of the oomwatch kernel series: "
		   "oomwatch:unreclaimable_set, oomwatch:unreclaimable_clear,") &&
	       has(&r, "oomwatch:oom_grant, oomwatch:oom_fallback, "
		   "oomwatch:thrashing_set, oomwatch:thrashing_clear, "
		   "oomwatch:oom_thrash_grant, oomwatch:oom_thrash_take; boot "
		   "the oomwatch-patched kernel") &&
	       has(&r, "--tolerate-missing") &&
	       strchr(r.msg, '\n') == r.msg + strlen(r.msg) - 1,
	       "stock kernel: exit 3, one line: the missing ones, the fix, "
	       "the option");
	free(r.msg);

	run(&s, true, &r);
	for (size_t i = 0; i < ow_nr_tracepoints; i++) {
		ours += ow_tracepoints[i].ours;
		right += r.disabled[i] == ow_tracepoints[i].ours;
	}
	tap_ok(r.ret == 0 && ours == 15 && right == ow_nr_tracepoints &&
	       has(&r, "--tolerate-missing: not watching 15 tracepoints") &&
	       has(&r, "the thrash rule's decisions will not be seen"),
	       "stock kernel, --tolerate-missing: runs without exactly ours");
	free(r.msg);

	/* The series before its thrash rule: runs, -M or not, and says so. */
	s.ctx = "older";
	for (int tolerate = 0; tolerate <= 1; tolerate++) {
		size_t optional = 0;

		run(&s, tolerate, &r);
		right = 0;
		for (size_t i = 0; i < ow_nr_tracepoints; i++) {
			optional += ow_tracepoints[i].optional;
			right += r.disabled[i] == ow_tracepoints[i].optional;
		}
		tap_ok(r.ret == 0 && optional == 4 &&
		       right == ow_nr_tracepoints &&
		       has(&r, "lacks 4 tracepoints of the oomwatch kernel "
			   "series' thrash rule (a later patch): "
			   "oomwatch:thrashing_set, oomwatch:thrashing_clear, "
			   "oomwatch:oom_thrash_grant, oomwatch:oom_thrash_take\n"
			   "oomwatch: running without them: thrashing and "
			   "thrash grants will not be seen\n") &&
		       !strstr(r.msg, "boot the oomwatch-patched kernel") &&
		       !strstr(r.msg, "--tolerate-missing"),
		       "series before the thrash rule%s: runs without exactly "
		       "its four programs, names them", tolerate ? ", -M" : "");
		free(r.msg);
	}

	/* An optional tracepoint is one of ours, never a stock one. */
	right = 0;
	for (size_t i = 0; i < ow_nr_tracepoints; i++)
		right += !ow_tracepoints[i].optional ||
			 (ow_tracepoints[i].ours &&
			  !strcmp(ow_tracepoints[i].system, "oomwatch"));
	tap_ok(right == ow_nr_tracepoints, "optional tracepoints are ours");

	s.ctx = "old";
	run(&s, true, &r);
	tap_ok(r.ret == OW_EXIT_MISSING_TP &&
	       has(&r, "lacks 1 stock tracepoint oomwatch always needs: "
		   "oom:mark_victim"),
	       "a stock tracepoint missing: exit 3 even with --tolerate-missing");
	free(r.msg);

	s.ctx = "none";
	s.capeff = 0;
	s.euid = 1000;
	run(&s, false, &r);
	tap_ok(r.ret == OW_EXIT_SETUP && !strstr(r.msg, "tracepoint"),
	       "privileges are checked first");
	free(r.msg);
}

/*
 * The table names what oomwatch.bpf.c defines: SEC("tp_btf/<tracepoint>")
 * followed by BPF_PROG(<program>, ...), or the loader would leave out the
 * wrong program (the BPF object is not built by these tests).
 */
static void test_programs(void)
{
	size_t len = 0, found = 0;
	char *src = proc_slurp(FIXTURE_DIR "/../../bpf/oomwatch.bpf.c", &len);

	for (size_t i = 0; src && i < ow_nr_tracepoints; i++) {
		char want[160];

		snprintf(want, sizeof(want), "SEC(\"tp_btf/%s\")\nint BPF_PROG(%s,",
			 ow_tracepoints[i].name, ow_tracepoints[i].prog);
		if (strstr(src, want))
			found++;
		else
			tap_diag("not in oomwatch.bpf.c: %s", want);
	}
	tap_ok(src && found == ow_nr_tracepoints,
	       "every tracepoint's program is in oomwatch.bpf.c under its name");
	free(src);
}

int main(void)
{
	test_programs();
	test_caps();
	test_btf();
	test_tracepoints();
	return tap_done();
}
