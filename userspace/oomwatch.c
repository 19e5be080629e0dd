// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: watch the kernel's OOM decisions live and check their rules.
 *
 * main() and the live part: preflight, the skeleton (oomwatch.bpf.c), one
 * ring buffer, and the reorder window in front of the session.  Parsing is
 * cli.c, the rest of the event path session.c and what it calls; --replay
 * never reaches this file's BPF code.  See oomwatch --help.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>
#include <bpf/bpf.h>
#include "oomwatch_records.h"
#include "oomwatch.skel.h"
#include "cgroup.h"
#include "cli.h"
#include "preflight.h"
#include "reorder.h"
#include "session.h"
#include "trace.h"

#define BTF_PATH		"/sys/kernel/btf/vmlinux"
#define POLL_MS			100
#define REORDER_WAIT_MS		250	/* a missing seq is given up after */
#define KSWAPD_PERIOD_MS	1000

static volatile sig_atomic_t exiting;
static volatile sig_atomic_t reopen;	/* SIGHUP: reopen the recording */
static bool verbose;

/* As in libbpf-tools: libbpf's debug output only with -v. */
static int libbpf_print_fn(enum libbpf_print_level level, const char *format,
			   va_list args)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, format, args);
}

static void sig_handler(int sig)
{
	if (sig == SIGHUP)
		reopen = 1;
	else
		exiting = 1;
}

/* No SA_RESTART: the poll must return so the summary gets printed. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static unsigned long long clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* -------------------------------------------------------- preflight */

static bool btf_has_typedef(void *ctx, const char *name)
{
	return btf__find_by_name_kind(ctx, name, BTF_KIND_TYPEDEF) > 0;
}

/* The kernel's own BTF file, never a /boot fallback: tp_btf needs it. */
static int preflight(const struct ow_cli *cli, bool *disabled)
{
	struct ow_sys sys = { .btf_path = BTF_PATH };
	struct btf *btf = NULL;
	int ret;

	ow_sys_read_caps(&sys);
	sys.btf_present = !access(BTF_PATH, F_OK);
	if (sys.btf_present)
		btf = btf__parse(BTF_PATH, NULL);
	if (btf) {
		sys.has_type = btf_has_typedef;
		sys.ctx = btf;
	}
	ret = ow_preflight(&sys, cli->tolerate_missing, stderr, disabled);
	btf__free(btf);
	return ret;
}

/*
 * --journal needs the packaged build (libsystemd) and a journald to talk
 * to: said now, before anything is loaded, rather than as entries lost.
 */
static int journal_sender(const struct ow_cli *cli, ow_journal_send_fn *send)
{
	static const char sock[] = "/run/systemd/journal/socket";

	*send = NULL;
	if (!cli->journal)
		return 0;
	*send = ow_journal_system_sender();
	if (!*send) {
		fprintf(stderr, "oomwatch: --journal: this oomwatch was built "
			"without libsystemd (the static guest build); the "
			"Debian package's /usr/sbin/oomwatch has it\n");
		return OW_EXIT_SETUP;
	}
	if (access(sock, W_OK)) {
		fprintf(stderr, "oomwatch: --journal: %s: %s (is "
			"systemd-journald running?)\n", sock, strerror(errno));
		return OW_EXIT_SETUP;
	}
	return 0;
}

/* ------------------------------------------------------ configuration */

/* A vm sysctl, or OW_CONFIG_UNKNOWN when this kernel does not have it. */
static int read_sysctl(const char *name)
{
	char path[128];
	long val;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	f = fopen(path, "r");
	if (!f)
		return OW_CONFIG_UNKNOWN;
	n = fscanf(f, "%ld", &val);
	fclose(f);
	if (n != 1 || val <= INT_MIN || val > INT_MAX)
		return OW_CONFIG_UNKNOWN;
	return val;
}

