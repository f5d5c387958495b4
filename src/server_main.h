/* server_main.h — the top of the server (the top half of Redis's server.c):
 * start-up, the event loop's hooks, processCommand, shutdown and INFO, in
 * server_main.cpp. They sit in the top layer here because they call the
 * mechanisms (tools/check_layers.sh). Networking reaches processCommand
 * through the hook installServerHooks sets (hooks.cpp, networking.h). */
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

/* Runs the command in c->argv after the checks every command gets: what
 * networking calls for each parsed request (registerProcessCommand,
 * networking.h). */
int processCommand(client *c);
