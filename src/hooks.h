/* hooks.h — the wiring: where the lower layers get the functions of the
 * layers above that they call (tools/check_layers.sh). Redis calls these
 * directly, across files; here a lower layer defines a hook (networking.h,
 * db.h, object.h, server.h, config.h) and installServerHooks, in the top
 * layer, fills every one, in one place.
 *
 * Invariants:
 *  - it runs before anything else of the library: first in main (main.cpp), and
 *    first in the main of every test, benchmark and fuzz target that runs
 *    commands (tests/unit/test_main.cpp);
 *  - no hook is filled anywhere else: no static initializer registers
 *    anything, so what runs does not depend on which objects the linker
 *    pulls out of the library, nor on their order.
 */
#pragma once

/* Fills every hook, in the order hooks.cpp lists them; a second call does
 * nothing. */
void installServerHooks();
