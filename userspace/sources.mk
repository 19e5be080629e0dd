# oomwatch's user-space sources, for every build of the tool: the static
# guest binary (Makefile) and the Debian package's (debian/rules).
OW_USERSPACE_SRCS := userspace/oomwatch.c userspace/cli.c \
	userspace/session.c userspace/replay.c userspace/output.c \
	userspace/svg.c userspace/filter.c userspace/cgroup.c \
	userspace/preflight.c userspace/reorder.c userspace/trace.c \
	userspace/checker.c userspace/stats.c userspace/episodes.c \
	userspace/journal.c userspace/metrics.c userspace/xml.c
