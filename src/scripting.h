/* scripting.h — Lua scripting: EVAL and the script cache (Redis's eval.c /
 * script_lua.c). Work in progress. */
#pragma once
