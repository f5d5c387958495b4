/* config.h — configuration: redis.conf, command-line options and CONFIG.
 *
 * Mirrors Redis's config.c: one table of standard configs (config.cpp) says
 * for every directive its name, flags, type, the field of `server` it sets,
 * its default and bounds. The file loader, CONFIG GET and CONFIG SET all go
 * through that table, so adding a directive is adding one line to it.
 * Invariants:
 *  - A config's value is always the one in its `server` field: nothing is
 *    cached here.
 *  - CONFIG SET is atomic: either every pair is applied or none is.
 *  - Errors while loading the configuration are fatal: they are reported on
 *    stderr in Redis's format and the process exits with status 1.
 */
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct client;

/* Sets every config to its default, as Redis's initConfigValues(). */
void initConfigValues();

/* Loads `filename` (if not null), then `options`: directives, one per line,
 * that override the file (see parseCommandLine). Exits on any error. */
void loadServerConfig(const char *filename, const std::string &options);

/* redis-server's command line: an optional config file first, then
 * "--name value..." options turned into "name value..." lines for
 * loadServerConfig. --version and --help are the caller's business. */
void parseCommandLine(int argc, char **argv, std::string &configfile, std::string &options);

/* The logic of CONFIG GET / CONFIG SET, separate from the reply so it can be
 * used (and tested) without a client. configGet returns (name, value)
 * pairs for the configs matching any of the glob patterns, each once.
 * configSet takes name, value, name, value...; on failure it changes nothing
 * and sets `err` to Redis's error text (without the "ERR " prefix). */
std::vector<std::pair<std::string, std::string>> configGet(std::span<const std::string_view> patterns);
/* Configs marked protected (dir, dbfilename) are refused unless
 * `protected_allowed` (enable-protected-configs, checked by CONFIG SET). */
bool configSet(std::span<const std::string_view> name_value_pairs, std::string &err, bool protected_allowed = true);

/* CONFIG subcommands; the command table is in commands.cpp. */
void configGetCommand(client *c);
void configSetCommand(client *c);
void configResetStatCommand(client *c);
void configHelpCommand(client *c);

/* Zeroes INFO's statistics (server.cpp). */
extern void resetServerStats();
