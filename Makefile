# cppredis build.
#   make            release server: build/cppredis-server (-O2)
#   make run        build, then start it with ./redis.conf
#   make test       check the layer rule, build and run every GoogleTest suite, check the generated
#                   command tables, then the suites again under ASan+UBSan
#                   (first installing tests/clients' npm packages: BullMQ, node-redis)
#                   run and test first install the Debian packages they lack (tools/install_deps.sh:
#                   as root; as another user it prints the sudo apt-get line and stops)
#   make install    copy the server to $(PREFIX)/bin/cppredis-server (PREFIX=/usr/local); make uninstall
#   make check-layers   only the layer rule of src/ (tools/check_layers.sh)
#   make check-commands  the generated command tables are current (src/commands/check_generated.sh)
#   make bench      build and run the Google Benchmark micro-benchmarks
#   make fuzz       build the libFuzzer targets (clang, ASan+UBSan) into build/fuzz; tests/fuzz/run.sh runs them
#   make AE_BACKEND=poll   choose the event-loop backend (epoll | poll | kqueue)
#
# Every src/*.cpp except main.cpp goes into a static library that the server
# and the unit tests link, so tests exercise the very objects the server runs.

UNAME_S := $(shell uname -s)
ifeq ($(UNAME_S),Linux)
  AE_BACKEND ?= epoll
else
  AE_BACKEND ?= kqueue
endif

BUILD     ?= build
CXX       ?= g++
OPT       ?= -O2
SANITIZE  ?=
CXXFLAGS  ?=
# Full debug information by default (gdb), without GCC's variable-tracking
# assignments: they refine where an optimized-out local lives, and cost a
# fifth of a cold build's CPU (C++'s inline code makes them dearer than in
# Redis's C); the machine code is the same either way. `make DEBUG=-g` for
# them. `make test` asks for line tables only (-g1), enough for sanitizer
# and perf reports and ~40 % faster to compile.
DEBUG     ?= -g -fno-var-tracking-assignments
CXXFLAGS  += -std=c++20 $(OPT) $(DEBUG) -Wall -Wextra -MMD -MP $(SANITIZE)
CPPFLAGS  += -Isrc -Ideps -DAE_BACKEND_$(shell echo $(AE_BACKEND) | tr a-z A-Z)
LDFLAGS   += $(SANITIZE)
LDLIBS    += -lpthread
# Persistence compresses strings with LZF (as Redis's rdbcompression);
# scripting embeds Lua 5.1 with the cjson and bit libraries Redis loads.
CPPFLAGS  += -I/usr/include/lua5.1
LDLIBS    += -llzf -llua5.1-cjson -llua5.1-bitop -llua5.1
# TLS (src/tls.cpp) over OpenSSL: Debian's libssl-dev.
LDLIBS    += -lssl -lcrypto

# jemalloc, as Redis uses it, so memory per key compares like for like;
# sanitized builds keep the sanitizer's allocator. MALLOC=libc to opt out.
ifeq ($(SANITIZE),)
  MALLOC ?= jemalloc
else
  MALLOC := libc
endif
ifeq ($(MALLOC),jemalloc)
  CPPFLAGS += -DUSE_JEMALLOC
  LDLIBS   += -ljemalloc
endif