static void read_header(struct ow_header *h)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	h->config.oom_arbiter = read_sysctl("oom_arbiter");
	h->config.oom_unreclaimable_timeout_ms =
		read_sysctl("oom_unreclaimable_timeout_ms");
	h->config.oom_arbiter_fallback_ms =
		read_sysctl("oom_arbiter_fallback_ms");
	h->config.swap_token = read_sysctl("swap_token");
	h->config.swap_token_bypass_priority =
		read_sysctl("swap_token_bypass_priority");
	/* The thrash rule came later: an older series lacks both (null). */
	h->config.oom_arbiter_thrash = read_sysctl("oom_arbiter_thrash");
	h->config.oom_thrash_timeout_ms = read_sysctl("oom_thrash_timeout_ms");
	h->kswapd_period_ms = KSWAPD_PERIOD_MS;
	if (!uname(&u))
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
}

/* ------------------------------------------------------------- live */

struct live {
	const struct ow_cli *cli;
	struct oomwatch_bpf *obj;
	struct ring_buffer *rb;
	struct ow_session *session;
	struct ow_reorder *reorder;
	struct ow_cgroup_set *cgroup;
	char cgroot[OW_CGROUP_PATH_MAX];
	__u64 *percpu;
	int ncpus;
	unsigned long long dropped;	/* already reported */
	unsigned long long shed;	/* already reported */
	int stats_fd;			/* --cost: BPF run-time stats on */
	struct rusage ru_start;		/* --cost: at the start of tracing */
	unsigned long long start_ns;	/* --cost: CLOCK_MONOTONIC, same */
};

static void pump(struct live *l, bool force)
{
	unsigned long long now = clock_ns(CLOCK_MONOTONIC) / 1000000;
	struct oomwatch_event ev;

	while (ow_reorder_pop(l->reorder, now, force, &ev))
		ow_session_event(l->session, &ev);
}

static int handle_event(void *ctx, void *data, size_t len)
{
	struct live *l = ctx;
	unsigned long long now = clock_ns(CLOCK_MONOTONIC) / 1000000;
	struct oomwatch_event ev;

	if (len < sizeof(ev))
		return 0;
	memcpy(&ev, data, sizeof(ev));
	while (ow_reorder_full(l->reorder)) {
		struct oomwatch_event old;

		if (!ow_reorder_pop(l->reorder, now, true, &old))
			break;
		ow_session_event(l->session, &old);
	}
	ow_reorder_push(l->reorder, &ev, now);
	pump(l, false);
	return 0;
}

static __u64 sum_counter(struct live *l, __u32 which)
{
	__u64 sum = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(l->obj->maps.counters), &which,
				l->percpu))
		return 0;
	for (int i = 0; i < l->ncpus; i++)
		sum += l->percpu[i];
	return sum;
}

/* New ring buffer drops and sheds since the last look go to the session. */
static void check_dropped(struct live *l)
{
	__u64 dropped = sum_counter(l, OW_CNT_DROPPED);
	__u64 shed = sum_counter(l, OW_CNT_SHED);

	if (dropped > l->dropped) {
		ow_session_lost(l->session, -1, dropped - l->dropped);
		l->dropped = dropped;
	}
	if (shed > l->shed) {
		ow_session_shed(l->session, shed - l->shed);
		l->shed = shed;
	}
}

static int resolve_cgroup(struct live *l)
{
	char why[256], note[512];

	if (ow_cgroup2_mount(l->cgroot, sizeof(l->cgroot)))
		l->cgroot[0] = '\0';
	if (!l->cli->cgroup)
		return 0;
	l->cgroup = malloc(sizeof(*l->cgroup));
	if (!l->cgroup) {
		fprintf(stderr, "oomwatch: out of memory\n");
		return OW_EXIT_SETUP;
	}
	if (ow_cgroup_resolve(l->cgroup, l->cli->cgroup, true, why,
			      sizeof(why), note, sizeof(note))) {
		fprintf(stderr, "oomwatch: %s\n", why);
		return OW_EXIT_SETUP;
	}
	if (note[0])
		fprintf(stderr, "oomwatch: %s\n", note);
	return 0;
}

