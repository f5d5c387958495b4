/* setproctitle.h — the process title (Redis's setproctitle.c, for Linux): what
 * ps and /proc/<pid>/cmdline show.
 *
 * Linux has no setproctitle(): the title is the memory holding argv's
 * strings, followed by the environment's. spt_init moves the environment
 * to memory of its own and keeps argv's copies for whoever still needs
 * them, so that the whole area can take a title as long as the original
 * command line and environment together. Invariants:
 *  - After spt_init, nothing reads the original argv[] strings again.
 *  - The title is always NUL-terminated and the rest of the area zeroed,
 *    so that the kernel reads no leftover of a longer earlier title.
 */
#pragma once

#include <string_view>

/* Takes the area of argv (and of the environment right after it). */
void spt_init(int argc, char **argv);
/* Writes `title` over the area, cut to its size; nothing before spt_init. */
void setproctitle(std::string_view title);
