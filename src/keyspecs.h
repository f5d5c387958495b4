/* keyspecs.h — the key specifications COMMAND INFO and COMMAND DOCS show
 * (keyspecs.cpp, generated from Redis 7.0's command JSON by
 * tools/gen_keyspecs.py). */
#pragma once

#include <cstdint>
#include <string_view>

/* The RESP array of `fullname`'s key specs ("get", "config|get"). */
std::string_view commandKeySpecs(std::string_view fullname);

/* Key-spec flags (Redis 7.0's CMD_KEY_*, same bits): how a command uses a
 * key. ACL's %R~/%W~ patterns compare them with the user's permissions. */
constexpr int CMD_KEY_RO = 1 << 0;             /* read only */
constexpr int CMD_KEY_RW = 1 << 1;             /* read and write */
constexpr int CMD_KEY_OW = 1 << 2;             /* overwrite, not read */
constexpr int CMD_KEY_RM = 1 << 3;             /* deletes the key */
constexpr int CMD_KEY_ACCESS = 1 << 4;         /* returns, copies or uses the value */
constexpr int CMD_KEY_UPDATE = 1 << 5;         /* updates the value */
constexpr int CMD_KEY_INSERT = 1 << 6;         /* adds data, changes nothing existing */
constexpr int CMD_KEY_DELETE = 1 << 7;         /* removes data */
constexpr int CMD_KEY_NOT_KEY = 1 << 8;        /* a name that is not a key (a channel...) */
constexpr int CMD_KEY_INCOMPLETE = 1 << 9;     /* the spec may miss keys: use getkeys_proc */
constexpr int CMD_KEY_VARIABLE_FLAGS = 1 << 10; /* the flags depend on the arguments */
