/* subprocess.h — running a script of the repository (a queue library's end
 * to end run, the docs' excerpt check) from a test, and reading what it
 * printed. */
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

namespace itest {

/* The repository's top directory, found from this file's path
 * (tests/integration/subprocess.h). */
inline std::filesystem::path repoDir() {
    return std::filesystem::absolute(std::filesystem::path(__FILE__)).parent_path().parent_path().parent_path();
}

/* Runs `command` through the shell; its output (stdout and stderr) goes to
 * *output. Returns the exit status, -1 if it did not exit normally. */
inline int runCommand(const std::string &command, std::string *output) {
    FILE *p = popen((command + " 2>&1").c_str(), "r");
    if (!p) return -1;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) output->append(buf.data(), n);
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace itest
