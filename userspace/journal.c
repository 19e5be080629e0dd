// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* oomwatch: the timeline as journal entries; see journal.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L	/* open_memstream */
#endif
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include "journal.h"

#ifdef OW_HAVE_LIBSYSTEMD
#include <systemd/sd-journal.h>

static int system_send(void *ctx, const struct iovec *iov, int n)
{
	(void)ctx;
	return sd_journal_sendv(iov, n);
}

ow_journal_send_fn ow_journal_system_sender(void)
{
	return system_send;
}
#else
ow_journal_send_fn ow_journal_system_sender(void)
{
	return NULL;
}
#endif

int ow_journal_init(struct ow_journal *j, ow_journal_send_fn send,
		    void *send_ctx)
{
	memset(j, 0, sizeof(*j));
	j->send = send;
	j->send_ctx = send_ctx;
	j->f = open_memstream(&j->text, &j->len);
	return j->f ? 0 : -1;
}

void ow_journal_free(struct ow_journal *j)
{
	if (j->f)
		fclose(j->f);
	free(j->text);
	j->f = NULL;
	j->text = NULL;
}

void ow_journal_entry_init(struct ow_journal_entry *e)
{
	e->n = 0;
	e->used = 0;
	e->truncated = false;
}

void ow_journal_add(struct ow_journal_entry *e, const char *fmt, ...)
{
	size_t room = sizeof(e->buf) - e->used;
	va_list ap;
	int len;

	if (e->n == OW_JOURNAL_MAX_FIELDS) {
		e->truncated = true;
		return;
	}
	va_start(ap, fmt);
	len = vsnprintf(e->buf + e->used, room, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= room) {
		e->truncated = true;
		return;
	}
	e->iov[e->n].iov_base = e->buf + e->used;
	e->iov[e->n].iov_len = len;
	e->n++;
	e->used += len + 1;
}

/* ------------------------------------------------------------ what is it */

static const char *event_name(unsigned int type)
{
	const char *name;

	switch (type) {
	case OW_MARK_VICTIM:
		return "kill";
	case OW_OOM_GRANT:
		return "grant";
	case OW_THRASH_GRANT:
		return "thrash_grant";
	case OW_THRASH_TAKE:
		return "thrash_take";
	case OW_OOM_REQUEST:
		return "request";
	case OW_OOM_DEFER:
		return "defer";
	case OW_OOM_VETO:
		return "veto";
	case OW_OOM_FALLBACK:
		return "fallback";
	}
	name = ow_event_type_name(type);
	return name ? name : "unknown";
}

static int event_priority(unsigned int type)
{
	switch (type) {
	case OW_MARK_VICTIM:
		return LOG_WARNING;
	case OW_OOM_GRANT:
	case OW_THRASH_GRANT:
	case OW_THRASH_TAKE:
	case OW_OOM_VETO:
	case OW_OOM_FALLBACK:
		return LOG_NOTICE;
	default:
		return LOG_INFO;
	}
}

/* ------------------------------------------------- grants, for the kills */

static __s32 grant_nid(const struct oomwatch_event *g)
{
	return g->type == OW_OOM_GRANT ? g->grant.nid : g->thrash_grant.nid;
}

/* The node's last grant of this kind (OW_OOM_GRANT, OW_THRASH_GRANT). */
static struct oomwatch_event *find_grant(struct ow_journal *j,
					 unsigned int type, __s32 nid)
{
	unsigned int n = j->nr_grant < OW_JOURNAL_GRANTS ? j->nr_grant :
			 OW_JOURNAL_GRANTS;

	for (unsigned int i = 0; i < n; i++)
		if (j->grant[i].type == type && grant_nid(&j->grant[i]) == nid)
			return &j->grant[i];
	return NULL;
}

/* The node's previous grant of this kind is spent or superseded. */
static void remember_grant(struct ow_journal *j, const struct oomwatch_event *ev)
{
	struct oomwatch_event *g = find_grant(j, ev->type, grant_nid(ev));

	if (!g)
		g = &j->grant[j->nr_grant++ % OW_JOURNAL_GRANTS];
	*g = *ev;
}

/* ----------------------------------------------------------------- fields */

