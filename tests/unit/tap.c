// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A few lines of TAP for the unit tests: "ok N - what" per case, the plan
 * "1..N" at the end, exit status 1 when a case failed.  tap_run.c adds
 * the binaries up.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* The tests declare these three themselves (tests/unit holds only .c). */
bool tap_ok(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tap_done(void);

static int tap_n, tap_failed;

bool tap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		tap_failed++;
	fflush(stdout);
	return ok;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