# src/commands/ holds the generated command tables (Redis's own place for
# them); deps/ the libraries Redis bundles in its deps/ (Lua's struct and
# cmsgpack).
# The slowest files to compile first (g++ -O2, per-file times of a cold
# build): make starts prerequisites in the order they are listed, so with
# these ahead no long compilation is left alone at the end of `make -j2`
# while the other core idles.
SLOW_SRC  := src/acl.cpp src/config.cpp src/t_zset.cpp src/rdb.cpp src/server.cpp src/server_main.cpp
LIB_SRC   := $(SLOW_SRC) $(filter-out src/main.cpp $(SLOW_SRC),$(wildcard src/*.cpp)) $(wildcard src/commands/*.cpp)
DEPS_SRC  := $(wildcard deps/lua/*.cpp)
LIB_OBJ   := $(LIB_SRC:src/%.cpp=$(BUILD)/obj/%.o) $(DEPS_SRC:deps/%.cpp=$(BUILD)/obj/deps/%.o)
LIB       := $(BUILD)/libcppredis.a
SERVER    := $(BUILD)/cppredis-server

UNIT_SRC  := $(filter-out tests/unit/ae_test.cpp tests/unit/request_parser_test.cpp,$(wildcard tests/unit/*.cpp))
UNIT_OBJ  := $(UNIT_SRC:tests/unit/%.cpp=$(BUILD)/tests/unit/%.o)
INTEG_SRC := $(wildcard tests/integration/*.cpp)
# The integration tests' own code only talks to a server over sockets: it is
# compiled once, unsanitized, into TEST_BUILD (the release build) and linked
# into both runs' binaries; the sanitized run links it against the sanitized
# library and drives the sanitized server, which is what ASan must watch.
# That halves the compilation of `make test`'s largest part. The unit tests
# exercise the library's inline code in their own objects: those are
# compiled per build, sanitized in the sanitized one.
TEST_BUILD ?= $(BUILD)
INTEG_OBJ := $(INTEG_SRC:tests/integration/%.cpp=$(TEST_BUILD)/tests/integration/%.o)
AE_TESTS  := $(BUILD)/ae_tests_epoll $(BUILD)/ae_tests_poll
ifneq ($(UNAME_S),Linux)
  AE_TESTS := $(BUILD)/ae_tests_kqueue $(BUILD)/ae_tests_poll
endif
BENCH_SRC := $(wildcard bench/*_bench.cpp)
BENCH_BIN := $(BENCH_SRC:bench/%.cpp=$(BUILD)/bench/%)
TOOLS_SRC := $(wildcard bench/tools/*.cpp)
TOOLS_BIN := $(TOOLS_SRC:bench/tools/%.cpp=$(BUILD)/bench/%)

# A precompiled header of the standard library headers nearly every file
# includes (through server.h): parsing them was about a quarter of each
# file's compile time (t_list.cpp: 1.8 s, 1.3 s with it). Built per BUILD
# with that build's flags; g++ uses it only where they match (-Winvalid-pch
# says where not) and otherwise reads the headers themselves, so a file
# compiles the same with or without it. Only with plain g++: ccache does
# not cache a compilation that reads one, and clang has its own format.
# PCH=no to do without.
PCH_HEADERS := algorithm array atomic bit chrono csignal cstdint cstdio cstdlib cstring ctime \
               list map memory optional set span sstream string string_view unordered_map vector
ifeq ($(notdir $(CXX)),g++)
  PCH ?= yes
endif
ifeq ($(PCH),yes)
  PCH_H     := $(BUILD)/pch/std.h
  PCH_GCH   := $(PCH_H).gch
  PCH_FLAGS := -include $(PCH_H) -Winvalid-pch
endif

.PHONY: all run test test-release test-asan test-traced check-layers bench tools clean
all: $(SERVER)

$(PCH_GCH):
	@mkdir -p $(dir $@)
	@printf '#include <%s>\n' $(PCH_HEADERS) >$(PCH_H)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -x c++-header $(PCH_H) -o $@

# src/ and deps/ compile alike: one recipe for both.
define COMPILE_LIB
@mkdir -p $(dir $@)
$(CXX) $(CPPFLAGS) $(PCH_FLAGS) $(CXXFLAGS) -c $< -o $@
endef

# Order-only: the header is only made when missing, and an object built
# without it (ccache, PCH=no) stays valid once it exists.
$(BUILD)/obj/%.o: src/%.cpp | $(PCH_GCH)
	$(COMPILE_LIB)
$(BUILD)/obj/deps/%.o: deps/%.cpp | $(PCH_GCH)
	$(COMPILE_LIB)

# With the header precompiled g++ no longer treats libstdc++'s code as a
# system header's when it warns: it reports a -Wstringop-overflow false
# positive inside std::string::resize (rax.cpp's raxIterPop) that it keeps
# quiet without. rax.cpp, small, is compiled without it (same code).
$(BUILD)/obj/rax.o: PCH_FLAGS :=

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(SERVER): $(BUILD)/obj/main.o $(LIB)
	$(CXX) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# The packages a target needs, installed first if missing (a no-op when
# none is): `make run` the build's, `make test` the tests' too.
.PHONY: deps-build deps-test
deps-build deps-test: deps-%:
	@tools/install_deps.sh $*

run: deps-build
	@$(MAKE) --no-print-directory $(SERVER)
	./$(SERVER) ./redis.conf

# Only the server, named so that nothing of Debian's redis-server,
# redis-tools or redis-sentinel packages (/usr/bin/redis-*) is shadowed.
PREFIX ?= /usr/local
.PHONY: install uninstall
install: $(SERVER)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(SERVER) $(DESTDIR)$(PREFIX)/bin/cppredis-server
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/cppredis-server

# --- tests --------------------------------------------------------------
# The tests' own code is compiled without optimization (TEST_OPT, after
# OPT, wins): they spend their time in the server and the library, which
# keep OPT, while optimizing GoogleTest-heavy files costs 2-3x their
# compile time (35 s against 12 s for one suite under ASan), most of
# `make test` on two cores.
TEST_OPT  ?= -O0
$(BUILD)/tests/%.o: tests/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) -Itests $(CXXFLAGS) $(TEST_OPT) -c $< -o $@

$(TEST_BUILD)/tests/integration/%.o: tests/integration/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) -Itests $(filter-out $(SANITIZE),$(CXXFLAGS)) $(TEST_OPT) -c $< -o $@

# The unit tests' main (tests/unit/test_main.cpp, one of UNIT_OBJ) installs
# the server's hooks first, as main does: not GoogleTest's gtest_main.
$(BUILD)/unit_tests: $(UNIT_OBJ) $(LIB)
	$(CXX) $(LDFLAGS) $^ -o $@ -lgtest $(LDLIBS)

$(BUILD)/integration_tests: $(INTEG_OBJ) $(LIB)
	$(CXX) $(LDFLAGS) $^ -o $@ -lgtest -lgtest_main $(LDLIBS)

# The LD_PRELOAD shim through which fsync_test and aof_crash_test watch, fail
# and freeze the server's writes, fsyncs and renames (tests/fault/
# fsync_shim.cpp). It is never sanitized; a sanitized server gets ASan's
# runtime preloaded ahead of it.
SHIM := $(TEST_BUILD)/libfsync_shim.so
$(SHIM): tests/fault/fsync_shim.cpp
	@mkdir -p $(dir $@)
	$(CXX) -std=c++20 -O2 -Wall -Wextra -fPIC -shared $< -o $@ -ldl
$(BUILD)/integration_tests: | $(SHIM)
$(TEST_BUILD)/tests/integration/fsync_test.o $(TEST_BUILD)/tests/integration/aof_crash_test.o: CPPFLAGS += -DCPPREDIS_FSYNC_SHIM='"$(abspath $(SHIM))"' \
  -DCPPREDIS_ASAN_RUNTIME='"$(shell $(CXX) -print-file-name=libasan.so)"'

# The ae tests are built once per backend: ae.cpp is recompiled with each
# (with monotonic.cpp, its clock, livetrace.cpp, the loop's trace points, and
# util.cpp, which livetrace.cpp quotes values with).
# A static pattern rule, so it cannot match the .d files of these targets.
AE_TEST_BINS := $(BUILD)/ae_tests_epoll $(BUILD)/ae_tests_poll $(BUILD)/ae_tests_kqueue
$(AE_TEST_BINS): $(BUILD)/ae_tests_%: tests/unit/ae_test.cpp src/ae.cpp src/ae.h src/ae_%.h src/monotonic.cpp src/monotonic.h src/livetrace.cpp src/livetrace.h src/util.cpp
	@mkdir -p $(dir $@)
	$(CXX) -Isrc -DAE_BACKEND_$(shell echo $* | tr a-z A-Z) $(CXXFLAGS) tests/unit/ae_test.cpp src/ae.cpp src/monotonic.cpp src/livetrace.cpp src/util.cpp -o $@ $(LDFLAGS) -lgtest -lgtest_main $(LDLIBS)

# The request parser's tests link nothing but the parser and util: a
# dependency of the parser on the server would fail this link.
$(BUILD)/request_parser_tests: $(BUILD)/tests/unit/request_parser_test.o $(BUILD)/obj/request_parser.o $(BUILD)/obj/util.o
	$(CXX) $(LDFLAGS) $^ -o $@ -lgtest -lgtest_main $(LDLIBS)

TEST_BINS := $(BUILD)/unit_tests $(BUILD)/request_parser_tests $(AE_TESTS) $(BUILD)/integration_tests

test-release: $(SERVER) $(TEST_BINS)
	@tests/run_suites.sh "$(if $(SANITIZE),asan+ubsan,release)" $(TEST_BINS)

# A part of the integration suites again, with every trace point on (the
# live trace, published to nobody): under ASan, tracing must stay clean.
# The blocking machinery, lists, sets and hashes (their conversions),
# connections, transactions and expiry: every category's points, in about
# a minute. Not the pub/sub suites: a PSUBSCRIBE * there receives the trace
# too, as it receives keyspace notifications. Not the trace's own suites,
# which ran already.
TRACED_SUITES := *Blocking*:Lists.*:Networking.*:Multi.*:Expire*:Servers/Sets.*:Servers/Hashes.*:-Trace*
test-traced: $(SERVER) $(BUILD)/integration_tests
	@CPPREDIS_TEST_TRACE=all GTEST_FILTER='$(TRACED_SUITES)' \
	  tests/run_suites.sh "$(if $(SANITIZE),asan+ubsan,release), trace-events all" $(BUILD)/integration_tests

# Sanitized build lives in build/asan; its integration tests drive the sanitized server.
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The runs on Redis 7.0.15 alone (a test's "/Redis7" instantiation, the
# "Redis7ToRedis7" replication pair) check the tests themselves, not
# cppredis: the release run has them, the sanitized one skips them.
ASAN_SKIP := -*/Redis7:*/Redis7ToRedis7
test-asan:
	GTEST_FILTER='$(ASAN_SKIP)' $(MAKE) BUILD=$(BUILD)/asan TEST_BUILD=$(TEST_BUILD) OPT=-O1 SANITIZE="$(ASAN_FLAGS)" test-release
	$(MAKE) BUILD=$(BUILD)/asan TEST_BUILD=$(TEST_BUILD) OPT=-O1 SANITIZE="$(ASAN_FLAGS)" test-traced

# Binaries compile in parallel (one job per core); the suites themselves run
# one after the other so their verdicts read in order.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# The layer rule of src/ (tools/check_layers.sh): a lower layer never
# includes a higher one.
check-layers:
	@tools/check_layers.sh

# The generated tables (src/commands/keyspecs.cpp, commanddocs.cpp) against
# what their generators make from Debian's Redis 7.0 and this server.
.PHONY: check-commands
check-commands: $(SERVER)
	@src/commands/check_generated.sh $(SERVER)

# The client libraries clients_test and resp3_test drive end to end
# (tests/clients): BullMQ and node-redis from npm, pinned by its
# package-lock.json (npm and Node.js come from tools/install_deps.sh test).
# A failed install fails `make test`, with npm's own message: those tests
# would otherwise only skip.
CLIENTS_NPM := tests/clients/node_modules/.package-lock.json
$(CLIENTS_NPM): tests/clients/package-lock.json
	@cd tests/clients && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@echo "tests/clients: BullMQ and node-redis installed"

# check-commands runs once the release server is built (by test-release,
# in parallel), not as a prerequisite, which would build it one job at a time.
test: deps-test check-layers $(CLIENTS_NPM)
	$(MAKE) -j$(JOBS) DEBUG=-g1 test-release
	@$(MAKE) --no-print-directory check-commands
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 $(MAKE) -j$(JOBS) DEBUG=-g1 test-asan
	@echo "all test suites passed (release and ASan+UBSan)"

# --- fuzzing (not part of `make test`) -----------------------------------
# libFuzzer targets (tests/fuzz/*_fuzz.cpp), built with clang under
# ASan+UBSan into build/fuzz: `make fuzz`, then tests/fuzz/run.sh runs them.
# Debian's clang 14 cannot compile libstdc++ 12's ranges (config.cpp's
# views::split): clang 16 or later is needed.
FUZZ_CXX      ?= clang++-16
FUZZ_SANITIZE := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_BINS     := request_parser_fuzz command_fuzz
.PHONY: fuzz fuzz-targets
fuzz:
	$(MAKE) BUILD=$(BUILD)/fuzz CXX=$(FUZZ_CXX) OPT=-O1 TEST_OPT=-O1 DEBUG=-g1 SANITIZE="$(FUZZ_SANITIZE)" fuzz-targets
fuzz-targets: $(FUZZ_BINS:%=$(BUILD)/%)

# The parser's target links nothing but the parser and util, as its tests.
$(BUILD)/request_parser_fuzz: $(BUILD)/tests/fuzz/request_parser_fuzz.o $(BUILD)/obj/request_parser.o $(BUILD)/obj/util.o
	$(CXX) $(LDFLAGS) -fsanitize=fuzzer $^ -o $@ $(LDLIBS)

$(BUILD)/command_fuzz: $(BUILD)/tests/fuzz/command_fuzz.o $(LIB)
	$(CXX) $(LDFLAGS) -fsanitize=fuzzer $^ -o $@ $(LDLIBS)

# --- benchmarks ---------------------------------------------------------
$(BUILD)/bench/%_bench: bench/%_bench.cpp $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) $< $(LIB) -o $@ $(LDFLAGS) -lbenchmark $(LDLIBS)

$(BUILD)/bench/%: bench/tools/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

tools: $(TOOLS_BIN)

bench: $(SERVER) $(BENCH_BIN) $(TOOLS_BIN)
	@set -e; for b in $(BENCH_BIN); do echo "=== $$b"; ./$$b; done

clean:
	rm -rf $(BUILD)

# Not Redis's source tree (tools/fetch_redis_source.sh): its debian/*.d are
# directories, and its own build's .d files are none of ours.
-include $(shell find $(sort $(BUILD) $(TEST_BUILD)/tests) -path '*/redis-src' -prune -o -name '*.d' -type f -print 2>/dev/null)
