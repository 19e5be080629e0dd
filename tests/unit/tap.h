/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A few lines of TAP for the unit tests (tap.c): "ok N - what" per case,
 * the plan "1..N" at the end, exit status 1 when a case failed.  tap_run.c
 * adds the binaries up.
 */
#ifndef OW_TEST_TAP_H
#define OW_TEST_TAP_H

#include <stdbool.h>

/* One case: prints "ok N - what" or "not ok N - what"; returns ok. */
bool tap_ok(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A "# ..." line under a case, to say why it failed. */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the plan; returns the exit status of the test: 1 if a case failed. */
int tap_done(void);

#endif /* OW_TEST_TAP_H */
