/* keyspecs.h — the key specifications COMMAND INFO and COMMAND DOCS show
 * (keyspecs.cpp, generated from Redis 7.0's command JSON by
 * tools/gen_keyspecs.py). */
#pragma once

#include <string_view>

/* The RESP array of `fullname`'s key specs ("get", "config|get"). */
std::string_view commandKeySpecs(std::string_view fullname);
