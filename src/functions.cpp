/* functions.cpp — Redis 7 functions: FUNCTION LOAD/DELETE/FLUSH/DUMP/RESTORE/LIST/STATS/KILL/HELP, FCALL, FCALL_RO (Redis's functions.c; the Lua engine is function_lua.cpp).
 * See functions.h. */
#include "functions.h"

#include <cstring>
#include <vector>

#include "crc64.h"
#include "function_lua.h"
#include "networking.h"
#include "rdb.h"
#include "rio.h"
#include "scripting.h"
#include "server.h"
#include "util.h"

namespace {

/* Redis's LOAD_TIMEOUT_MS: a library's code must register its functions
 * within this time (a master's or the AOF's FUNCTION LOAD has no limit). */
constexpr long long LOAD_TIMEOUT_MS = 500;

std::map<std::string, engineInfo, NoCaseLess> engines;
std::unique_ptr<functionsLibCtx> curr_functions_lib_ctx;

/* Redis's functionsInit, on first use: the engine's interpreter is only
 * created for a server that uses functions. */
functionsLibCtx &currentCtx() {
    if (!curr_functions_lib_ctx) {
        luaEngineInitEngine();
        curr_functions_lib_ctx = std::make_unique<functionsLibCtx>();
    }
    return *curr_functions_lib_ctx;
}

/* Library and function names: [a-zA-Z0-9_]+. */
bool functionsVerifyName(std::string_view name) {
    if (name.empty()) return false;
    for (char ch : name)
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_'))
            return false;
    return true;
}
constexpr const char *kBadNameError = "Library names can only contain letters, numbers, or underscores(_) and must "
                                      "be at least one character long";

void libraryLink(functionsLibCtx &ctx, std::unique_ptr<functionLibInfo> li) {
    for (auto &[name, fi] : li->functions) ctx.functions[fi.name] = &fi;
    ctx.libraries[li->name] = std::move(li);
}

std::unique_ptr<functionLibInfo> libraryUnlink(functionsLibCtx &ctx, functionLibInfo *li) {
    for (auto &[name, fi] : li->functions) ctx.functions.erase(fi.name);
    auto node = ctx.libraries.extract(li->name);
    return std::move(node.mapped());
}

/* The shebang line "#!<engine> name=<library>": its engine, its name, and
 * where the code starts (at the line's newline, so line numbers stay). */
struct functionsLibMetaData {
    std::string engine, name;
    size_t code_start;
};

bool functionExtractLibMetaData(std::string_view payload, functionsLibMetaData &md, std::string &err) {
    if (!payload.starts_with("#!")) {
        err = "Missing library metadata";
        return false;
    }
    size_t eol = payload.find('\n');
    std::vector<std::string> parts;
    if (eol == std::string_view::npos || !splitArgs(payload.substr(0, eol), parts) || parts.empty()) {
        err = "Invalid library metadata";
        return false;
    }
    md.engine = parts[0].substr(2);
    bool named = false;
    for (size_t i = 1; i < parts.size(); i++) {
        if (parts[i].size() >= 5 && strEqualNoCase(std::string_view(parts[i]).substr(0, 5), "name=")) {
            if (named) {
                err = "Invalid metadata value, name argument was given multiple times";
                return false;
            }
            md.name = parts[i].substr(5);
            named = true;
            continue;
        }
        err = "Invalid metadata value given: " + parts[i];
        return false;
    }
    if (!named) {
        err = "Library name was not given";
        return false;
    }
    md.code_start = eol;
    return true;
}

/* Moves the libraries of `src` into `dst` (FUNCTION RESTORE APPEND or
 * REPLACE); on a collision nothing moves and `err` says why. */
bool libraryJoin(functionsLibCtx &dst, functionsLibCtx &src, bool replace, std::string &err) {
    std::vector<std::unique_ptr<functionLibInfo>> old_libraries;
    auto relink_old = [&] {
        for (auto &li : old_libraries) libraryLink(dst, std::move(li));
    };
    for (auto &[name, li] : src.libraries) {
        auto old = dst.libraries.find(name);
        if (old == dst.libraries.end()) continue;
        if (!replace) {
            err = "Library " + li->name + " already exists";
            relink_old();
            return false;
        }
        old_libraries.push_back(libraryUnlink(dst, old->second.get()));
    }
    for (auto &[name, fi] : src.functions) {
        if (dst.functions.contains(name)) {
            err = "Function " + fi->name + " already exists";
            relink_old();
            return false;
        }
    }
    while (!src.libraries.empty()) {
        functionLibInfo *li = src.libraries.begin()->second.get();
        libraryLink(dst, libraryUnlink(src, li));
    }
    return true;
}

/* A FUNCTION DUMP payload ends with the RDB version (2 bytes) and a CRC-64
 * of what precedes it (8 bytes), both little-endian, as DUMP's. */
constexpr size_t DUMP_TRAILER_LEN = 10;

bool verifyDumpPayload(std::string_view p) {
    if (p.size() < DUMP_TRAILER_LEN) return false;
    const auto *bytes = reinterpret_cast<const unsigned char *>(p.data());
    size_t footer = p.size() - DUMP_TRAILER_LEN;
    unsigned rdbver = bytes[footer] | (bytes[footer + 1] << 8);
    if (rdbver > RDB_VERSION_STREAMS) return false;
    uint64_t crc = crc64(0, bytes, p.size() - 8), stored = 0;
    for (int j = 7; j >= 0; j--) stored = (stored << 8) | bytes[p.size() - 8 + j];
    return crc == stored;
}

void fcallCommandGeneric(client *c, bool ro) {
    /* FCALL is CMD_SKIP_MONITOR: fed here, before the commands it runs. */
    replicationFeedMonitors(c, c->db->id, c->argv);
    functionsLibCtx &ctx = currentCtx();
    auto it = ctx.functions.find(c->argv[1]);
    if (it == ctx.functions.end()) return addReplyError(c, "Function not found");
    functionInfo *fi = it->second;
    long long numkeys;
    if (!string2ll(c->argv[2], &numkeys)) return addReplyError(c, "Bad number of keys provided");
    long long nargs = static_cast<long long>(c->argv.size()) - 3;
    if (numkeys > nargs) return addReplyError(c, "Number of keys can't be greater than number of args");
    if (numkeys < 0) return addReplyError(c, "Number of keys can't be negative");
    scriptRunCtx run_ctx;
    if (!scriptPrepareForRun(&run_ctx, c, fi->name.c_str(), fi->f_flags, ro)) return;
    std::span<const std::string_view> args(c->argv);
    fi->li->ei->eng.call(&run_ctx, fi->function, args.subspan(3, numkeys), args.subspan(3 + numkeys));
    scriptResetRun(&run_ctx);
}

}  // namespace

