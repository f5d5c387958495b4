/* server_main.h — the top of the server (server_main.cpp): start-up, the
 * event loop's hooks, processCommand, shutdown and INFO. Redis keeps them
 * in server.c; they sit in the top layer here because they call the
 * mechanisms (tools/check_layers.sh). Networking reaches processCommand
 * through the function it registers (networking.h). */
#pragma once

#include "ae.h"

struct client;

/* The process's life: configuration, start-up, loading, then the event
 * loop until a shutdown; main() calls it. */
int serverMain(int argc, char **argv);

/* Populates the command table (commands.h) with this file's commands in
 * it: start-up does, and so do tests before they run commands. */
void initCommandTable();

/* Runs before the event loop sleeps (aeSetBeforeSleepProc). */
void beforeSleep(aeEventLoop *el);

/* SHUTDOWN, INFO and RESET (the command table is in commands.cpp, which
 * initCommandTable hands them to). RESET
 * is here, not in networking.cpp as in Redis, because it undoes the state
 * of the mechanisms above networking (transactions, pub/sub, tracking,
 * MONITOR, the ACL user). */
void shutdownCommand(client *c);
void infoCommand(client *c);
void resetCommand(client *c);
