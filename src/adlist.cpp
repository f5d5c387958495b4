/* adlist.cpp — the doubly linked list (Redis's adlist.c; see adlist.h).
 *
 * Invariant kept by every function: the prev/next links, head_, tail_ and
 * len_ agree after each public call; nodes are freed only here.
 */
#include "adlist.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <utility>

/* One block holding the node header and the value. It is never smaller than
 * sizeof(listNode), so the object's padding is inside it too. */
listNode *listNode::create(std::string_view value) {
    if (value.size() > UINT32_MAX) throw std::length_error("list value larger than 4 GiB");
    const size_t bytes = std::max(sizeof(listNode), offsetof(listNode, value_) + value.size());
    auto *node = new (::operator new(bytes)) listNode(static_cast<uint32_t>(value.size()));
    if (!value.empty()) memcpy(node->value_, value.data(), value.size());
    return node;
}

void listNode::destroy(listNode *node) {
    node->~listNode();
    ::operator delete(node);
}

list::list(list &&other) noexcept
    : head_(std::exchange(other.head_, nullptr)),
      tail_(std::exchange(other.tail_, nullptr)),
      len_(std::exchange(other.len_, 0)) {}

list &list::operator=(list &&other) noexcept {
    if (this != &other) {
        clear();
        head_ = std::exchange(other.head_, nullptr);
        tail_ = std::exchange(other.tail_, nullptr);
        len_ = std::exchange(other.len_, 0);
    }
    return *this;
}

/* Iterative, so a list of millions of nodes cannot overflow the stack. */
void list::clear() {
    listNode *node = head_;
    while (node) {
        listNode *next = node->next_;
        listNode::destroy(node);
        node = next;
    }
    head_ = tail_ = nullptr;
    len_ = 0;
}

/* Puts `node` between `before` and `after` (either null at an end). */
void list::link(listNode *node, listNode *before, listNode *after) {
    node->prev_ = before;
    node->next_ = after;
    (before ? before->next_ : head_) = node;
    (after ? after->prev_ : tail_) = node;
    len_++;
}

listNode *list::addNodeHead(std::string_view value) {
    listNode *node = listNode::create(value);
    link(node, nullptr, head_);
    return node;
}

listNode *list::addNodeTail(std::string_view value) {
    listNode *node = listNode::create(value);
    link(node, tail_, nullptr);
    return node;
}

listNode *list::insertNode(listNode *oldNode, std::string_view value, bool after) {
    listNode *node = listNode::create(value);
    if (after) link(node, oldNode, oldNode->next_);
    else link(node, oldNode->prev_, oldNode);
    return node;
}

void list::delNode(listNode *node) {
    (node->prev_ ? node->prev_->next_ : head_) = node->next_;
    (node->next_ ? node->next_->prev_ : tail_) = node->prev_;
    listNode::destroy(node);
    len_--;
}

listNode *list::index(long index) const {
    listNode *node;
    if (index < 0) {
        /* -(index + 1) cannot overflow, even for LONG_MIN. */
        unsigned long back = static_cast<unsigned long>(-(index + 1));
        for (node = tail_; node && back > 0; back--) node = node->prev_;
    } else {
        for (node = head_; node && index > 0; index--) node = node->next_;
    }
    return node;
}

void list::rotate() {
    if (len_ <= 1) return;
    listNode *tail = tail_;
    tail_ = tail->prev_;
    tail_->next_ = nullptr;
    tail->prev_ = nullptr;
    tail->next_ = head_;
    head_->prev_ = tail;
    head_ = tail;
}