bool NoCaseLess::operator()(std::string_view a, std::string_view b) const {
    size_t n = std::min(a.size(), b.size());
    int cmp = strncasecmp(a.data(), b.data(), n);
    return cmp != 0 ? cmp < 0 : a.size() < b.size();
}

functionLibInfo::~functionLibInfo() {
    for (auto &[name, fi] : functions) ei->eng.free_function(fi.function);
}

bool functionLibCreateFunction(std::string_view name, int function, functionLibInfo *li,
                               std::optional<std::string> desc, uint64_t f_flags, std::string &err) {
    if (!functionsVerifyName(name)) {
        err = kBadNameError;
        return false;
    }
    if (li->functions.contains(name)) {
        err = "Function already exists in the library";
        return false;
    }
    std::string key(name);
    li->functions.emplace(key, functionInfo{key, function, li, std::move(desc), f_flags});
    return true;
}

void functionsRegisterEngine(std::string_view name, const engine &eng) {
    engines.emplace(std::string(name), engineInfo{std::string(name), eng});
}

std::optional<std::string> functionsCreateWithLibraryCtx(std::string_view code, bool replace, std::string &err,
                                                         functionsLibCtx *lib_ctx, long long timeout) {
    functionsLibCtx &ctx = lib_ctx ? *lib_ctx : currentCtx();
    functionsLibMetaData md;
    if (!functionExtractLibMetaData(code, md, err)) return std::nullopt;
    if (!functionsVerifyName(md.name)) {
        err = kBadNameError;
        return std::nullopt;
    }
    currentCtx(); /* the engines */
    auto ei = engines.find(md.engine);
    if (ei == engines.end()) {
        err = "Engine '" + md.engine + "' not found";
        return std::nullopt;
    }
    auto old = ctx.libraries.find(md.name);
    if (old != ctx.libraries.end() && !replace) {
        err = "Library '" + md.name + "' already exists";
        return std::nullopt;
    }
    std::unique_ptr<functionLibInfo> old_li;
    if (old != ctx.libraries.end()) old_li = libraryUnlink(ctx, old->second.get());
    auto new_li = std::make_unique<functionLibInfo>();
    new_li->name = md.name;
    new_li->ei = &ei->second;
    new_li->code = code;
    bool ok = ei->second.eng.create(new_li.get(), code.substr(md.code_start), timeout, err);
    if (ok && new_li->functions.empty()) {
        err = "No functions registered";
        ok = false;
    }
    for (auto it = new_li->functions.begin(); ok && it != new_li->functions.end(); ++it) {
        if (ctx.functions.contains(it->first)) {
            err = "Function " + it->second.name + " already exists";
            ok = false;
        }
    }
    if (!ok) {
        if (old_li) libraryLink(ctx, std::move(old_li));
        return std::nullopt;
    }
    libraryLink(ctx, std::move(new_li));
    return md.name;
}

