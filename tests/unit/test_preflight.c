// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Preflight checks with a fake kernel: capabilities, BTF, tracepoints.
 * Each error must say what is missing and what to do, and choose the
 * documented exit status; --tolerate-missing must leave out exactly the
 * patched kernel's programs.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "preflight.h"

#include "tap.h"

#define CAP(n)		(1ULL << (n))
#define ALL_CAPS	0x1ffffffffffULL

/* The fake kernel's BTF: "stock" has no oomwatch:*, "none" nothing. */
static bool fake_has(void *ctx, const char *name)
{
	const char *kind = ctx;

	if (strncmp(name, "btf_trace_", 10))
		return false;
	if (!strcmp(kind, "patched"))
		return true;
	if (!strcmp(kind, "none"))
		return false;
	for (size_t i = 0; i < ow_nr_tracepoints; i++)
		if (!strcmp(name + 10, ow_tracepoints[i].name))
			return !ow_tracepoints[i].ours &&
			       (strcmp(kind, "old") ||
				strcmp(ow_tracepoints[i].name, "mark_victim"));
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
	       has(&r, "lacks 11 tracepoints of the oomwatch kernel series: "
		   "oomwatch:unreclaimable_set, oomwatch:unreclaimable_clear,") &&
	       has(&r, "oomwatch:oom_grant, oomwatch:oom_fallback\n") &&
	       has(&r, "boot the oomwatch-patched kernel") &&
	       has(&r, "--tolerate-missing"),
	       "stock kernel: exit 3, names the missing ones, the fix, the option");
	free(r.msg);

	run(&s, true, &r);
	for (size_t i = 0; i < ow_nr_tracepoints; i++) {
		ours += ow_tracepoints[i].ours;
		right += r.disabled[i] == ow_tracepoints[i].ours;
	}
	tap_ok(r.ret == 0 && ours == 11 && right == ow_nr_tracepoints &&
	       has(&r, "--tolerate-missing: not watching 11 tracepoints"),
	       "stock kernel, --tolerate-missing: runs without exactly ours");
	free(r.msg);

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

int main(void)
{
	test_caps();
	test_btf();
	test_tracepoints();
	return tap_done();
}
