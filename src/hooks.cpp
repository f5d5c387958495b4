/* hooks.cpp — installServerHooks: every call up of a lower layer, filled
 * in one place (hooks.h). Each line names both ends: the hook (the lower
 * layer's register*) and the function of the layer above it calls. */
#include "hooks.h"

#include "acl.h"
#include "aof.h"
#include "blocked.h"
#include "config.h"
#include "db.h"
#include "multi.h"
#include "networking.h"
#include "object.h"
#include "pubsub.h"
#include "rdb.h"
#include "replication.h"
#include "server.h"
#include "server_main.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_stream.h"
#include "t_zset.h"
#include "tls.h"
#include "tracking.h"
#include "zmalloc.h"

namespace {

/* The process, before anything: what is not a call up but must be done
 * once, by the main thread, before the library runs. */
void installProcessWiring() {
    /* zmalloc_used_memory counts the threads registered: the main thread
     * is one (bio's threads register themselves). */
    zmalloc_register_thread();
    /* The live trace names the event loop's handlers and time events
     * (serverCron is named where initServer creates it). */
    traceNameNetworkingProcs();
    traceNameBlockedProcs();
    connSetTraceResolver();
}

/* redis.conf's directives that are not configs of the table (config.h):
 * loadServerConfig reads them, so they come before it. In this order
 * CONFIG REWRITE appends their lines. */
void installConfigDirectives() {
    registerConfigDirective({"user", nullptr, ACLAppendUserForLoading, rewriteConfigUserOption});
    registerConfigDirective({"replicaof", "slaveof", loadReplicaofDirective, rewriteReplicaofDirective});
    /* Its lines stay in the file as they are (no rewrite). */
    registerConfigDirective({"rename-command", nullptr, loadRenameCommandDirective, nullptr});
}

/* object.cpp and db.cpp free, copy, size and scan a value through its
 * type's row (object.h); the string row is object.cpp's own. */
void installObjectTypes() {
    registerObjectType(OBJ_LIST, listObjectType);
    registerObjectType(OBJ_SET, setObjectType);
    registerObjectType(OBJ_ZSET, zsetObjectType);
    registerObjectType(OBJ_HASH, hashObjectType);
    registerObjectType(OBJ_STREAM, streamObjectType);
}

/* A client's life, in the order its hooks run. */
void installClientHooks() {
    /* createClient: the user a new client starts as; protected mode, CLIENT
     * LIST user=, CLIENT KILL USER, HELLO AUTH and the size limits before
     * AUTH ask ACL about users (networking.h). */
    registerACLNetworkingHooks({clientSetDefaultAuth, ACLDefaultUserIsNopass, ACLUserName, ACLGetUserByName,
                                ACLAuthenticateUser, authRequired});
    /* processInputBuffer: each parsed request runs (networking.h). */
    registerProcessCommand(processCommand);
    /* ... and on a replica, each request of the master's stream then moves
     * the replication offset (networking.h). */
    registerMasterStreamProcessed(replicationMasterStreamProcessed);
    /* A write: signalModifiedKey and signalFlushedDb make WATCH fail (db.h). */
    registerWatchedKeysTouch(touchWatchedKey, touchAllWatchedKeysInDb);
    /* FLUSHALL: a BGSAVE of the old dataset stops, save points save (db.h). */
    registerFlushAllResetRDB(flushAllResetRDB);
    /* The end of an execution unit: its ops to the AOF, then to the
     * replicas, as Redis's propagatePendingCommands (server.h). */
    registerFeedAppendOnlyFile(feedAppendOnlyFile);
    registerReplicationFeed(replicationFeedSlaves);
    /* The write handler: replies wait for the AOF's write (networking.h). */
    registerRepliesMustWait(aofHoldsUnwrittenWrites);
    /* CLIENT LIST: db= (networking.h). */
    registerDbId(dbId);
    /* freeClient: each mechanism lets go of the client, in the order of
     * Redis 7.0's freeClient (networking.h). None depends on another. */
    registerFreeClientProc(unblockClientOnFree);         /* off the waiting lists */
    registerFreeClientProc(unwatchAllKeys);              /* off the watched keys */
    registerFreeClientProc(pubsubUnsubscribeAllOnFree);  /* off channels and patterns */
    registerFreeClientProc(freeClientTracking);          /* unlinkClient: off the tracking prefixes */
    registerFreeClientProc(replicationFreeSlave);        /* a replica: off server.slaves */
    registerFreeClientProc(unmonitorClient);             /* a MONITOR: off server.monitors */
    registerFreeClientProc(replicationHandleMasterDisconnection); /* the master: cache it, reconnect */
}

}  // namespace

void installServerHooks() {
    static bool installed = false;
    if (installed) return; /* registerFreeClientProc appends: twice would run each step twice */
    installed = true;
    installProcessWiring();
    installConfigDirectives();
    installObjectTypes();
    installClientHooks();
}