size_t functionsNum() { return curr_functions_lib_ctx ? curr_functions_lib_ctx->functions.size() : 0; }
size_t functionsLibNum() { return curr_functions_lib_ctx ? curr_functions_lib_ctx->libraries.size() : 0; }

size_t functionsMemory() {
    size_t memory = 0;
    for (const auto &[name, ei] : engines) memory += ei.eng.get_used_memory();
    return memory;
}

const functionsLibMap &functionsLibGet() {
    static const functionsLibMap none;
    return curr_functions_lib_ctx ? curr_functions_lib_ctx->libraries : none;
}

void functionsLibCtxClearCurrent() {
    if (curr_functions_lib_ctx) curr_functions_lib_ctx = std::make_unique<functionsLibCtx>();
}

uint64_t fcallGetCommandFlags(client *c, uint64_t cmd_flags) {
    functionsLibCtx &ctx = currentCtx();
    auto it = ctx.functions.find(c->argv[1]);
    if (it == ctx.functions.end()) return cmd_flags;
    return scriptFlagsToCmdFlags(cmd_flags, it->second->f_flags);
}

/* FCALL function numkeys [key ...] [arg ...] */
void fcallCommand(client *c) { fcallCommandGeneric(c, false); }
/* FCALL_RO function numkeys [key ...] [arg ...]: a function without
 * no-writes is refused. */
void fcallroCommand(client *c) { fcallCommandGeneric(c, true); }

/* FUNCTION LOAD [REPLACE] code */
void functionLoadCommand(client *c) {
    bool replace = false;
    size_t pos = 2;
    while (pos < c->argv.size() - 1) {
        std::string_view opt = c->argv[pos++];
        if (strEqualNoCase(opt, "replace")) {
            replace = true;
            continue;
        }
        return addReplyErrorFormat(c, "Unknown option given: %.*s", static_cast<int>(opt.size()), opt.data());
    }
    if (pos >= c->argv.size()) return addReplyError(c, "Function code is missing");
    long long timeout = (c->flags & CLIENT_MASTER) || c->id == CLIENT_ID_AOF ? 0 : LOAD_TIMEOUT_MS;
    std::string err;
    std::optional<std::string> name = functionsCreateWithLibraryCtx(c->argv[pos], replace, err, nullptr, timeout);
    if (!name) return addReplyError(c, err);
    server.dirty++;
    addReplyBulk(c, *name);
}

/* FUNCTION DELETE library */
void functionDeleteCommand(client *c) {
    functionsLibCtx &ctx = currentCtx();
    auto it = ctx.libraries.find(c->argv[2]);
    if (it == ctx.libraries.end()) return addReplyError(c, "Library not found");
    libraryUnlink(ctx, it->second.get());
    server.dirty++;
    addReply(c, shared::ok);
}

/* FUNCTION FLUSH [ASYNC|SYNC]: both synchronous. Redis 7.0 frees a big
 * library context on its lazyfree thread, but freeing a function here
 * releases its reference in the engine's one Lua interpreter
 * (luaEngineFreeFunction), which the main thread keeps running scripts
 * on: that must happen on the main thread. */
