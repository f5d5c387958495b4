/* debug.h — DEBUG, the command of tests and of the curious (Redis's debug.c). */
#pragma once

struct client;

/* DEBUG (the command table is in commands.cpp; the subcommands are in debug.cpp). */
void debugCommand(client *c);

/* Redis's debugDelay, which the loaders call after each key when
 * `key-load-delay` is not 0 (tests slow a load down with it): a positive
 * `usec` sleeps that many microseconds; a negative one sleeps 1 µs with
 * probability 1/-usec (on average 1/-usec µs a call), as a sleep shorter
 * than a system call cannot be had otherwise. */
void debugDelay(int usec);
