/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: the timeline as journal entries (--journal).
 *
 * The timeline (output.h) is written into a memory stream; after each
 * event, violation or summary the lines it wrote are sent, one entry per
 * line, with a priority and fields that say what the line is about, so
 * that `journalctl -u oomwatch OOMWATCH_EVENT=kill` lists the kills and
 * each one carries what allowed it:
 *
 *   every entry   MESSAGE (the timeline line), PRIORITY, SYSLOG_IDENTIFIER
 *                 oomwatch, OOMWATCH_EVENT (below), OOMWATCH_SEQ (the
 *                 event's seq; none for a summary or a note)
 *   kill          the victim (OOMWATCH_VICTIM_PID, _COMM, _RSS_KB,
 *                 _OOM_SCORE_ADJ), OOMWATCH_CONSTRAINT, the killer
 *                 (OOMWATCH_KILLER_PID, _COMM), and for a global kill
 *                 OOMWATCH_PERMIT (grant, thrash_take, fallback, none),
 *                 OOMWATCH_PERMIT_SEQ, OOMWATCH_NODE; with a grant its
 *                 evidence (OOMWATCH_GRANT_UNRECLAIMABLE_MS, _LOOPING,
 *                 _LOW_RECLAIMED, _ZONES "free/min ..."), with a thrash
 *                 take its node's thrash grant (OOMWATCH_THRASH_MS,
 *                 _NEAR, _FAULTED, _REFAULTED, _ANON, _WINDOW_MS)
 *   grant, thrash_grant, request, defer, veto, fallback, thrash_take
 *                 OOMWATCH_NODE, OOMWATCH_PID, OOMWATCH_COMM; a veto,
 *                 defer or fallback also OOMWATCH_REASON
 *   violation     OOMWATCH_INVARIANT (its name)
 *
 * OOMWATCH_EVENT is kill, grant, thrash_grant, thrash_take, request,
 * defer, veto, fallback, violation, summary, note, or the trace name of
 * any other event (unreclaimable_set, thrashing_set, token_grab, ...).
 * Priorities: a violation (lost events too: record_whole) is an error,
 * a kill a warning, a grant, take, veto or fallback a notice, the rest
 * info.
 *
 * Sending goes through a function pointer: sd_journal_sendv() in the
 * packaged build (OW_HAVE_LIBSYSTEMD), a capture in the host tests.
 */
#ifndef OW_JOURNAL_H
#define OW_JOURNAL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/uio.h>
#include "checker.h"
#include "episodes.h"
#include "trace.h"

/* Returns 0 or a negative errno, as sd_journal_sendv(). */
typedef int (*ow_journal_send_fn)(void *ctx, const struct iovec *iov, int n);

#define OW_JOURNAL_MAX_FIELDS	32
#define OW_JOURNAL_BUF		16384
/* Grants remembered for the kills that use them: one per node and kind. */
#define OW_JOURNAL_GRANTS	16

struct ow_journal_entry {
	struct iovec iov[OW_JOURNAL_MAX_FIELDS];
	int n;
	char buf[OW_JOURNAL_BUF];
	size_t used;
	bool truncated;		/* a field did not fit: dropped, counted */
};

struct ow_journal {
	FILE *f;		/* the timeline writes here */
	char *text;		/* its buffer (open_memstream) */
	size_t len;
	ow_journal_send_fn send;
	void *send_ctx;
	struct oomwatch_event grant[OW_JOURNAL_GRANTS];
	unsigned int nr_grant;	/* ring: the oldest is replaced */
	unsigned long sent;
	unsigned long failed;	/* entries the journal refused */
	int last_error;		/* its last negative errno */
	unsigned long truncated;
	struct ow_journal_entry entry;	/* the one being sent */
};

/* 0, or -1 with errno when the memory stream cannot be made. */
int ow_journal_init(struct ow_journal *j, ow_journal_send_fn send,
		    void *send_ctx);
void ow_journal_free(struct ow_journal *j);

/* Where the timeline is to write. */
static inline FILE *ow_journal_stream(struct ow_journal *j)
{
	return j->f;
}

/* Send what the timeline wrote for ev; st is the model's step for it. */
void ow_journal_event(struct ow_journal *j, const struct oomwatch_event *ev,
		      const struct ow_ep_step *st);

/* Send the "!!" line the timeline wrote for v. */
void ow_journal_violation(struct ow_journal *j, const struct ow_violation *v);

/*
 * Send whatever else the timeline wrote (its column line, the summary)
 * as one entry of the given OOMWATCH_EVENT and syslog priority.
 */
void ow_journal_note(struct ow_journal *j, const char *event, int priority);

/* The fields of one entry, for the tests: "NAME=value" strings. */
void ow_journal_entry_init(struct ow_journal_entry *e);
void ow_journal_add(struct ow_journal_entry *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The sender of the packaged build; NULL when built without libsystemd. */
ow_journal_send_fn ow_journal_system_sender(void);

#endif /* OW_JOURNAL_H */
