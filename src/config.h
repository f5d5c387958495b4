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

/* ------------------------------------------------------------------------
 * Configs whose meaning belongs to a module above config (the layer rule,
 * tools/check_layers.sh: config may not include it). The config keeps its
 * row in config.cpp's table (name, flags, default, place in CONFIG GET's
 * order); the module fills in its functions by the config's name, from a
 * static initializer of its own file, so they are there before the
 * defaults are set. The file must be one every binary links (the command
 * table names its commands, or the commands call it). In Redis, config.c
 * names these functions itself.
 *   appendonly              apply: start or stop the AOF (aof.cpp, whose
 *                           BGREWRITEAOF is in the command table)
 *   notify-keyspace-events  parser and printer of its letters (notify.cpp,
 *                           which the commands that change keys call)
 * Both return true, for the static initializer; a name not in the table
 * aborts.
 * ---------------------------------------------------------------------- */

/* What a parser did: CONFIG SET applies a config only after a change. */
enum class configSetResult { Error, Changed, Unchanged };
/* Parses `args` (one word, or the words of a multi-word config) into the
 * config's field; on Error, `err` says why, in Redis's words. */
using configSetProc = configSetResult (*)(std::span<const std::string> args, std::string &err);
/* The value as CONFIG GET prints it; the parser accepts it back. */
using configGetProc = std::string (*)();
/* Makes a CONFIG SET change take effect; false with *err (or null) refuses
 * it, and every config of that CONFIG SET is restored. */
using configApplyProc = bool (*)(const char **err);
bool registerConfigApply(const char *name, configApplyProc apply);
bool registerSpecialConfig(const char *name, configSetProc set, configGetProc get);

/* Zeroes INFO's statistics (server.cpp). */
extern void resetServerStats();
