/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Building struct oomwatch_event in the tests' tables, as designated
 * initializers (usable in static const arrays):
 *
 *   E(10, OW_OOM_REQUEST, .request = { .pid = 1 })
 *	type OW_OOM_REQUEST at 10 ms, everything not named zero;
 *   E_BY(10, OW_OOM_REQUEST, 200, "hog", .request = { .pid = 200 })
 *	the same, raised by task 200 (pid and tgid) named "hog".
 */
#ifndef OW_TEST_EVENTS_H
#define OW_TEST_EVENTS_H

#include "trace.h"

#define MS(t)		((unsigned long long)(t) * 1000000ULL)

#define E(t, ty, ...)	{ .ts_ns = MS(t), .type = (ty), __VA_ARGS__ }
#define E_BY(t, ty, cur, comm_, ...) \
	E(t, ty, .pid = (cur), .tgid = (cur), .comm = comm_, __VA_ARGS__)

#endif /* OW_TEST_EVENTS_H */
