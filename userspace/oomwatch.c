// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: watch the kernel's OOM decisions live and check their rules.
 *
 * Loads oomwatch.bpf.o (skeleton), attaches to the OOM and reclaim
 * tracepoints, and streams one ring buffer into a human timeline or JSON
 * lines.  See oomwatch --help.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>
#include <bpf/bpf.h>
#include "oomwatch.h"
#include "oomwatch.skel.h"
#include "trace.h"

/* Exit codes, documented in --help and the README. */
enum {
	EXIT_OK = 0,
	EXIT_SETUP = 1,		/* bad usage, no privileges, load failure */
	EXIT_VIOLATION = 2,	/* --assert: an invariant broke or events lost */
	EXIT_MISSING_TP = 3,	/* a required tracepoint is not in this kernel */
};

static struct env {
	pid_t tgid;
	bool json;
	bool timestamp;
	bool verbose;
	bool tolerate_missing;
	long duration;
} env;

const char *argp_program_version = "oomwatch 0.1";
const char *argp_program_bug_address = "<oomwatch@localhost>";
static const char doc[] =
"Watch the kernel's OOM decisions and check their rules.\n"
"\n"
"USAGE: oomwatch [-j] [-T] [-p PID] [-d SECONDS] [-v]\n"
"\n"
"EXAMPLES:\n"
"    oomwatch             # live timeline of OOM decisions\n"
"    oomwatch -j          # JSON lines on stdout\n"
"    oomwatch -p 181      # only events about process 181\n"
"    oomwatch -d 30       # stop after 30 seconds\n"
"\n"
"EXIT STATUS: 0 ok, 1 set-up error, 2 invariant violated or events lost\n"
"(--assert), 3 a required tracepoint is missing (not a patched kernel).\n";

