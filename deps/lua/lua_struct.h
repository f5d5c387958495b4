/* lua_struct.h — Lua's `struct` (Redis's deps/lua/src/lua_struct.c):
 * struct.pack / unpack / size, values to and from binary strings laid out
 * like C structs, which Redis bundles and Debian does not package; written
 * here as Lua C functions.
 *
 * luaopen_struct leaves the library table on the stack, as Lua's own
 * luaopen_* do (scripting registers it as a global). Invariant: its
 * functions raise Lua errors, which unwind with longjmp, so no C++ object
 * with a destructor is alive while they call into the Lua API.
 */
#pragma once

#include <lua.hpp>

int luaopen_struct(lua_State *L);
