/* lua_cmsgpack.h — Lua's `cmsgpack` (Redis's deps/lua/src/lua_cmsgpack.c):
 * cmsgpack.pack / unpack / unpack_one / unpack_limit, MessagePack, which
 * Redis bundles and Debian does not package; written here as Lua C
 * functions. (cjson and bit come from Debian: lua-cjson-dev,
 * lua-bitop-dev.)
 *
 * luaopen_cmsgpack leaves the library table on the stack, as Lua's own
 * luaopen_* do (scripting registers it as a global). Invariant: its
 * functions raise Lua errors, which unwind with longjmp, so no C++ object
 * with a destructor is alive while they call into the Lua API.
 */
#pragma once

#include <lua.hpp>

int luaopen_cmsgpack(lua_State *L);
