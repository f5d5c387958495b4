/* commands.h — the command table (Redis 7.0's commands.c, generated from the
 * JSON files of its src/commands) and COMMAND, which describes it (in Redis's
 * server.c); both are in commands.cpp. */
#pragma once

struct client;

/* The commands server_main.cpp implements (INFO, SHUTDOWN, RESET: they
 * read or undo the state of every layer), handed in by it: it populates
 * the table, so the table cannot include it without an include cycle. */
struct serverMainCommandProcs {
    void (*info)(client *c);
    void (*shutdown)(client *c);
    void (*reset)(client *c);
};

/* Builds the table, links subcommands to their parent, adds the ACL
 * categories the flags imply, and indexes every command by name in
 * server.commands: once, at start-up (initCommandTable in server_main.h,
 * which tests call too). */
void populateCommandTable(const serverMainCommandProcs &procs);

/* COMMAND and its subcommands (the command table is in commands.cpp). */
void commandCommand(client *c);
void commandCountCommand(client *c);
void commandInfoCommand(client *c);
void commandDocsCommand(client *c);
void commandListCommand(client *c);
void commandGetKeysCommand(client *c);
void commandGetKeysAndFlagsCommand(client *c);
void commandHelpCommand(client *c);
