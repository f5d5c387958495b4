/* script_lua.h — the Lua side of scripting (Redis's script_lua.c): the
 * interpreter scripts run in, the `redis` library they call, and the
 * conversions between RESP replies and Lua values. scripting.cpp (EVAL, the
 * script cache, busy scripts) drives it.
 *
 * The interpreter is Redis 7's sandbox:
 *  - libraries base (without print, dofile, loadfile, setfenv, getfenv,
 *    newproxy), table, string, math (random/randomseed replaced by Redis's
 *    deterministic generator), cjson, bit, struct, cmsgpack, and `redis`;
 *    no os, io, debug, package; binary chunks are refused;
 *  - pcall hands back the message of an error table ({err=...}) as a string;
 *  - every table reachable from the globals is read-only ("Attempt to modify
 *    a readonly table") and reading an undefined global is an error ("Script
 *    attempted to access nonexistent global variable"). Redis patches Lua
 *    with read-only tables; Debian's Lua has none, so each protected table T
 *    is replaced by an empty proxy whose metatable reads through to T and
 *    refuses writes, and the few functions that bypass metatables (rawset,
 *    rawget, next, pairs, setmetatable, getmetatable, table.insert) see
 *    through proxies or refuse them. The globals the scripts see
 *    are the proxy of the real globals table, where only KEYS and ARGV are
 *    set, by EVAL.
 *
 * Conversions (Redis's rules, RESP2):
 *   reply -> Lua   integer -> number; bulk -> string; null bulk or null
 *                  array -> false; status -> {ok=s}; error -> {err=s};
 *                  array -> table 1..n
 *   Lua -> reply   string -> bulk; number -> integer (truncated); true -> 1;
 *                  false, nil -> null bulk; table with a string err -> error,
 *                  with a string ok -> status, {double=n}, {big_number=s},
 *                  {verbatim_string={format=,string=}} -> bulk, {map=t} and
 *                  {set=t} -> flat arrays, other tables -> array of t[1..]
 *                  up to the first nil.
 *
 * Lua reports errors with longjmp: a C function called by Lua keeps no C++
 * object with a destructor alive while it may raise one, and the conversions
 * run outside any protected call read tables raw (no metamethod can raise).
 */
#pragma once

#include <span>
#include <string_view>

#include <lua.hpp>

struct client;
struct scriptRunCtx;

/* A new interpreter with Redis's libraries, the `redis` API and the sandbox. */
lua_State *luaCreateScriptingState();

/* Compiles a script body (its chunk name is "@user_script", as Redis's) and
 * keeps the function in the registry: its reference, or LUA_NOREF after
 * replying "Error compiling script (new function): ..." to `c`. */
int luaCompileScript(lua_State *L, client *c, std::string_view body);

/* Runs the function `fref`, replying its result (or its error) to the
 * run's caller: an EVAL script (SCRIPT_EVAL_MODE) with the globals KEYS and
 * ARGV set, a function with the keys and args tables as its two arguments.
 * The count hook keeps the server responsive past busy-reply-threshold. */
void luaCallFunction(scriptRunCtx *run_ctx, lua_State *L, int fref, std::span<const std::string_view> keys,
                     std::span<const std::string_view> args);

/* Compiles `text` as the chunk `chunkname` (binary chunks refused): 0 and
 * the function pushed, or Lua's error code and its message pushed. */
int luaLoadText(lua_State *L, std::string_view text, const char *chunkname);

/* For another environment in the same sandbox (the functions' load-time
 * API): makes reading a missing field of the table on top an error
 * ("Script attempted to access nonexistent global variable"), and replaces
 * the table on top by its read-only proxy, the tables it holds too. */
void luaSetErrorMetatable(lua_State *L);
void luaSetTableProtectionRecursively(lua_State *L);

/* One RESP2 or RESP3 reply (complete, as a command produced it) pushed as
 * a Lua value; returns where the reply ends. RESP3's types become what
 * Redis gives scripts: null -> nil, boolean -> boolean, map -> {map={k=v}},
 * set -> {set={m=true}}, double -> {double=n}, big number -> {big_number=s},
 * verbatim -> {verbatim_string={format=f, string=s}}; attributes are
 * skipped. */
const char *redisProtocolToLuaType(lua_State *L, const char *reply);

/* Replies the Lua value on top of the stack to `c` and pops it. The table
 * forms above are replied typed by c's protocol; a boolean depends on the
 * protocol the script chose (`script_resp`): under 2, true is 1 and false
 * nil, under 3 a boolean. */
void luaReplyToRedisReply(client *c, int script_resp, lua_State *L);

/* The bytes the interpreter holds (Lua's own count, in whole KB), for INFO's
 * used_memory_vm_eval and used_memory_vm_functions. */
size_t luaMemory(lua_State *L);

/* Pushes {err="CODE message"}: "-CODE message" keeps its code, a message
 * without one gets ERR. */
void luaPushError(lua_State *L, std::string_view err);
