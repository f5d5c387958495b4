/* function_lua.h — the Lua engine of functions (Redis's function_lua.c): see function_lua.cpp. */
#pragma once

/* Creates the engine's interpreter and registers it as "LUA" (functions.h). */
void luaEngineInitEngine();
