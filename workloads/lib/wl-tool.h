/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host programs on the tools disk (harness/vm/disks.h): /tools/bin/PROGRAM
 * with its libraries in /tools/lib, run through the disk's own dynamic
 * loader, never through a shell.
 */
#ifndef LRUBENCH_WL_TOOL_H
#define LRUBENCH_WL_TOOL_H

#include <sys/resource.h>

#define WL_TOOLS_DIR "/tools"
#define WL_TOOLS_LOADER WL_TOOLS_DIR "/lib/ld-linux-x86-64.so.2"

/*
 * Run tool with args (NULL-terminated) in cwd; its stdout is captured in
 * *ret_out (NUL-terminated, at most 64 MiB), its stderr is ours. On return
 * 0, *ret_status is its exit status (128 + N if killed by signal N) and
 * *ret_ru its resource usage (major faults, blocks read) from wait4().
 */
int wl_tool_run(const char *tool, const char *const args[], const char *cwd, char **ret_out,
		int *ret_status, struct rusage *ret_ru);

#endif
