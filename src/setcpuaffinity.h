/* setcpuaffinity.h — binding the calling thread to a list of CPUs (Redis's
 * setcpuaffinity.c, for Linux), for server_cpulist, bio_cpulist,
 * aof_rewrite_cpulist and bgsave_cpulist; and Redis's redisSetCpuAffinity
 * (server.c there), which logs a refused list: so this sits above the log.
 *
 * The list is taskset's: CPU numbers, ranges and ranges with a stride,
 * separated by commas ("0,2,3", "0,2-3", "0-20:2").
 */
#pragma once

#include <string>
#include <string_view>

/* Binds the calling thread (a process's first thread: the process, and the
 * threads it starts later) to `cpulist`. False, and nothing changed, if the
 * list does not parse or the kernel refuses it (errno set then). */
bool setcpuaffinity(std::string_view cpulist);

/* Redis's redisSetCpuAffinity: the calling thread on the CPUs of one of
 * the *_cpulist configs ("" leaves it alone); a list the kernel refuses or
 * that does not parse is logged. */
void redisSetCpuAffinity(const std::string &cpulist);