static const struct argp_option opts[] = {
	{ "pid", 'p', "PID", 0, "Only events about this process", 0 },
	{ "json", 'j', NULL, 0, "JSON lines on stdout (diagnostics on stderr)", 0 },
	{ "timestamp", 'T', NULL, 0, "Wall-clock time on each line", 0 },
	{ "duration", 'd', "SECONDS", 0, "Stop after this long", 0 },
	{ "tolerate-missing", 'M', NULL, 0,
	  "Run with the stock tracepoints when ours are missing", 0 },
	{ "verbose", 'v', NULL, 0, "Show libbpf's messages", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help", 0 },
	{},
};

static long parse_number(const char *arg, long min, long max,
			 struct argp_state *state, const char *what)
{
	char *end;
	long val;

	errno = 0;
	val = strtol(arg, &end, 10);
	if (errno || end == arg || *end || val < min || val > max)
		argp_error(state, "invalid %s: %s", what, arg);
	return val;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'p':
		env.tgid = parse_number(arg, 1, INT32_MAX, state, "PID");
		break;
	case 'j':
		env.json = true;
		break;
	case 'T':
		env.timestamp = true;
		break;
	case 'd':
		env.duration = parse_number(arg, 1, 365L * 86400, state,
					    "duration");
		break;
	case 'M':
		env.tolerate_missing = true;
		break;
	case 'v':
		env.verbose = true;
		break;
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		break;
	case ARGP_KEY_ARG:
		argp_usage(state);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int libbpf_print_fn(enum libbpf_print_level level, const char *format,
			   va_list args)
{
	if (level == LIBBPF_DEBUG && !env.verbose)
		return 0;
	if (level == LIBBPF_INFO && !env.verbose)
		return 0;
	return vfprintf(stderr, format, args);
}

static volatile sig_atomic_t exiting;

static void sig_handler(int sig)
{
	(void)sig;
	exiting = 1;
}

/*
 * Programs and the tracepoints they need.  A tp_btf program needs the
 * kernel's btf_trace_<name> typedef, which exists exactly when the
 * tracepoint does: probing BTF is reliable on 6.1, unlike
 * libbpf_probe_bpf_prog_type() for BPF_PROG_TYPE_TRACING.
 */
struct tp_need {
	const char *tracepoint;
	bool ours;		/* only in the patched kernel */
	struct bpf_program *(*prog)(struct oomwatch_bpf *);
};

#define PROG(name) \
	static struct bpf_program *prog_##name(struct oomwatch_bpf *o) \
	{ return o->progs.name; }
PROG(mark_victim)
PROG(task_exit)
PROG(reclaim_retry_zone)
PROG(wake_reaper)
PROG(finish_task_reaping)
PROG(kswapd_wake)
PROG(kswapd_sleep)
PROG(direct_reclaim_begin)
PROG(direct_reclaim_end)
PROG(unreclaimable_set)
PROG(unreclaimable_clear)
PROG(swap_token_grab)
PROG(swap_token_release)
PROG(swap_token_kept)
PROG(swap_token_bypass)
#undef PROG

static const struct tp_need needs[] = {
	{ "mark_victim", false, prog_mark_victim },
	{ "sched_process_exit", false, prog_task_exit },
	{ "reclaim_retry_zone", false, prog_reclaim_retry_zone },
	{ "wake_reaper", false, prog_wake_reaper },
	{ "finish_task_reaping", false, prog_finish_task_reaping },
	{ "mm_vmscan_kswapd_wake", false, prog_kswapd_wake },
	{ "mm_vmscan_kswapd_sleep", false, prog_kswapd_sleep },
	{ "mm_vmscan_direct_reclaim_begin", false, prog_direct_reclaim_begin },
	{ "mm_vmscan_direct_reclaim_end", false, prog_direct_reclaim_end },
	{ "unreclaimable_set", true, prog_unreclaimable_set },
	{ "unreclaimable_clear", true, prog_unreclaimable_clear },
	{ "swap_token_grab", true, prog_swap_token_grab },
	{ "swap_token_release", true, prog_swap_token_release },
	{ "swap_token_kept", true, prog_swap_token_kept },
	{ "swap_token_bypass", true, prog_swap_token_bypass },
};

static bool kernel_has_tracepoint(const struct btf *btf, const char *tp)
{
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	return btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

/* Disable programs whose tracepoint is missing; fail if one is required. */
static int select_programs(struct oomwatch_bpf *obj)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int missing = 0;

	if (!btf) {
		fprintf(stderr, "oomwatch: this kernel has no BTF "
			"(/sys/kernel/btf/vmlinux); it needs CONFIG_DEBUG_INFO_BTF=y\n");
		return -EXIT_SETUP;
	}
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		if (kernel_has_tracepoint(btf, needs[i].tracepoint))
			continue;
		if (!needs[i].ours || !env.tolerate_missing) {
			fprintf(stderr, "oomwatch: tracepoint %s missing%s\n",
				needs[i].tracepoint, needs[i].ours ?
				": this needs the oomwatch-patched kernel" : "");
			missing++;
		}
		bpf_program__set_autoload(needs[i].prog(obj), false);
	}
	btf__free(btf);
	return missing ? -EXIT_MISSING_TP : 0;
}

static void print_prefix(const struct oomwatch_event *e)
{
	if (env.timestamp) {
		char buf[32];
		time_t t = time(NULL);

		strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&t));
		printf("%s ", buf);
	}
	printf("%10.6f %-16s %7u  ", e->ts_ns / 1e9, e->comm, e->pid);
}

