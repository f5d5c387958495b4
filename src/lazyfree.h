/* lazyfree.h — lazy freeing (Redis's lazyfree.c): big values freed on the
 * background thread, through bio.h's BIO_LAZY_FREE.
 *
 * What the main thread lets go of lazily (UNLINK, FLUSHALL ASYNC, the
 * lazyfree-lazy-* options) leaves the keyspace at once; the freeing of its
 * memory is queued to the bio thread when it is worth it: a value whose
 * free effort (about its number of allocations) exceeds LAZYFREE_THRESHOLD
 * and that nothing else references. A smaller value is freed at once, as
 * handing it over would cost more than freeing it.
 *
 * Counters (INFO memory), updated atomically as the bio thread works:
 *   lazyfree_pending_objects  objects queued and not freed yet
 *   lazyfreed_objects         objects the bio thread freed (CONFIG RESETSTAT
 *                             zeroes it)
 * A database or a script cache counts as its number of keys or scripts.
 */
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "bio.h"
#include "object.h"

struct redisDb;

constexpr size_t LAZYFREE_THRESHOLD = 64;

/* INFO lazyfree_pending_objects / lazyfreed_objects. */
unsigned long long lazyfreeGetPendingObjectsCount();
unsigned long long lazyfreeGetFreedObjectsCount();
void lazyfreeResetStats();

/* The work freeing `obj` takes: elements of a hash table, skiplist or
 * linked list, nodes of a stream; 1 for a value in one block. */
size_t lazyfreeGetFreeEffort(const robj *obj);

/* Lets go of `obj`: freed on the bio thread if it is big and this is its
 * last reference, at once otherwise. */
void freeObjAsync(ObjRef obj);

/* FLUSHDB/FLUSHALL ASYNC: `db` gets fresh empty dicts at once; the old
 * ones, with every key and value, are freed on the bio thread. */
void emptyDbAsync(redisDb *db);

namespace lazyfree_detail {
void queue(size_t objects, std::unique_ptr<bioLazyFreeJob> job);
void freed(size_t objects);

/* A job owning `T`, counted as `objects` until the bio thread freed it. */
template <typename T>
class ownedFreeJob final : public bioLazyFreeJob {
public:
    ownedFreeJob(T owned, size_t objects) : owned_(std::move(owned)), objects_(objects) {}
    void free() override {
        owned_.reset();
        freed(objects_);
    }

private:
    std::optional<T> owned_;
    size_t objects_;
};
}  // namespace lazyfree_detail

/* Frees `owned` on the bio thread, counted as `objects` pending then
 * freed: for what the layers above own (the script cache and its Lua
 * interpreter). The caller has applied the threshold. */
template <typename T>
void lazyfreeOwned(T owned, size_t objects) {
    lazyfree_detail::queue(objects, std::make_unique<lazyfree_detail::ownedFreeJob<T>>(std::move(owned), objects));
}
