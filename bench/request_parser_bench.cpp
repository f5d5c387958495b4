/* request_parser_bench.cpp — micro-benchmarks of the request parsers.
 *
 * Parse-only benchmarks call processMultibulkBuffer / processInlineBuffer on
 * a socketless client and rewind; the end-to-end one runs processInputBuffer
 * (parse, dispatch, reply) over a pipeline of 16 requests, as redis-benchmark
 * -P 16 sends them. Reported per request (items/s).
 */
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "commands.h"
#include "hooks.h"
#include "server.h"
#include "server_main.h"

namespace {

std::string multibulk(std::initializer_list<std::string> args) {
    std::string r = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string &a : args) r += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
    return r;
}

client *benchClient() {
    installServerHooks(); /* processInputBuffer runs commands through them; once */
    if (server.commands.empty()) initCommandTable();
    return createClient(nullptr);
}

/* Parses the same request again and again without running it. The bytes
 * are restored each time: the inline parser unescapes in place. */
template <int (*Parse)(client *)>
void parseOnly(benchmark::State &state, const std::string &req) {
    client *c = benchClient();
    c->querybuf.append(req);
    for (auto _ : state) {
        memcpy(c->querybuf.data(), req.data(), std::min<size_t>(req.size(), 64));
        c->req.pos = 0;
        int rc = Parse(c);
        benchmark::DoNotOptimize(rc);
        benchmark::DoNotOptimize(c->argv.data());
        resetClient(c);
    }
    state.SetItemsProcessed(state.iterations());
    freeClient(c);
}

void BM_MultibulkPing(benchmark::State &state) {
    parseOnly<processMultibulkBuffer>(state, multibulk({"PING"}));
}
void BM_MultibulkSet(benchmark::State &state) {
    parseOnly<processMultibulkBuffer>(state, multibulk({"SET", "key:000000012345", std::string(3, 'x')}));
}
void BM_MultibulkBulk(benchmark::State &state) {
    parseOnly<processMultibulkBuffer>(state, multibulk({"SET", "k", std::string(state.range(0), 'x')}));
    state.SetBytesProcessed(state.iterations() * state.range(0));
}
void BM_InlinePing(benchmark::State &state) { parseOnly<processInlineBuffer>(state, "PING\r\n"); }
void BM_InlineQuoted(benchmark::State &state) {
    parseOnly<processInlineBuffer>(state, "SET \"key with space\" 'value'\r\n");
}

/* Parse + dispatch + reply for a pipeline of 16, the output discarded. */
void BM_PipelineEcho16(benchmark::State &state) {
    client *c = benchClient();
    std::string pipeline;
    for (int i = 0; i < 16; i++) pipeline += multibulk({"ECHO", "hello"});
    for (auto _ : state) {
        c->querybuf.append(pipeline);
        processInputBuffer(c);
        c->bufpos = 0;
    }
    state.SetItemsProcessed(state.iterations() * 16);
    freeClient(c);
}

BENCHMARK(BM_MultibulkPing);
BENCHMARK(BM_MultibulkSet);
BENCHMARK(BM_MultibulkBulk)->Arg(64)->Arg(16 * 1024);
BENCHMARK(BM_InlinePing);
BENCHMARK(BM_InlineQuoted);
BENCHMARK(BM_PipelineEcho16);

}  // namespace

BENCHMARK_MAIN();
