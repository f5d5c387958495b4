/* lua_libs.h — the Lua libraries Redis bundles in deps/lua that Debian does
 * not package, written here as Lua C functions:
 *
 *   struct    (lua_struct.cpp)    struct.pack / unpack / size: values to and
 *                                 from binary strings laid out like C structs
 *   cmsgpack  (lua_cmsgpack.cpp)  cmsgpack.pack / unpack / unpack_one /
 *                                 unpack_limit: MessagePack
 *
 * Each luaopen_* leaves its library table on the stack, as Lua's own
 * luaopen_* do (scripting registers it as a global). cjson and bit come from
 * Debian (lua-cjson-dev, lua-bitop-dev) and are opened the same way.
 *
 * Invariant of both files: their functions raise Lua errors, which unwind
 * with longjmp, so no C++ object with a destructor is alive while they call
 * into the Lua API.
 */
#pragma once

#include <lua.hpp>

int luaopen_struct(lua_State *L);
int luaopen_cmsgpack(lua_State *L);
