/* commanddocs.h — Redis 7.0's COMMAND DOCS of each command (commanddocs.cpp,
 * generated from a running Redis 7 by src/commands/gen_commanddocs.py). Plain data
 * at the bottom of the layers, like the key specs. */
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
