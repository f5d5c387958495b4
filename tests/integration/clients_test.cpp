/* clients_test.cpp — real queue libraries end to end against cppredis
 * (issue 15): python-rq (Debian's python3-rq 1.13, which stores each job's
 * result with XADD ... MAXLEN ~ once the server says it is Redis >= 5) and
 * BullMQ 5 (npm; its Lua scripts write an event stream with XADD/XTRIM and
 * its QueueEvents read it with XREAD BLOCK). Each runs its script from
 * tests/clients/ against a cppredis started here, with several workers at
 * once, and the script checks that every job ran exactly once and left its
 * result; the test passes when the script says so (exit status 0).
 *
 * A library that is not installed skips its test, as the Redis reference
 * does elsewhere: `apt-get install python3-rq` and `npm ci --prefix
 * tests/clients` (make test does the latter) provide them. */
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "integration/harness.h"
#include "integration/subprocess.h"

using namespace itest;

namespace {

std::filesystem::path clientsDir() { return repoDir() / "tests" / "clients"; }

TEST(Clients, PythonRqRunsEveryJobOnceWithItsResult) {
    std::string ignored;
    if (runCommand("/usr/bin/python3 -c 'import rq'", &ignored) != 0) GTEST_SKIP() << "python3-rq is not installed";
    TestServer srv;
    std::string out;
    int rc = runCommand("/usr/bin/python3 " + (clientsDir() / "rq_e2e.py").string() + " " + std::to_string(srv.port()) +
                     " 200 3",
                 &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("200 finished exactly once with their result"), std::string::npos) << out;
}

TEST(Clients, BullmqRunsEveryJobOnceWithItsResult) {
    if (!std::filesystem::exists(clientsDir() / "node_modules" / "bullmq"))
        GTEST_SKIP() << "BullMQ is not installed (npm ci --prefix tests/clients)";
    TestServer srv;
    std::string out;
    int rc = runCommand("node " + (clientsDir() / "bullmq_e2e.mjs").string() + " " + std::to_string(srv.port()) + " 200 2 4",
                 &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("200 completed exactly once with their result, 200 completed events"), std::string::npos)
        << out;
}

}  // namespace