static int load(struct live *l, const bool *disabled)
{
	int err;

	l->obj = oomwatch_bpf__open();
	if (!l->obj) {
		fprintf(stderr, "oomwatch: cannot open the BPF object: %s\n",
			strerror(errno));
		return OW_EXIT_SETUP;
	}
	if (l->cli->ring_size) {
		err = bpf_map__set_max_entries(l->obj->maps.events,
					       l->cli->ring_size);
		if (err) {
			fprintf(stderr, "oomwatch: --ring-size %lld: %s\n",
				l->cli->ring_size, strerror(-err));
			return OW_EXIT_SETUP;
		}
		l->obj->rodata->rb_size = l->cli->ring_size;
	}
	/* No filter in BPF: -p/-c apply to output, the checker sees all. */
	for (size_t i = 0; i < ow_nr_tracepoints; i++) {
		struct bpf_program *p;

		if (!disabled[i])
			continue;
		p = bpf_object__find_program_by_name(l->obj->obj,
						     ow_tracepoints[i].prog);
		if (p)
			bpf_program__set_autoload(p, false);
	}
	err = oomwatch_bpf__load(l->obj);
	if (err) {
		fprintf(stderr, "oomwatch: cannot load the BPF programs: %s%s\n",
			strerror(-err), err == -EPERM || err == -EACCES ?
			" (needs root, or CAP_BPF and CAP_PERFMON)" :
			"; -v shows libbpf's and the verifier's messages");
		return OW_EXIT_SETUP;
	}
	err = oomwatch_bpf__attach(l->obj);
	if (err) {
		fprintf(stderr, "oomwatch: cannot attach: %s\n",
			strerror(-err));
		return OW_EXIT_SETUP;
	}
	l->rb = ring_buffer__new(bpf_map__fd(l->obj->maps.events),
				 handle_event, l, NULL);
	if (!l->rb) {
		fprintf(stderr, "oomwatch: cannot open the ring buffer: %s\n",
			strerror(errno));
		return OW_EXIT_SETUP;
	}
	return 0;
}

/*
 * oomwatch runs while memory is short: its own pages must not be
 * reclaimed, or it would thrash, fault in its ring-buffer consumer late
 * and even queue up as an OOM requester in the decisions it records.
 * Not fatal: without CAP_IPC_LOCK or with a low RLIMIT_MEMLOCK it runs
 * unlocked.
 */
static void lock_memory(void)
{
	/*
	 * Loading parsed the kernel's BTF (megabytes) on the heap and freed
	 * it; give those pages back first, or they would stay resident and
	 * locked for the whole run, out of a guest that is short of memory.
	 */
	malloc_trim(0);
	if (mlockall(MCL_CURRENT | MCL_FUTURE) && verbose)
		fprintf(stderr, "oomwatch: mlockall: %s (running unlocked)\n",
			strerror(errno));
}

/*
 * --cost: the kernel keeps BPF programs' run time only while somebody
 * holds a BPF_ENABLE_STATS descriptor (or kernel.bpf_stats_enabled is
 * set); the bookkeeping itself costs two clock reads per program run,
 * which is why it is not on by default.
 */
static int enable_cost_stats(struct live *l)
{
	l->stats_fd = -1;
	if (!l->cli->cost)
		return 0;
	l->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (l->stats_fd < 0) {
		fprintf(stderr, "oomwatch: --cost: cannot turn on BPF run-time "
			"statistics: %s (needs CAP_SYS_ADMIN and Linux 5.8)\n",
			strerror(errno));
		return OW_EXIT_SETUP;
	}
	return 0;
}

static unsigned long long tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1000000ULL + tv->tv_usec;
}

