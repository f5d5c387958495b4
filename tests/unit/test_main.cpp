/* test_main.cpp — the unit tests' main: the server's hooks first
 * (installServerHooks, hooks.h), as main does, so that the tests run
 * the library wired as the server runs it; then every GoogleTest test. */
#include <gtest/gtest.h>

#include "hooks.h"

int main(int argc, char **argv) {
    installServerHooks();
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
