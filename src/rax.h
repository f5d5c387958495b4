/* rax.h — Redis's rax (rax.c): a radix tree mapping byte strings to a
 * `void *` per key, kept in lexicographic order of unsigned bytes. Streams
 * key it by 128-bit entry IDs (16 big-endian bytes, so byte order is ID
 * order) and by consumer group and consumer names. A plain data structure:
 * it knows nothing of the server.
 *
 * The shape. Redis's rax.c is the reference; this tree stores the same
 * information with one difference of layout: Redis puts the bytes of the
 * edges leaving a node in that node (a "compressed" node holds one run of
 * bytes leading to its single child, a branching node one byte per child),
 * while here each node holds the bytes of the edge that leads to it, its
 * `label`. A Redis compressed node and the node below it are therefore one
 * node here, and a Redis branching node's bytes are the first bytes of its
 * children's labels. A node:
 *  - `label`: the edge from its parent, never empty, except at the head,
 *    whose label is always empty. The key of a node is the concatenation of
 *    the labels from the head down to it.
 *  - `iskey` / `data`: whether that key is in the tree, and its value. A
 *    null `data` is a value like any other (Redis's `isnull`): absence is
 *    `iskey == false`, and raxFind tells it apart by returning raxNotFound.
 *  - `children`: owned, sorted by the first byte of their labels, no two
 *    with the same first byte (a child's subtree holds exactly the keys
 *    that go through that byte).
 *
 * Invariants (path compression, as Redis keeps it):
 *  - Every node but the head is a key or has at least two children. A node
 *    that is neither would be a chain link: insertion never creates one and
 *    raxRemove merges it into its only child (the child's label gets the
 *    node's label in front: Redis's re-compression after a removal) or
 *    drops it when it has no child left.
 *  - So every leaf is a key, the depth is at most the length of the
 *    longest key plus one, and `numnodes` is at most 2 * `numele` + 1.
 *  - `numele` counts the keys, `numnodes` the nodes, the head included.
 *
 * Costs: raxInsert, raxFind and raxRemove walk one path, a binary search
 * over the children at each node; raxSeek the same; raxNext and raxPrev
 * climb and descend only the nodes between two neighbouring keys. Appending
 * keys in increasing order (stream IDs) and seeking "$" walk one path too.
 *
 * Iterators hold pointers into the tree: any raxInsert or raxRemove on the
 * tree invalidates them, and they must be raxSeek'ed again before the next
 * raxNext or raxPrev (Redis's rule; removal while iterating is done by
 * removing `it.key` and seeking ">" it again). An iterator frees nothing of
 * the tree and needs no raxStop: it is a plain object.
 *
 * Memory: the tree owns its nodes (freed when the rax is destroyed, without
 * recursion however deep the tree); the values are the caller's, freed by
 * raxFreeWithCallback when they are owned through the tree. A stream holds
 * a node or two per listpack of entries, so nodes are kept small: 32
 * bytes (jemalloc's 32-byte class; the label's length, the child count and
 * iskey share two bytes as bit-fields), and at most two more blocks, both
 * exactly sized and owned by the node:
 *  - the label lives in the node up to 14 bytes, in a block of its own when
 *    longer (long consumer names; in a tree of 16-byte stream IDs only an
 *    edge starting in an ID's first two bytes can be that long);
 *  - the children are one array of `numchildren_` owning pointers
 *    (at most 256: one per byte), reallocated to its new size by
 *    insertChild and removeChild, absent for a leaf.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/* A node: 32 bytes, jemalloc's 32-byte class (see "Memory" above). */
class raxNode {
public:
    /* Labels up to this long live in the node, longer ones in a block. */
    static constexpr size_t inline_label_capacity = 14;

    raxNode() = default;
    explicit raxNode(std::string_view label) { setLabel(label); }
    ~raxNode();
    raxNode(const raxNode &) = delete;
    raxNode &operator=(const raxNode &) = delete;

    std::string_view label() const {
        return labelOnHeap() ? std::string_view(heapLabelBytes(), heapLabelSize()) : std::string_view(label_, labellen_);
    }
    /* `s` may be a part of the current label. */
    void setLabel(std::string_view s);
    bool labelOnHeap() const { return labellen_ == label_on_heap; }

    std::span<std::unique_ptr<raxNode>> children() { return {children_, numchildren_}; }
    std::span<const std::unique_ptr<raxNode>> children() const { return {children_, numchildren_}; }
    /* The children array is reallocated to its exact new size by both. */
    void insertChild(size_t index, std::unique_ptr<raxNode> child);
    std::unique_ptr<raxNode> removeChild(size_t index);

