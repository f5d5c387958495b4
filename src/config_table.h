/* config_table.h — the configs' table (Redis's config.c, static_configs[]),
 * defined in config_table.cpp, which serverMain hands to initConfigValues
 * (config.h) at start-up. */
#pragma once

#include <span>

#include "config.h"

std::span<const standardConfig> standardConfigs();
/* Redis 7.0's directives cppredis refuses, with the reason (config.h). */
std::span<const refusedConfig> refusedConfigs();
