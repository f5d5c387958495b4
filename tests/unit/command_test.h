/* command_test.h — the fixture for unit tests that run commands without
 * sockets: the server state commands need (the command table, the
 * databases, an event loop for time events), and socketless clients
 * (createClient(nullptr)) fed inline commands as if read from their socket, the
 * replies read back from their buffers.
 *
 * A fixture derives from CommandTest and calls freeClients() first in its
 * TearDown (before checking that nothing was left behind): clients a test
 * did not free itself are freed there. */
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "commands.h"
#include "server.h"
#include "server_main.h"

class CommandTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (server.commands.empty()) initCommandTable();
        server.verbosity = LL_WARNING;
        if (!server.db) initDatabases();
        if (!server.el) server.el = aeCreateEventLoop(128);
    }

    client *newClient() {
        clients_.push_back(createClient(nullptr));
        return clients_.back();
    }
    void freeOne(client *c) {
        std::erase(clients_, c);
        freeClient(c);
    }
    void freeClients() {
        for (client *c : clients_) freeClient(c);
        clients_.clear();
    }
    /* Runs inline commands as if read from c's socket; returns what c has
     * been replied so far, and forgets it. */
    static std::string run(client *c, const std::string &lines) {
        c->querybuf.append(lines);
        processInputBuffer(c);
        return takeOutput(c);
    }
    static std::string takeOutput(client *c) {
        std::string out = clientOutputBytes(c);
        c->bufpos = 0;
        c->sentlen = 0;
        c->reply.clear();
        c->reply_bytes = 0;
        return out;
    }

    std::vector<client *> clients_;
};
