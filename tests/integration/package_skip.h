/* package_skip.h — the one way a test skips for want of a package.
 *
 * `make test` installs what the tests need: the Debian packages of
 * tools/install_deps.sh test (redis-server, redis-tools, python3-rq...) and
 * the npm modules of tests/clients (named here "npm:<module>"). A test
 * that needs one begins with
 *     SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-cli"));
 * and without it skips, naming the package and the check that failed. Under
 * CI (CI=true in the environment) every package is installed by
 * construction, so such a skip would only hide a broken install: there it
 * fails the test, with the same message. Every skip of this kind goes
 * through this macro, so `grep -rn 'SKIP_UNLESS_PACKAGE\|REQUIRE_REDIS_REFERENCE'
 * tests` lists them; the other skips (GTEST_SKIP) are conditions of the
 * machine or of the build, which no install changes. (Redis's own suite
 * needs nothing but its binaries; its `needs:` tags skip what an external
 * server cannot do, the closest thing it has.)
 *
 * CPPREDIS_TEST_PRETEND_MISSING=<package>[,<package>...] makes packages
 * look missing, to see the skip (and its failure under CI) on a machine
 * that has them.
 */
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace itest {

/* CI=true: a missing package fails instead of skipping. */
inline bool packagesRequired() {
    const char *ci = std::getenv("CI");
    return ci != nullptr && std::string_view(ci) == "true";
}

/* Whether CPPREDIS_TEST_PRETEND_MISSING names `package`. */
inline bool pretendMissing(std::string_view package) {
    const char *list = std::getenv("CPPREDIS_TEST_PRETEND_MISSING");
    std::string_view rest = list ? list : "";
    while (!rest.empty()) {
        size_t comma = rest.find(',');
        if (rest.substr(0, comma) == package) return true;
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    return false;
}

inline std::string missingPackageMessage(std::string_view package, std::string_view check) {
    const bool npm = package.starts_with("npm:");
    std::string msg = "package " + std::string(package) + " is missing (" + std::string(check) + " is false; " +
                      (npm ? "`make test` runs npm ci in tests/clients" : "tools/install_deps.sh test installs it") +
                      ")";
    if (packagesRequired()) msg += ": under CI=true a missing package fails the test";
    return msg;
}

}  // namespace itest

#define SKIP_UNLESS_PACKAGE(package, present)                                      \
    do {                                                                           \
        if (::itest::pretendMissing(package) || !(present)) {                      \
            const std::string why_ = ::itest::missingPackageMessage(package, #present); \
            if (::itest::packagesRequired()) GTEST_FAIL() << why_;                 \
            GTEST_SKIP() << why_;                                                  \
        }                                                                          \
    } while (0)