static void grant_fields(struct ow_journal_entry *e,
			 const struct oomwatch_event *g)
{
	char zones[256] = "";
	size_t used = 0;
	__u32 nr = g->grant.nr_zones < OOMWATCH_MAX_ZONES ?
		   g->grant.nr_zones : OOMWATCH_MAX_ZONES;

	ow_journal_add(e, "OOMWATCH_GRANT_UNRECLAIMABLE_MS=%u",
		       g->grant.unreclaimable_ms);
	ow_journal_add(e, "OOMWATCH_GRANT_LOOPING=%u", g->grant.looping);
	ow_journal_add(e, "OOMWATCH_GRANT_LOW_RECLAIMED=%llu",
		       (unsigned long long)g->grant.low_reclaimed);
	for (__u32 i = 0; i < nr && used < sizeof(zones); i++) {
		int len = snprintf(zones + used, sizeof(zones) - used, "%s%llu/%llu",
				   i ? " " : "",
				   (unsigned long long)g->grant.zone[i].free,
				   (unsigned long long)g->grant.zone[i].min);

		if (len < 0)
			break;
		used += len;
	}
	if (nr)
		ow_journal_add(e, "OOMWATCH_GRANT_ZONES=%s", zones);
}

static void thrash_fields(struct ow_journal_entry *e,
			  const struct oomwatch_event *g)
{
	ow_journal_add(e, "OOMWATCH_THRASH_MS=%u", g->thrash_grant.thrashing_ms);
	ow_journal_add(e, "OOMWATCH_THRASH_NEAR=%llu",
		       (unsigned long long)g->thrash_grant.near);
	ow_journal_add(e, "OOMWATCH_THRASH_FAULTED=%llu",
		       (unsigned long long)g->thrash_grant.faulted);
	ow_journal_add(e, "OOMWATCH_THRASH_REFAULTED=%llu",
		       (unsigned long long)g->thrash_grant.refaulted);
	ow_journal_add(e, "OOMWATCH_THRASH_ANON=%llu",
		       (unsigned long long)g->thrash_grant.anon);
	ow_journal_add(e, "OOMWATCH_THRASH_WINDOW_MS=%u",
		       g->thrash_grant.window_ms);
}

static const char *permit_name(unsigned int type)
{
	switch (type) {
	case OW_OOM_GRANT:
		return "grant";
	case OW_THRASH_TAKE:
		return "thrash_take";
	case OW_OOM_FALLBACK:
		return "fallback";
	default:
		return "none";
	}
}

static void kill_fields(struct ow_journal *j, struct ow_journal_entry *e,
			const struct oomwatch_event *ev,
			const struct ow_ep_step *st)
{
	const struct ow_ep_permit *p = &st->permit;
	const struct oomwatch_event *g;

	ow_journal_add(e, "OOMWATCH_VICTIM_PID=%u", ev->victim.pid);
	ow_journal_add(e, "OOMWATCH_VICTIM_COMM=%.*s", OOMWATCH_COMM_LEN,
		       ev->victim.comm);
	ow_journal_add(e, "OOMWATCH_VICTIM_RSS_KB=%llu",
		       (unsigned long long)(ev->victim.anon_rss_kb +
					    ev->victim.file_rss_kb +
					    ev->victim.shmem_rss_kb));
	ow_journal_add(e, "OOMWATCH_VICTIM_OOM_SCORE_ADJ=%d",
		       ev->victim.oom_score_adj);
	ow_journal_add(e, "OOMWATCH_CONSTRAINT=%s",
		       ow_constraint_name(ev->victim.constraint));
	ow_journal_add(e, "OOMWATCH_KILLER_PID=%u", ev->pid);
	ow_journal_add(e, "OOMWATCH_KILLER_COMM=%.*s", OOMWATCH_COMM_LEN,
		       ev->comm);
	if (!st->kill_global)
		return;
	ow_journal_add(e, "OOMWATCH_PERMIT=%s", permit_name(p->type));
	if (!p->type)
		return;
	ow_journal_add(e, "OOMWATCH_PERMIT_SEQ=%llu", p->seq);
	ow_journal_add(e, "OOMWATCH_NODE=%d", p->nid);
	if (p->type == OW_OOM_GRANT &&
	    (g = find_grant(j, OW_OOM_GRANT, p->nid)) && g->seq == p->seq)
		grant_fields(e, g);
	else if (p->type == OW_THRASH_TAKE &&
		 (g = find_grant(j, OW_THRASH_GRANT, p->nid)))
		thrash_fields(e, g);
}

static void request_fields(struct ow_journal_entry *e, __s32 nid, __u32 pid,
			   const char *comm)
{
	ow_journal_add(e, "OOMWATCH_NODE=%d", nid);
	ow_journal_add(e, "OOMWATCH_PID=%u", pid);
	if (comm)
		ow_journal_add(e, "OOMWATCH_COMM=%.*s", OOMWATCH_COMM_LEN, comm);
}

