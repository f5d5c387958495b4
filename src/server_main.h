/* server_main.h — the top of the server (server_main.cpp): start-up, the
 * event loop's hooks, processCommand, shutdown and INFO. Redis keeps them
 * in server.c; they sit in the top layer here because they call the
 * mechanisms (tools/check_layers.sh). processCommand is declared in
 * server.h, for networking, which calls it. */
#pragma once

#include "ae.h"

/* The process's life: configuration, start-up, loading, then the event
 * loop until a shutdown; main() calls it. */
int serverMain(int argc, char **argv);

/* Runs before the event loop sleeps (aeSetBeforeSleepProc). */
void beforeSleep(aeEventLoop *el);
