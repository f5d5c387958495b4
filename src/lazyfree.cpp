/* lazyfree.cpp — lazy freeing (Redis's lazyfree.c): big values freed on the
 * background thread; lazyfree.h describes the rule and the counters. */
#include "lazyfree.h"

#include <atomic>

#include "db.h"

namespace {
std::atomic<size_t> lazyfree_objects{0};  /* queued, not freed yet */
std::atomic<size_t> lazyfreed_objects{0}; /* freed by the bio thread */

/* The dicts a database had before an asynchronous flush. expires points
 * into the keys of dict: declared after it, it is destroyed first. */
struct emptiedDb {
    keyspaceDict dict;
    expiresDict expires;
};
}  // namespace

void lazyfree_detail::queue(size_t objects, std::unique_ptr<bioLazyFreeJob> job) {
    lazyfree_objects += objects;
    bioCreateLazyFreeJob(std::move(job));
}

void lazyfree_detail::freed(size_t objects) {
    lazyfree_objects -= objects;
    lazyfreed_objects += objects;
}

unsigned long long lazyfreeGetPendingObjectsCount() { return lazyfree_objects.load(); }
unsigned long long lazyfreeGetFreedObjectsCount() { return lazyfreed_objects.load(); }
void lazyfreeResetStats() { lazyfreed_objects = 0; }

size_t lazyfreeGetFreeEffort(const robj *obj) {
    if (obj->encoding == OBJ_ENCODING_ZIPLIST || obj->encoding == OBJ_ENCODING_INTSET) return 1;
    auto effort = getObjectType(obj->type).freeEffort;
    return effort ? effort(obj) : 1;
}

/* A value another reference still holds cannot be freed now, whatever
 * its size (Redis's parts of the core protect objects with incrRefCount
 * before deleting keys): dropping this reference is all there is to do. */
void freeObjAsync(ObjRef obj) {
    if (obj->refcount == 1 && lazyfreeGetFreeEffort(obj.get()) > LAZYFREE_THRESHOLD)
        lazyfreeOwned(std::move(obj), 1);
}

void emptyDbAsync(redisDb *db) {
    emptiedDb old;
    old.dict.swap(db->dict);
    old.expires.swap(db->expires);
    size_t keys = old.dict.size();
    lazyfreeOwned(std::move(old), keys);
}
