/* setproctitle.cpp — see setproctitle.h. */
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
    /* The environment moves out: setenv/getenv keep working on the copies.
     * The copies live as long as the process, as the originals did. */
    char **new_environ = static_cast<char **>(calloc(envc + 1, sizeof(char *)));
    if (!new_environ) return;
    for (size_t i = 0; i < envc; i++) {
        new_environ[i] = strdup(environ[i]);
        if (!new_environ[i]) return; /* the area stays argv's: no title */
    }
    environ = new_environ;
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