/* "VmRSS:" and the like from /proc/self/status, in kB; 0 when absent. */
static unsigned long status_kb(const char *key)
{
	unsigned long kb = 0;
	size_t len = strlen(key);
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len)) {
			kb = strtoul(line + len, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

/* One program's share of the BPF time, for the breakdown. */
struct prog_cost {
	const char *name;
	unsigned long long ns, runs;
};

#define COST_TOP 5	/* programs named in the breakdown */

/*
 * The time every loaded program of ours ran since the stats went on, and
 * the COST_TOP programs that took most of it, largest first.
 */
static void bpf_run_time(struct live *l, unsigned long long *ns,
			 unsigned long long *runs, struct prog_cost *top)
{
	struct bpf_program *prog;

	*ns = *runs = 0;
	memset(top, 0, COST_TOP * sizeof(*top));
	bpf_object__for_each_program(prog, l->obj->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);
		struct prog_cost c;
		int i;

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		*ns += info.run_time_ns;
		*runs += info.run_cnt;
		c = (struct prog_cost){ bpf_program__name(prog),
					info.run_time_ns, info.run_cnt };
		/* Insertion into the short sorted list. */
		for (i = 0; i < COST_TOP && c.runs; i++)
			if (!top[i].runs || c.ns > top[i].ns) {
				struct prog_cost t = top[i];

				top[i] = c;
				c = t;
			}
	}
}

/*
 * One line: what tracing cost from its start to now.  CPU shares are of
 * one CPU over the traced time, the unit a reader can compare with the
 * workload's own time.
 */
static void print_cost(struct live *l)
{
	unsigned long long wall_us, user_us, sys_us, bpf_ns, bpf_runs;
	struct prog_cost top[COST_TOP];
	struct rusage ru;
	int i;

	if (!l->cli->cost)
		return;
	wall_us = (clock_ns(CLOCK_MONOTONIC) - l->start_ns) / 1000;
	getrusage(RUSAGE_SELF, &ru);
	user_us = tv_us(&ru.ru_utime) - tv_us(&l->ru_start.ru_utime);
	sys_us = tv_us(&ru.ru_stime) - tv_us(&l->ru_start.ru_stime);
	bpf_run_time(l, &bpf_ns, &bpf_runs, top);
	if (!wall_us)
		wall_us = 1;
	fprintf(stderr, "oomwatch: cost: %.3f s traced; user space %.1f ms "
		"(user %.1f, system %.1f), %.3f%% of a CPU, %ld wakeups; "
		"bpf %.1f ms in %llu runs (%.2f us each), %.3f%% of a CPU; "
		"memory %lu kB resident, %lu kB locked, ring buffer %u kB\n",
		wall_us / 1e6, (user_us + sys_us) / 1e3, user_us / 1e3,
		sys_us / 1e3, 100.0 * (user_us + sys_us) / wall_us,
		(ru.ru_nvcsw + ru.ru_nivcsw) -
		(l->ru_start.ru_nvcsw + l->ru_start.ru_nivcsw),
		bpf_ns / 1e6, bpf_runs,
		bpf_runs ? bpf_ns / 1e3 / bpf_runs : 0.0,
		100.0 * bpf_ns / 1e3 / wall_us,
		status_kb("VmRSS:"), status_kb("VmLck:"),
		bpf_map__max_entries(l->obj->maps.events) / 1024);
	if (!top[0].runs)
		return;
	fprintf(stderr, "oomwatch: cost: bpf by program:");
	for (i = 0; i < COST_TOP && top[i].runs; i++)
		fprintf(stderr, "%s %s %.1f ms in %llu runs", i ? "," : "",
			top[i].name, top[i].ns / 1e6, top[i].runs);
	fprintf(stderr, "\n");
}

static int setup(struct live *l)
{
	struct ow_session_opts so = {
		.cli = l->cli, .out = stdout, .err = stderr, .live = true,
	};
	bool disabled[OW_MAX_TRACEPOINTS] = { false };
	struct ow_header h;
	int ret;

	ret = preflight(l->cli, disabled);
	if (!ret)
		ret = journal_sender(l->cli, &so.journal_send);
	if (!ret)
		ret = resolve_cgroup(l);
	if (!ret)
		ret = enable_cost_stats(l);
	if (ret)
		return ret;
	l->ncpus = libbpf_num_possible_cpus();
	l->reorder = malloc(sizeof(*l->reorder));
	l->percpu = l->ncpus > 0 ? calloc(l->ncpus, sizeof(__u64)) : NULL;
	if (!l->reorder || !l->percpu) {
		fprintf(stderr, "oomwatch: out of memory\n");
		return OW_EXIT_SETUP;
	}
	/* The BPF side's seq starts at 0 with the object. */
	ow_reorder_init(l->reorder, 0, REORDER_WAIT_MS);
	so.wall_offset_ns = (long long)(clock_ns(CLOCK_REALTIME) -
					clock_ns(CLOCK_MONOTONIC));
	if (l->cgroot[0]) {
		so.memcg_of = ow_memcg_of_pid;
		so.memcg_ctx = l->cgroot;
		/* memcg lines: the paths of the ids events name */
		so.cgroup_root = l->cgroot;
		so.cgroup_root_cgroup2 = true;
	}
	so.cgroup = l->cgroup;
	l->session = ow_session_new(&so);
	if (!l->session)
		return OW_EXIT_SETUP;
	/* Everything that can fail in user space fails before the load. */
	ret = ow_session_open_record(l->session);
	if (!ret)
		ret = ow_session_open_metrics(l->session);
	if (!ret)
		ret = load(l, disabled);
	if (ret)
		return ret;
	read_header(&h);
	lock_memory();
	return ow_session_start(l->session, &h, OOMWATCH_FORMAT_VERSION);
}

static int trace(struct live *l)
{
	unsigned long long end = 0, last_check = 0;
	int err;

	if (l->cli->duration)
		end = clock_ns(CLOCK_MONOTONIC) +
		      l->cli->duration * 1000000000ULL;
	catch_signals();
	l->start_ns = clock_ns(CLOCK_MONOTONIC);
	getrusage(RUSAGE_SELF, &l->ru_start);
	ow_session_flush(l->session);
	fprintf(stderr, "oomwatch: tracing OOM decisions... Ctrl-C to end\n");
	while (!exiting) {
		unsigned long long now = clock_ns(CLOCK_MONOTONIC);

		if (end && now >= end)
			break;
		err = ring_buffer__poll(l->rb, POLL_MS);
		/*
		 * Most records do not wake us (oomwatch.bpf.c, submit()):
		 * what is there when the poll times out is taken here.
		 */
		if (err == 0)
			err = ring_buffer__consume(l->rb);
		/*
		 * Not only our SIGINT/SIGTERM (which set exiting): the
		 * freezer (suspend), SIGSTOP/SIGCONT and the like interrupt
		 * the wait as well, and tracing must go on after them.
		 */
		if (err == -EINTR)
			continue;
		if (err < 0) {
			fprintf(stderr, "oomwatch: ring buffer poll: %s\n",
				strerror(-err));
			return OW_EXIT_SETUP;
		}
		pump(l, false);
		if (reopen) {
			reopen = 0;
			ow_session_reopen_record(l->session);
		}
		if (now - last_check >= 1000000000ULL) {
			check_dropped(l);
			last_check = now;
		}
		ow_session_metrics_tick(l->session, now);
		ow_session_flush(l->session);
	}
	/* Drain: what the ring buffer still holds, then the window. */
	ring_buffer__consume(l->rb);
	pump(l, true);
	check_dropped(l);
	fprintf(stderr, "oomwatch: %llu events, %llu lost, %llu shed\n",
		ow_session_events(l->session), l->dropped, l->shed);
	print_cost(l);
	return ow_session_finish(l->session, clock_ns(CLOCK_MONOTONIC));
}

static int run_live(const struct ow_cli *cli)
{
	struct live l = { .cli = cli, .stats_fd = -1 };
	int ret;

	verbose = cli->verbose;
	libbpf_set_print(libbpf_print_fn);
	ret = setup(&l);
	if (!ret)
		ret = trace(&l);
	ow_session_free(l.session);
	ring_buffer__free(l.rb);
	oomwatch_bpf__destroy(l.obj);
	free(l.reorder);
	free(l.percpu);
	free(l.cgroup);
	if (l.stats_fd >= 0)
		close(l.stats_fd);
	return ret;
}

int main(int argc, char **argv)
{
	return ow_main(argc, argv, run_live);
}
