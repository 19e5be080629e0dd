// SPDX-License-Identifier: GPL-2.0
/*
 * ow-probe: how long does the system leave a small task waiting?
 *
 *   ow-probe [-p PERIOD_MS] OUT
 *
 * Wakes every PERIOD_MS (default 10) on an absolute CLOCK_MONOTONIC
 * deadline and records how late each wake-up was.  It is locked in memory
 * (mlockall) so that its own page faults do not count: what it measures is
 * the scheduling latency a responsive task (a shell, an sshd) sees while
 * reclaim and the OOM path hold the CPUs.  On SIGTERM or SIGINT it writes
 * one line to OUT and exits 0:
 *
 *   probe: samples=N max_ms=X p99_ms=Y p50_ms=Z
 *
 * Lateness is kept in a histogram of 0.1 ms buckets up to 60 s, so a long
 * run needs no memory beyond what it locked at start.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#define BUCKET_US	100
#define BUCKETS		(60 * 1000 * 1000 / BUCKET_US)
#define NS_PER_S	1000000000LL

static unsigned int hist[BUCKETS + 1];	/* last bucket: 60 s and more */
static unsigned long long samples;
static long long worst_us;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void record(long long late_us)
{
	long long b = late_us / BUCKET_US;

	if (late_us < 0)
		late_us = b = 0;
	if (b > BUCKETS)
		b = BUCKETS;
	hist[b]++;
	samples++;
	if (late_us > worst_us)
		worst_us = late_us;
}

/* Upper edge, in ms, of the bucket holding the q-th quantile. */
static double quantile_ms(double q)
{
	unsigned long long want = (unsigned long long)(q * samples);
	unsigned long long seen = 0;

	for (long b = 0; b <= BUCKETS; b++) {
		seen += hist[b];
		if (seen > want || seen == samples)
			return (b + 1) * BUCKET_US / 1000.0;
	}
	return 0;
}

static void timespec_add_ns(struct timespec *t, long long ns)
{
	long long sum = t->tv_nsec + ns;

	t->tv_sec += sum / NS_PER_S;
	t->tv_nsec = sum % NS_PER_S;
}

static long long late_us(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((now.tv_sec - deadline->tv_sec) * NS_PER_S +
		(now.tv_nsec - deadline->tv_nsec)) / 1000;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	long long period_ns = 10 * 1000000LL;
	struct timespec deadline;
	FILE *out;
	int opt;

	while ((opt = getopt(argc, argv, "p:")) != -1) {
		if (opt != 'p')
			goto usage;
		period_ns = strtoll(optarg, NULL, 0) * 1000000LL;
	}
	if (optind != argc - 1 || period_ns <= 0)
		goto usage;
	/* Opened before the pressure starts: no allocation at the end. */
	out = fopen(argv[optind], "w");
	if (!out) {
		perror("ow-probe: open");
		return 3;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("ow-probe: mlockall (measuring with faults)");
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	while (!stop) {
		timespec_add_ns(&deadline, period_ns);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline,
				    NULL) && errno != EINTR)
			break;
		if (stop)
			break;
		record(late_us(&deadline));
		/* After a long stall, measure from now, not the backlog. */
		if (late_us(&deadline) > period_ns / 1000)
			clock_gettime(CLOCK_MONOTONIC, &deadline);
	}
	fprintf(out, "probe: samples=%llu max_ms=%.1f p99_ms=%.1f p50_ms=%.1f\n",
		samples, worst_us / 1000.0, quantile_ms(0.99), quantile_ms(0.5));
	return fclose(out) ? 3 : 0;
usage:
	fprintf(stderr, "usage: ow-probe [-p PERIOD_MS] OUT\n");
	return 2;
}