/* One human line per event: what happened, and on what evidence. */
static void print_human(const struct oomwatch_event *e)
{
	print_prefix(e);
	switch (e->type) {
	case OW_MARK_VICTIM:
		printf("KILL %s oom: victim %u (%s) anon-rss %llu kB "
		       "file-rss %llu kB shmem-rss %llu kB oom_score_adj %d "
		       "memcg %llu\n", ow_constraint_name(e->victim.constraint),
		       e->victim.pid, e->victim.comm,
		       (unsigned long long)e->victim.anon_rss_kb,
		       (unsigned long long)e->victim.file_rss_kb,
		       (unsigned long long)e->victim.shmem_rss_kb,
		       e->victim.oom_score_adj,
		       (unsigned long long)e->victim.memcg_id);
		break;
	case OW_TASK_EXIT:
		printf("exit: victim %u gone\n", e->exit.tgid);
		break;
	case OW_RECLAIM_RETRY_ZONE:
		printf("retry? node %d zone %d order %d reclaimable %llu "
		       "available %llu min %llu loops %d -> %s\n",
		       e->retry.nid, e->retry.zone_idx, e->retry.order,
		       (unsigned long long)e->retry.reclaimable,
		       (unsigned long long)e->retry.available,
		       (unsigned long long)e->retry.min_wmark,
		       e->retry.no_progress_loops,
		       e->retry.wmark_check ? "retry" : "give up");
		break;
	case OW_WAKE_REAPER:
		printf("oom_reaper: woken for %u\n", e->reaper.pid);
		break;
	case OW_FINISH_REAPING:
		printf("oom_reaper: reaped %u\n", e->reaper.pid);
		break;
	case OW_KSWAPD_WAKE:
		printf("kswapd%d: wake (zone %d order %d)\n", e->kswapd.nid,
		       e->kswapd.zid, e->kswapd.order);
		break;
	case OW_KSWAPD_SLEEP:
		printf("kswapd%d: sleep\n", e->kswapd.nid);
		break;
	case OW_DIRECT_BEGIN:
		printf("direct reclaim: begin order %d gfp 0x%x\n",
		       e->direct.order, e->direct.gfp_flags);
		break;
	case OW_DIRECT_END:
		printf("direct reclaim: end, %llu pages reclaimed\n",
		       (unsigned long long)e->direct.nr_reclaimed);
		break;
	case OW_UNRECLAIMABLE_SET:
		printf("node %d UNRECLAIMABLE: kswapd failed %u passes\n",
		       e->unrecl.nid, e->unrecl.failures);
		break;
	case OW_UNRECLAIMABLE_CLEAR:
		printf("node %d reclaimable again after %u ms (%s)\n",
		       e->unrecl.nid, e->unrecl.duration_ms,
		       ow_clear_reason_name(e->unrecl.reason));
		break;
	case OW_TOKEN_GRAB:
		printf("swap token -> %u (%s), from %u (%s)\n", e->token.tgid,
		       e->token.holder_comm, e->token.prev_tgid,
		       ow_token_reason_name(e->token.reason));
		break;
	case OW_TOKEN_RELEASE:
		printf("swap token released by %u (%s): %s\n", e->token.tgid,
		       e->token.holder_comm,
		       ow_token_reason_name(e->token.reason));
		break;
	case OW_TOKEN_KEPT:
		printf("swap token kept %llu folios of %u from reclaim "
		       "(node %d priority %d)\n",
		       (unsigned long long)e->token_pass.nr_folios,
		       e->token_pass.holder_tgid, e->token_pass.nid,
		       e->token_pass.priority);
		break;
	case OW_TOKEN_BYPASS:
		printf("swap token BYPASSED at priority %d: %llu folios of %u "
		       "reclaimable (node %d)\n", e->token_pass.priority,
		       (unsigned long long)e->token_pass.nr_folios,
		       e->token_pass.holder_tgid, e->token_pass.nid);
		break;
	default:
		printf("event type %u\n", e->type);
	}
}

static bool event_matches(const struct oomwatch_event *e)
{
	if (!env.tgid)
		return true;
	return e->tgid == (__u32)env.tgid ||
	       (e->type == OW_MARK_VICTIM && e->victim.pid == (__u32)env.tgid);
}

static int handle_event(void *ctx, void *data, size_t len)
{
	const struct oomwatch_event *e = data;

	(void)ctx;
	if (len < sizeof(*e) || !event_matches(e))
		return 0;
	if (env.json)
		ow_json_write_event(stdout, e);
	else
		print_human(e);
	return 0;
}

static __u64 sum_counter(struct oomwatch_bpf *obj, __u32 which)
{
	int ncpus = libbpf_num_possible_cpus();
	__u64 *vals, sum = 0;

	if (ncpus <= 0)
		return 0;
	vals = calloc(ncpus, sizeof(*vals));
	if (!vals)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(obj->maps.counters), &which, vals))
		for (int i = 0; i < ncpus; i++)
			sum += vals[i];
	free(vals);
	return sum;
}