    void *data = nullptr;

private:
    static constexpr unsigned label_on_heap = 15; /* labellen_ of a label in a block */

    /* A label in a block keeps in label_ the block's address, then its
     * size as a uint32_t (copied in and out: label_ is bytes). */
    char *heapLabelBytes() const {
        char *bytes;
        std::memcpy(&bytes, label_, sizeof bytes);
        return bytes;
    }
    uint32_t heapLabelSize() const {
        uint32_t size;
        std::memcpy(&size, label_ + sizeof(char *), sizeof size);
        return size;
    }
    void replaceChildren(std::unique_ptr<raxNode> *array, size_t count);

    std::unique_ptr<raxNode> *children_ = nullptr; /* owned: numchildren_ exactly, or null */
    char label_[inline_label_capacity] = {};       /* the label, or where its block is */
    uint16_t labellen_ : 4 = 0;                     /* up to inline_label_capacity, or label_on_heap */
    uint16_t numchildren_ : 9 = 0;                  /* at most 256: one per byte value */

public:
    bool iskey : 1 = false;
};

struct rax {
    std::unique_ptr<raxNode> head;
    uint64_t numele = 0;   /* keys in the tree */
    uint64_t numnodes = 1; /* nodes, the head included (a debug figure, as Redis's) */

    rax();  /* raxNew: an empty tree, only the head */
    ~rax(); /* raxFree: the nodes, not the values */
    rax(const rax &) = delete;
    rax &operator=(const rax &) = delete;
};

/* What raxFind returns for an absent key: an address no caller's value
 * can have, so that a null value stays a value. */
extern void *const raxNotFound;

/* raxInsert: sets `s` to `data`. True if the key is new; false if it was
 * there, its value overwritten (the previous one in *old when `old` is not
 * null). */
bool raxInsert(rax *rt, std::string_view s, void *data, void **old = nullptr);
/* raxTryInsert: as raxInsert, but an existing key keeps its value (copied
 * to *old when `old` is not null) and false is returned. */
bool raxTryInsert(rax *rt, std::string_view s, void *data, void **old = nullptr);
/* raxRemove: false if `s` is not a key; else removes it, with its value in
 * *old when `old` is not null, and re-compresses the path. */
bool raxRemove(rax *rt, std::string_view s, void **old = nullptr);
/* raxFind: the value of `s`, or raxNotFound. */
void *raxFind(const rax *rt, std::string_view s);
/* raxSize: the number of keys. */
uint64_t raxSize(const rax *rt);
/* raxFreeWithCallback: calls `free_callback` on the value of every key,
 * then empties the tree (Redis also frees the rax itself; here its owner
 * does). */
void raxFreeWithCallback(rax *rt, void (*free_callback)(void *));

/* A position in the tree: the path from the head down to the current key,
 * and that key with its value. */
struct raxIterator {
    struct raxStackItem {
        raxNode *node;
        size_t index; /* the node's position among its parent's children */
    };

    rax *rt = nullptr;
    std::string key;      /* the current key (the labels along `stack`) */
    void *data = nullptr; /* the current key's value */
    std::vector<raxStackItem> stack; /* head first, the current node last */
    bool just_seeked = false; /* RAX_ITER_JUST_SEEKED: the next raxNext/raxPrev returns the sought key */
    bool eof = true;          /* RAX_ITER_EOF: no current key; key and data mean nothing */
};

/* raxStart: an iterator over `rt`, at EOF until it is seeked. */
void raxStart(raxIterator *it, rax *rt);
/* raxSeek: positions `it` on the key that the next raxNext or raxPrev
 * returns (either one returns it first, then moves): "^" the first key,
 * "$" the last, "=" `ele` itself, ">=" ">" "<=" "<" the nearest key on that
 * side of `ele`, present or not (`ele` is ignored by "^" and "$"). When
 * there is no such key the iterator is at EOF. False only for an unknown
 * operator (the iterator is then at EOF). */
bool raxSeek(raxIterator *it, std::string_view op, std::string_view ele = {});
/* raxNext / raxPrev: step to the following / preceding key; false at EOF. */
bool raxNext(raxIterator *it);
bool raxPrev(raxIterator *it);
/* raxEOF: true when the iterator has no current key. */
bool raxEOF(const raxIterator *it);
