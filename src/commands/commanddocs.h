/* commanddocs.h — COMMAND DOCS of each command (in Redis 7.0, commands.c's):
 * Redis 7.0's docs, in commanddocs.cpp, generated from a running Redis 7 by
 * src/commands/gen_commanddocs.py. Plain data at the bottom of the layers,
 * like the key specs. */
#pragma once

#include <string_view>

/* The fields of a command's COMMAND DOCS map, "subcommands" excepted: how
 * many, and their RESP. */
struct commandDocs {
    long fields;
    std::string_view resp;
};

/* `fullname`'s docs ("get", "config|get"); nullptr for a command Redis
 * lacks. */
const commandDocs *lookupCommandDocs(std::string_view fullname);
