/* setproctitle.cpp — the process title (Redis's setproctitle.c); see
 * setproctitle.h. */
#include "setproctitle.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

char *title_begin = nullptr; /* argv[0] */
char *title_end = nullptr;   /* one past the last byte of the area */

/* The environment's copies and the array `environ` points to from then on,
 * owned here for the life of the process as the originals were: unsetenv
 * (supervised upstart's UPSTART_JOB) drops a pointer from the array but
 * frees no string, so the copies must stay reachable from here. Destroyed
 * only as the process exits: the environment is emptied first, so nothing
 * that still runs (another static's destructor) reads a freed copy. */
struct movedEnviron {
    std::vector<std::string> copies;
    std::vector<char *> array;
    ~movedEnviron() {
        if (!array.empty()) environ = nullptr;
    }
} moved_environ;

}  // namespace

void spt_init(int argc, char **argv) {
    if (argc < 1 || !argv[0]) return;
    /* The area is argv's strings then environ's, as long as each begins
     * right after the previous one ends. */
    char *end = argv[0] + strlen(argv[0]) + 1;
    for (int i = 1; i < argc; i++)
        if (argv[i] == end) end = argv[i] + strlen(argv[i]) + 1;
    size_t envc = 0;
    while (environ[envc]) envc++;
    for (size_t i = 0; i < envc; i++)
        if (environ[i] == end) end = environ[i] + strlen(environ[i]) + 1;
    /* The environment moves out: setenv/getenv keep working on the copies
     * (reserved first, so no copy moves once the array points into it). */
    moved_environ.copies.reserve(envc);
    for (size_t i = 0; i < envc; i++) moved_environ.copies.emplace_back(environ[i]);
    for (std::string &var : moved_environ.copies) moved_environ.array.push_back(var.data());
    moved_environ.array.push_back(nullptr);
    environ = moved_environ.array.data();
    title_begin = argv[0];
    title_end = end;
}

void setproctitle(std::string_view title) {
    if (!title_begin) return;
    size_t room = static_cast<size_t>(title_end - title_begin) - 1; /* the NUL */
    size_t len = std::min(title.size(), room);
    memcpy(title_begin, title.data(), len);
    memset(title_begin + len, 0, static_cast<size_t>(title_end - title_begin) - len);
}
