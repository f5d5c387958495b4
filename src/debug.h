/* debug.h — DEBUG, the command of tests and of the curious (Redis's debug.c). */
#pragma once

struct client;

/* DEBUG (the command table is in commands.cpp; the subcommands are in debug.cpp). */
void debugCommand(client *c);
