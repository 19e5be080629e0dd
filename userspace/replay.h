/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch --replay: a recording through the same session as a live run,
 * with no BPF at all, on any machine.  The checker is held to the
 * configuration in the recording's header, not to this machine's.
 */
#ifndef OW_REPLAY_H
#define OW_REPLAY_H

#include <stdio.h>
#include "cli.h"

/*
 * Returns an enum ow_exit: OW_EXIT_SETUP for an unreadable, empty,
 * malformed or truncated file ("FILE:LINE: why" on err, nothing after
 * it), OW_EXIT_VIOLATION under --assert, else OW_EXIT_OK.
 */
int ow_replay(const struct ow_cli *cli, FILE *out, FILE *err);

#endif /* OW_REPLAY_H */