void functionFlushCommand(client *c) {
    if (c->argv.size() > 3) return addReplySubcommandSyntaxError(c);
    if (c->argv.size() == 3 && !strEqualNoCase(c->argv[2], "sync") && !strEqualNoCase(c->argv[2], "async"))
        return addReplyError(c, "FUNCTION FLUSH only supports SYNC|ASYNC option");
    functionsLibCtxClearCurrent();
    server.dirty++;
    addReply(c, shared::ok);
}

/* FUNCTION DUMP: each library as an RDB_OPCODE_FUNCTION2 record, then the
 * RDB version and the CRC-64 (Redis 7.0's payload). */
void functionDumpCommand(client *c) {
    currentCtx();
    rioBuffer payload;
    rdbSaveFunctions(payload);
    std::string out = payload.contents();
    out.push_back(static_cast<char>(RDB_VERSION_STREAMS & 0xff));
    out.push_back(static_cast<char>((RDB_VERSION_STREAMS >> 8) & 0xff));
    uint64_t crc = crc64(0, reinterpret_cast<const unsigned char *>(out.data()), out.size());
    for (int j = 0; j < 8; j++) out.push_back(static_cast<char>((crc >> (8 * j)) & 0xff));
    addReplyBulk(c, out);
}

/* FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE]: the libraries are
 * loaded aside first, so a bad payload changes nothing. */
