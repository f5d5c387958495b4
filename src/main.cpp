/* main.cpp — the process entry point (Redis's main(), in server.c). It only
 * calls serverMain() (server_main.cpp, where start-up and the event loop's
 * wiring are): keeping main() in its own file lets the unit tests link every
 * other object of the server. */
#include "server_main.h"

int main(int argc, char **argv) { return serverMain(argc, argv); }
