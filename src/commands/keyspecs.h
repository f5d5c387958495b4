/* keyspecs.h — Redis 7.0's key specifications (in Redis, part of commands.c):
 * which arguments of a command are keys and how it uses them (keyspecs.cpp,
 * generated from a running Redis 7 by src/commands/gen_keyspecs.py). Plain
 * data at the bottom of the layers, so the command table's rows
 * (networking.h's redisCommand) can point at them and the keyspace (db.cpp)
 * can walk them. */
#pragma once

#include <cstdint>
#include <span>
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

/* How a spec finds its first key (Redis's kspec_bs_type): at a fixed index,
 * or just after a keyword searched for from `startfrom` (forwards when
 * positive, backwards from the end when negative); UNKNOWN when only the
 * command's getkeys procedure can tell. */
enum kspec_bs_type { KSPEC_BS_INVALID = 0, KSPEC_BS_UNKNOWN, KSPEC_BS_INDEX, KSPEC_BS_KEYWORD };
/* How it finds the keys from there (Redis's kspec_fk_type): a range whose
 * last key is `lastkey` after the first (negative: counted from the end of
 * argv; -1 with `limit` N: the first 1/N of the remaining arguments), or
 * a count of keys read from the argument `keynumidx` after the begin. */
enum kspec_fk_type { KSPEC_FK_INVALID = 0, KSPEC_FK_UNKNOWN, KSPEC_FK_RANGE, KSPEC_FK_KEYNUM };

struct keySpec {
    int flags; /* CMD_KEY_* */
    kspec_bs_type begin_search_type;
    union {
        struct { int pos; } index;
        struct { const char *keyword; int startfrom; } keyword;
    } bs;
    kspec_fk_type find_keys_type;
    union {
        struct { int lastkey, keystep, limit; } range;
        struct { int keynumidx, firstkey, keystep; } keynum;
    } fk;
};

/* `fullname`'s key specs, in Redis's order; empty when it has no keys. */
std::span<const keySpec> commandKeySpecTable(std::string_view fullname);