static void event_fields(struct ow_journal *j, struct ow_journal_entry *e,
			 const struct oomwatch_event *ev,
			 const struct ow_ep_step *st)
{
	ow_journal_add(e, "OOMWATCH_SEQ=%llu", (unsigned long long)ev->seq);
	switch (ev->type) {
	case OW_MARK_VICTIM:
		kill_fields(j, e, ev, st);
		break;
	case OW_OOM_GRANT:
		request_fields(e, ev->grant.nid, ev->grant.pid, NULL);
		grant_fields(e, ev);
		break;
	case OW_THRASH_GRANT:
		ow_journal_add(e, "OOMWATCH_NODE=%d", ev->thrash_grant.nid);
		thrash_fields(e, ev);
		break;
	case OW_THRASH_TAKE:
		request_fields(e, ev->take.nid, ev->take.pid, ev->take.comm);
		break;
	case OW_OOM_REQUEST:
		request_fields(e, ev->request.nid, ev->request.pid,
			       ev->request.comm);
		break;
	case OW_OOM_DEFER:
	case OW_OOM_VETO:
	case OW_OOM_FALLBACK:
		request_fields(e, ev->request.nid, ev->request.pid,
			       ev->request.comm);
		ow_journal_add(e, "OOMWATCH_REASON=%s",
			       ow_verdict_reason_name(ev->request.reason));
		break;
	default:
		break;
	}
}

/* --------------------------------------------------------------- sending */

static void send_entry(struct ow_journal *j, struct ow_journal_entry *e)
{
	int ret;

	if (e->truncated)
		j->truncated++;
	if (!j->send)
		return;
	ret = j->send(j->send_ctx, e->iov, e->n);
	if (ret < 0) {
		j->failed++;
		j->last_error = ret;
		return;
	}
	j->sent++;
}

/*
 * The text the timeline wrote since the last call, from the start of the
 * stream; the stream is rewound for the next one.  NULL when empty.
 */
static char *take_text(struct ow_journal *j, size_t *len)
{
	if (fflush(j->f) || !j->len)
		return NULL;
	*len = j->len;
	rewind(j->f);
	return j->text;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The fields every entry has; j->entry is reused, nothing is allocated. */
static struct ow_journal_entry *begin_entry(struct ow_journal *j,
					    const char *msg, int priority,
					    const char *event)
{
	struct ow_journal_entry *e = &j->entry;

	ow_journal_entry_init(e);
	ow_journal_add(e, "MESSAGE=%s", msg);
	ow_journal_add(e, "PRIORITY=%d", priority);
	ow_journal_add(e, "SYSLOG_IDENTIFIER=oomwatch");
	ow_journal_add(e, "OOMWATCH_EVENT=%s", event);
	return e;
}

/* One entry per non-empty line, with the event's or the invariant's fields. */
static void send_lines(struct ow_journal *j, char *text, size_t len,
		       const char *event, int priority,
		       const struct oomwatch_event *ev,
		       const struct ow_ep_step *st, const char *invariant)
{
	char *line = text, *end = text + len;

	while (line < end) {
		char *nl = memchr(line, '\n', end - line);
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
		const char *msg;

		line[n] = '\0';
		msg = skip_blanks(line);
		if (*msg) {
			struct ow_journal_entry *e =
				begin_entry(j, msg, priority, event);

			if (ev)
				event_fields(j, e, ev, st);
			if (invariant)
				ow_journal_add(e, "OOMWATCH_INVARIANT=%s",
					       invariant);
			send_entry(j, e);
		}
		line += n + 1;
	}
}

void ow_journal_event(struct ow_journal *j, const struct oomwatch_event *ev,
		      const struct ow_ep_step *st)
{
	size_t len;
	char *text;

	/* Remembered whether shown or not: a shown kill may use it. */
	if (ev->type == OW_OOM_GRANT || ev->type == OW_THRASH_GRANT)
		remember_grant(j, ev);
	text = take_text(j, &len);
	if (!text)
		return;
	send_lines(j, text, len, event_name(ev->type),
		   event_priority(ev->type), ev, st, NULL);
}

void ow_journal_violation(struct ow_journal *j, const struct ow_violation *v)
{
	size_t len;
	char *text = take_text(j, &len);

	if (text)
		send_lines(j, text, len, "violation", LOG_ERR, NULL, NULL,
			   v->name);
}

void ow_journal_note(struct ow_journal *j, const char *event, int priority)
{
	size_t len;
	char *text = take_text(j, &len);

	if (!text)
		return;
	while (len && text[len - 1] == '\n')
		len--;
	text[len] = '\0';
	send_entry(j, begin_entry(j, skip_blanks(text), priority, event));
}
