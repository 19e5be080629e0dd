// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A main() for fuzz_replay.c without libFuzzer, for `make check`: every
 * fixture, each of its prefixes at line and byte granularity, and a few
 * thousand byte-level mutations go through the harness.  The harness
 * aborts on a broken property, which tap_run.c reports as a failure.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long long rng_state = 88172645463325252ULL;

static unsigned long long rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	unsigned char *buf = NULL;
	FILE *f = fopen(path, "rb");
	long n = -1;

	*len = 0;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (n > 0 && !fseek(f, 0, SEEK_SET))
		buf = malloc(n);
	if (buf && fread(buf, 1, n, f) == (size_t)n)
		*len = n;
	fclose(f);
	return buf;
}

static void mutate(unsigned char *b, size_t len)
{
	static const unsigned char bytes[] = "\"\\{}[],:-0123456789eE\n\0x";

	for (int m = 1 + rnd() % 8; m > 0; m--) {
		size_t at = rnd() % len;

		if (rnd() % 2)
			b[at] = bytes[rnd() % (sizeof(bytes) - 1)];
		else
			b[at] ^= 1u << (rnd() % 8);
	}
}

static void run_fixture(const char *dir, const char *name)
{
	char path[512];
	unsigned char *buf, *copy;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf = slurp(path, &len);
	if (!tap_ok(buf && len, "fuzz harness: read %s", name)) {
		free(buf);
		return;
	}
	LLVMFuzzerTestOneInput(buf, len);
	for (size_t cut = 1; cut < len; cut++)
		LLVMFuzzerTestOneInput(buf, cut);
	copy = malloc(len);
	for (int i = 0; i < 400; i++) {
		memcpy(copy, buf, len);
		mutate(copy, len);
		LLVMFuzzerTestOneInput(copy, len);
	}
	tap_ok(true, "fuzz harness: %s, every prefix, 400 mutations", name);
	free(copy);
	free(buf);
}

static int is_fixture(const struct dirent *e)
{
	size_t l = strlen(e->d_name);

	return l > 6 && !strcmp(e->d_name + l - 6, ".jsonl");
}

int main(void)
{
	struct dirent **names;
	int n;

	/* Sorted, so that the case numbers do not depend on the directory. */
	n = scandir(FIXTURE_DIR, &names, is_fixture, alphasort);
	if (!tap_ok(n >= 0, "fuzz harness: list %s", FIXTURE_DIR))
		return tap_done();
	for (int i = 0; i < n; i++) {
		run_fixture(FIXTURE_DIR, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	tap_ok(n >= 5, "fuzz harness: %d fixtures found", n);
	return tap_done();
}
