/* main.cpp — the process entry point (Redis's main(), in server.c). It
 * installs the hooks through which the lower layers call up (hooks.cpp),
 * before anything runs — the config's directives are among them — then
 * calls serverMain() (server_main.cpp, where start-up and the event loop's
 * wiring are): keeping main() in its own file lets the unit tests link every
 * other object of the server, with a main of their own that installs the
 * same hooks (tests/unit/test_main.cpp). */
#include "hooks.h"
#include "server_main.h"

int main(int argc, char **argv) {
    installServerHooks();
    return serverMain(argc, argv);
}
