// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: the -p / -c output filter; filter.h states the rules.
 */
#include <string.h>
#include "filter.h"

void ow_filter_init(struct ow_filter *f, __u32 tgid, struct ow_cgroup_set *set,
		    bool can_refresh)
{
	memset(f, 0, sizeof(*f));
	f->tgid = tgid;
	f->set = set;
	f->can_refresh = can_refresh;
}

bool ow_filter_active(const struct ow_filter *f)
{
	return f->tgid || f->set;
}

static bool names_pid(const struct oomwatch_event *ev, __u32 p)
{
	if (ev->tgid == p || ev->pid == p)
		return true;
	switch (ev->type) {
	case OW_MARK_VICTIM:
		return ev->victim.pid == p;
	case OW_TASK_EXIT:
		return ev->exit.pid == p || ev->exit.tgid == p;
	case OW_WAKE_REAPER:
	case OW_FINISH_REAPING:
		return ev->reaper.pid == p;
	case OW_TOKEN_GRAB:
	case OW_TOKEN_RELEASE:
		return ev->token.tgid == p || ev->token.prev_tgid == p;
	case OW_TOKEN_KEPT:
	case OW_TOKEN_BYPASS:
		return ev->token_pass.reclaimer == p ||
		       ev->token_pass.holder_tgid == p;
	case OW_OOM_REQUEST:
	case OW_OOM_DEFER:
	case OW_OOM_VETO:
	case OW_OOM_FALLBACK:
		return ev->request.pid == p;
	case OW_OOM_GRANT:
		return ev->grant.pid == p;
	default:
		return false;
	}
}

static bool pid_ok(const struct ow_filter *f, const struct oomwatch_event *ev)
{
	return !f->tgid || names_pid(ev, f->tgid);
}

/* A miss may be a cgroup made after we looked: look once more, live. */
static bool in_set(struct ow_filter *f, __u64 id)
{
	if (ow_cgroup_contains(f->set, id))
		return true;
	return f->can_refresh && ow_cgroup_refresh(f->set) &&
	       ow_cgroup_contains(f->set, id);
}

static bool requester_ok(struct ow_filter *f, const struct ow_requester *who)
{
	if (!f->set)
		return true;
	if (!who || !who->known) {
		f->requests_unattributed++;
		return false;
	}
	return in_set(f, who->memcg_id);
}

static int find_req(const struct ow_filter *f, __u32 pid)
{
	for (unsigned int i = 0; i < f->nr_req; i++)
		if (f->req[i].pid == pid)
			return i;
	return -1;
}

static void drop_req(struct ow_filter *f, unsigned int i)
{
	f->req[i] = f->req[--f->nr_req];
}

static bool on_request(struct ow_filter *f, const struct oomwatch_event *ev,
		       const struct ow_requester *who)
{
	int i = find_req(f, ev->request.pid);
	bool shown;

	if (i >= 0)
		return f->req[i].shown;	/* asked again: decided then */
	shown = pid_ok(f, ev) && requester_ok(f, who);
	if (f->nr_req < OW_FILTER_MAX_REQUESTS) {
		f->req[f->nr_req].pid = ev->request.pid;
		f->req[f->nr_req].nid = ev->request.nid;
		f->req[f->nr_req].shown = shown;
		f->nr_req++;
	}
	return shown;
}

/* defer, veto, fallback: follow the request; veto and fallback end it. */
static bool on_verdict(struct ow_filter *f, const struct oomwatch_event *ev,
		       const struct ow_requester *who)
{
	int i = find_req(f, ev->request.pid);
	bool shown;

	if (i < 0)
		return pid_ok(f, ev) && requester_ok(f, who);
	shown = f->req[i].shown;
	if (ev->type != OW_OOM_DEFER)
		drop_req(f, i);
	return shown;
}

/* A grant is shown when it settles a shown request. */
static bool on_grant(struct ow_filter *f, const struct oomwatch_event *ev)
{
	bool tracked = false, shown = false;
	unsigned int i = 0;

	while (i < f->nr_req) {
		if (f->req[i].nid == ev->grant.nid ||
		    f->req[i].pid == ev->grant.pid) {
			tracked = true;
			shown |= f->req[i].shown;
			drop_req(f, i);
		} else {
			i++;
		}
	}
	if (!tracked)
		shown = pid_ok(f, ev) && !f->set;
	return shown;
}

bool ow_filter_event(struct ow_filter *f, const struct oomwatch_event *ev,
		     const struct ow_requester *who)
{
	if (!ow_filter_active(f))
		return true;
	switch (ev->type) {
	case OW_UNRECLAIMABLE_SET:
	case OW_UNRECLAIMABLE_CLEAR:
		return true;
	case OW_OOM_REQUEST:
		return on_request(f, ev, who);
	case OW_OOM_DEFER:
	case OW_OOM_VETO:
	case OW_OOM_FALLBACK:
		return on_verdict(f, ev, who);
	case OW_OOM_GRANT:
		return on_grant(f, ev);
	case OW_MARK_VICTIM:
		return pid_ok(f, ev) &&
		       (!f->set || in_set(f, ev->victim.memcg_id));
	default:
		return pid_ok(f, ev);
	}
}