/* Read a vm sysctl, -1 when this kernel does not have it. */
static long read_sysctl(const char *name)
{
	char path[128];
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

static void write_header(void)
{
	struct ow_config cfg = {
		.oom_arbiter = read_sysctl("oom_arbiter"),
		.oom_unreclaimable_timeout_ms =
			read_sysctl("oom_unreclaimable_timeout_ms"),
		.oom_arbiter_fallback_ms = read_sysctl("oom_arbiter_fallback_ms"),
		.swap_token = read_sysctl("swap_token"),
		.swap_token_bypass_priority =
			read_sysctl("swap_token_bypass_priority"),
	};
	struct utsname u;

	uname(&u);
	ow_json_write_header(stdout, &cfg, u.release, 1000);
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts, .parser = parse_arg, .doc = doc,
	};
	struct ring_buffer *rb = NULL;
	struct oomwatch_bpf *obj;
	__u64 emitted, dropped;
	time_t end = 0;
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return EXIT_SETUP;
	libbpf_set_print(libbpf_print_fn);
	if (geteuid() != 0)
		fprintf(stderr, "oomwatch: not running as root; loading BPF "
			"needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN)\n");

	obj = oomwatch_bpf__open();
	if (!obj) {
		fprintf(stderr, "oomwatch: failed to open the BPF object\n");
		return EXIT_SETUP;
	}
	obj->rodata->targ_tgid = env.tgid;
	err = select_programs(obj);
	if (err)
		goto cleanup;
	err = oomwatch_bpf__load(obj);
	if (err) {
		fprintf(stderr, "oomwatch: failed to load BPF programs: %s%s\n",
			strerror(-err), err == -EPERM ?
			" (needs root, or CAP_BPF and CAP_PERFMON)" : "");
		err = -EXIT_SETUP;
		goto cleanup;
	}
	err = oomwatch_bpf__attach(obj);
	if (err) {
		fprintf(stderr, "oomwatch: failed to attach: %s\n",
			strerror(-err));
		err = -EXIT_SETUP;
		goto cleanup;
	}
	rb = ring_buffer__new(bpf_map__fd(obj->maps.events), handle_event,
			      NULL, NULL);
	if (!rb) {
		fprintf(stderr, "oomwatch: failed to create the ring buffer\n");
		err = -EXIT_SETUP;
		goto cleanup;
	}
	signal(SIGINT, sig_handler);
	signal(SIGTERM, sig_handler);
	if (env.json)
		write_header();
	else
		printf("%-10s %-16s %7s  %s\n", "TIME(s)", "COMM", "PID",
		       "EVENT");
	fflush(stdout);
	fprintf(stderr, "oomwatch: tracing OOM decisions... Ctrl-C to end\n");
	if (env.duration)
		end = time(NULL) + env.duration;

	while (!exiting && (!end || time(NULL) < end)) {
		err = ring_buffer__poll(rb, 100);
		if (err == -EINTR) {
			err = 0;
			break;
		}
		if (err < 0) {
			fprintf(stderr, "oomwatch: ring buffer poll: %s\n",
				strerror(-err));
			err = -EXIT_SETUP;
			goto cleanup;
		}
		fflush(stdout);
	}
	/* Drain what is left before counting. */
	ring_buffer__consume(rb);
	emitted = sum_counter(obj, OW_CNT_EMITTED);
	dropped = sum_counter(obj, OW_CNT_DROPPED);
	if (env.json && dropped)
		ow_json_write_lost(stdout, (long long)dropped);
	fflush(stdout);
	fprintf(stderr, "oomwatch: %llu events, %llu lost\n",
		(unsigned long long)emitted, (unsigned long long)dropped);
	err = 0;

cleanup:
	ring_buffer__free(rb);
	oomwatch_bpf__destroy(obj);
	return err < 0 ? -err : err;
}
