/* main.cpp — the process entry point. It only calls serverMain() (server.cpp):
 * keeping main() in its own file lets the unit tests link every other
 * object of the server. */
#include "server.h"

int main(int argc, char **argv) { return serverMain(argc, argv); }
