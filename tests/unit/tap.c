// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A few lines of TAP for the unit tests; tap.h says what each call prints.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include "tap.h"

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