void functionRestoreCommand(client *c) {
    if (c->argv.size() > 4) return addReplySubcommandSyntaxError(c);
    enum { Append, Replace, Flush } policy = Append;
    if (c->argv.size() == 4) {
        std::string_view p = c->argv[3];
        if (strEqualNoCase(p, "append")) policy = Append;
        else if (strEqualNoCase(p, "replace")) policy = Replace;
        else if (strEqualNoCase(p, "flush")) policy = Flush;
        else return addReplyError(c, "Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
    }
    std::string_view data = c->argv[2];
    if (!verifyDumpPayload(data)) return addReplyError(c, "DUMP payload version or checksum are wrong");
    currentCtx();
    auto tmp = std::make_unique<functionsLibCtx>();
    std::string err;
    size_t body_len = data.size() - DUMP_TRAILER_LEN;
    rioBuffer payload{std::string(data.substr(0, body_len))};
    try {
        while (payload.processed_bytes < body_len) {
            int type = rdbLoadType(payload);
            if (type != RDB_OPCODE_FUNCTION && type != RDB_OPCODE_FUNCTION2) {
                err = "given type is not a function";
                break;
            }
            std::string code = rdbFunctionLoad(payload, type);
            if (!functionsCreateWithLibraryCtx(code, false, err, tmp.get(), 0)) break;
        }
    } catch (const RdbLoadError &e) {
        err = "failed loading the given functions payload";
    }
    if (err.empty()) {
        if (policy == Flush) curr_functions_lib_ctx = std::move(tmp);
        else libraryJoin(*curr_functions_lib_ctx, *tmp, policy == Replace, err);
    }
    if (!err.empty()) return addReplyError(c, err);
    server.dirty++;
    addReply(c, shared::ok);
}

/* FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE] */
void functionListCommand(client *c) {
    bool with_code = false;
    std::optional<std::string_view> pattern;
    for (size_t i = 2; i < c->argv.size(); i++) {
        std::string_view arg = c->argv[i];
        if (!with_code && strEqualNoCase(arg, "withcode")) {
            with_code = true;
            continue;
        }
        if (!pattern && strEqualNoCase(arg, "libraryname")) {
            if (i >= c->argv.size() - 1) return addReplyError(c, "library name argument was not given");
            pattern = c->argv[++i];
            continue;
        }
        return addReplyErrorFormat(c, "Unknown argument %.*s", static_cast<int>(arg.size()), arg.data());
    }
    const functionsLibMap &libraries = currentCtx().libraries;
    void *len_ptr = nullptr;
    if (pattern) len_ptr = addReplyDeferredLen(c);
    else addReplyArrayLen(c, static_cast<long long>(libraries.size()));
    long reply_len = 0;
    for (auto &[name, li] : libraries) {
        if (pattern && !stringmatchlen(*pattern, li->name, true)) continue;
        reply_len++;
        addReplyMapLen(c, with_code ? 4 : 3);
        addReplyBulk(c, "library_name");
        addReplyBulk(c, li->name);
        addReplyBulk(c, "engine");
        addReplyBulk(c, li->ei->name);
        addReplyBulk(c, "functions");
        addReplyArrayLen(c, static_cast<long long>(li->functions.size()));
        for (auto &[fname, fi] : li->functions) {
            addReplyMapLen(c, 3);
            addReplyBulk(c, "name");
            addReplyBulk(c, fi.name);
            addReplyBulk(c, "description");
            if (fi.desc) addReplyBulk(c, *fi.desc);
            else addReplyNull(c);
            addReplyBulk(c, "flags");
            long long count = 0;
            for (const scriptFlag &f : scripts_flags_def) count += (fi.f_flags & f.flag) != 0;
            addReplySetLen(c, count);
            for (const scriptFlag &f : scripts_flags_def)
                if (fi.f_flags & f.flag) addReplyStatus(c, f.name);
        }
        if (with_code) {
            addReplyBulk(c, "library_code");
            addReplyBulk(c, li->code);
        }
    }
    if (len_ptr) setDeferredArrayLen(c, len_ptr, reply_len);
}

/* FUNCTION STATS: the running function (not an EVAL script) and, per
 * engine, how many libraries and functions it has. */
void functionStatsCommand(client *c) {
    scriptRunCtx *run = scriptCurrentRun();
    if (run && (run->flags & SCRIPT_EVAL_MODE)) return addReplyError(c, kBusyScriptError);
    functionsLibCtx &ctx = currentCtx();
    addReplyMapLen(c, 2);
    addReplyBulk(c, "running_script");
    if (!run) {
        addReplyNull(c);
    } else {
        addReplyMapLen(c, 3);
        addReplyBulk(c, "name");
        addReplyBulk(c, run->funcname);
        addReplyBulk(c, "command");
        addReplyArrayLen(c, static_cast<long long>(run->original_client->argv.size()));
        for (std::string_view arg : run->original_client->argv) addReplyBulk(c, arg);
        addReplyBulk(c, "duration_ms");
        addReplyLongLong(c, scriptRunDuration());
    }
    addReplyBulk(c, "engines");
    addReplyMapLen(c, static_cast<long long>(engines.size()));
    for (auto &[name, ei] : engines) {
        long long n_lib = 0, n_functions = 0;
        for (auto &[lname, li] : ctx.libraries) {
            if (li->ei != &ei) continue;
            n_lib++;
            n_functions += static_cast<long long>(li->functions.size());
        }
        addReplyBulk(c, ei.name);
        addReplyMapLen(c, 2);
        addReplyBulk(c, "libraries_count");
        addReplyLongLong(c, n_lib);
        addReplyBulk(c, "functions_count");
        addReplyLongLong(c, n_functions);
    }
}

/* FUNCTION KILL: only a function that wrote nothing may stop halfway. */
void functionKillCommand(client *c) { scriptKill(c, false); }

void functionHelpCommand(client *c) {
    static const char *const help[] = {
        "LOAD [REPLACE] <FUNCTION CODE>",
        "    Create a new library with the given library name and code.",
        "DELETE <LIBRARY NAME>",
        "    Delete the given library.",
        "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
        "    Return general information on all the libraries:",
        "    * Library name",
        "    * The engine used to run the Library",
        "    * Library description",
        "    * Functions list",
        "    * Library code (if WITHCODE is given)",
        "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
        "STATS",
        "    Return information about the current function running:",
        "    * Function name",
        "    * Command used to run the function",
        "    * Duration in MS that the function is running",
        "    If no function is running, return nil",
        "    In addition, returns a list of available engines.",
        "KILL",
        "    Kill the current running function.",
        "FLUSH [ASYNC|SYNC]",
        "    Delete all the libraries.",
        "    When called without the optional mode argument, the behavior is determined by the",
        "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
        "    * ASYNC: Asynchronously flush the libraries.",
        "    * SYNC: Synchronously flush the libraries.",
        "DUMP",
        "    Return a serialized payload representing the current libraries, can be restored using FUNCTION "
        "RESTORE command",
        "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
        "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
        "    control how to handle existing libraries (default APPEND):",
        "    * FLUSH: delete all existing libraries.",
        "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
        "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
        "      libraries with the new libraries (notice that even on this option there is a chance of failure",
        "      in case of functions name collision with another library).",
        nullptr,
    };
    addReplyHelp(c, help);
}

/* As EVAL's: FCALL function numkeys key ... */
int functionGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result) {
    return evalGetKeys(cmd, argv, result);
}
