/* adlist.h — the doubly linked list (Redis's adlist.c / adlist.h) behind
 * the `linkedlist` list encoding, which a list takes once it outgrows its
 * ziplist.
 *
 * Invariants:
 *  - head's prev and tail's next are null, len counts the nodes, and an empty
 *    list has neither head nor tail.
 *  - A node and its value are one allocation: prev, next, the value's length,
 *    then its bytes. A 10-byte element costs a single 32-byte block, where
 *    Redis pays for a node, a robj and an sds string.
 *  - The list owns its nodes: delNode and the destructor free them. A
 *    listNode* it hands out is a handle that stays valid until that node is
 *    deleted; nothing else ever frees a node.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

constexpr int AL_START_HEAD = 0, AL_START_TAIL = 1;

class listNode {
public:
    listNode(const listNode &) = delete;
    listNode &operator=(const listNode &) = delete;

    listNode *prev() const { return prev_; } /* listPrevNode */
    listNode *next() const { return next_; } /* listNextNode */
    std::string_view value() const { return {value_, len_}; } /* listNodeValue */

private:
    friend class list;
    explicit listNode(uint32_t len) : len_(len) {}
    static listNode *create(std::string_view value);
    static void destroy(listNode *node);

    listNode *prev_ = nullptr;
    listNode *next_ = nullptr;
    uint32_t len_;
    /* The value's bytes, right after len_ (offset 20 on 64-bit hosts): a
     * flexible array member, the C idiom g++ and clang accept in C++. */
    char value_[];
};

class list {
public:
    list() = default;
    ~list() { clear(); }
    list(list &&other) noexcept;
    list &operator=(list &&other) noexcept;
    list(const list &) = delete;
    list &operator=(const list &) = delete;

    unsigned long length() const { return len_; } /* listLength */
    listNode *first() const { return head_; }     /* listFirst */
    listNode *last() const { return tail_; }      /* listLast */

    /* listAddNodeHead / listAddNodeTail: each returns the new node. Values
     * are limited to 4 GiB - 1 bytes (std::length_error beyond). */
    listNode *addNodeHead(std::string_view value);
    listNode *addNodeTail(std::string_view value);
    /* listInsertNode: a new node before or after `oldNode`. */
    listNode *insertNode(listNode *oldNode, std::string_view value, bool after);
    /* listDelNode: unlinks and frees `node`. */
    void delNode(listNode *node);
    /* listIndex: the node at `index` (-1 is the tail), or null. */
    listNode *index(long index) const;
    /* listRotate: the tail becomes the head. */
    void rotate();
    /* listEmpty: frees every node; the list stays usable. */
    void clear();

private:
    void link(listNode *node, listNode *before, listNode *after);

    listNode *head_ = nullptr;
    listNode *tail_ = nullptr;
    unsigned long len_ = 0;
};

/* listIter (listGetIterator, listNext): walks from the head or from the tail.
 * next() returns the node it stands on and moves on before returning, so the
 * caller may delete that node and keep iterating. */
class listIter {
public:
    listIter(const list &l, int direction)
        : next_(direction == AL_START_HEAD ? l.first() : l.last()), direction_(direction) {}

    listNode *next() {
        listNode *current = next_;
        if (current) next_ = direction_ == AL_START_HEAD ? current->next() : current->prev();
        return current;
    }

private:
    listNode *next_;
    int direction_;
};
