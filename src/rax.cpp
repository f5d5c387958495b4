/* rax.cpp — the radix tree of rax.h (Redis's rax.c). */
#include "rax.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <utility>

static char raxNotFoundTag;
void *const raxNotFound = &raxNotFoundTag;

/* ------------------------------------------------------------------------
 * The node's own memory: a label block when the label is too long to live
 * inline, and the children array, both exactly sized (std::allocator's
 * blocks carry no header, so malloc_usable_size measures them).
 * ---------------------------------------------------------------------- */

using raxChildAllocator = std::allocator<std::unique_ptr<raxNode>>;

raxNode::~raxNode() {
    setLabel({});
    replaceChildren(nullptr, 0);
}

void raxNode::setLabel(std::string_view s) {
    static_assert(inline_label_capacity >= sizeof(char *) + sizeof(uint32_t), "label_ holds a block's address and size");
    static_assert(inline_label_capacity < label_on_heap && label_on_heap < 16, "labellen_ is 4 bits");
    if (s.size() > UINT32_MAX) throw std::length_error("rax label over 4 GiB");
    /* The old block is freed last: `s` may point into it. */
    char *oldblock = labelOnHeap() ? heapLabelBytes() : nullptr;
    size_t oldsize = oldblock ? heapLabelSize() : 0;
    if (s.size() > inline_label_capacity) {
        char *block = std::allocator<char>().allocate(s.size());
        std::memcpy(block, s.data(), s.size());
        auto size = static_cast<uint32_t>(s.size());
        std::memcpy(label_, &block, sizeof block);
        std::memcpy(label_ + sizeof block, &size, sizeof size);
        labellen_ = label_on_heap;
    } else {
        if (!s.empty()) std::memmove(label_, s.data(), s.size());
        labellen_ = static_cast<uint16_t>(s.size());
    }
    if (oldblock) std::allocator<char>().deallocate(oldblock, oldsize);
}

/* Destroys the current children array (its pointers, null or not) and
 * takes `array` of `count` in its place. */
void raxNode::replaceChildren(std::unique_ptr<raxNode> *array, size_t count) {
    if (children_) {
        std::destroy_n(children_, numchildren_);
        raxChildAllocator().deallocate(children_, numchildren_);
    }
    children_ = array;
    numchildren_ = static_cast<uint16_t>(count);
}

void raxNode::insertChild(size_t index, std::unique_ptr<raxNode> child) {
    size_t count = numchildren_ + 1;
    std::unique_ptr<raxNode> *array = raxChildAllocator().allocate(count);
    std::uninitialized_move(children_, children_ + index, array);
    std::construct_at(array + index, std::move(child));
    std::uninitialized_move(children_ + index, children_ + numchildren_, array + index + 1);
    replaceChildren(array, count);
}

std::unique_ptr<raxNode> raxNode::removeChild(size_t index) {
    std::unique_ptr<raxNode> child = std::move(children_[index]);
    size_t count = numchildren_ - 1u;
    std::unique_ptr<raxNode> *array = count ? raxChildAllocator().allocate(count) : nullptr;
    std::uninitialized_move(children_, children_ + index, array);
    std::uninitialized_move(children_ + index + 1, children_ + numchildren_, array + index);
    replaceChildren(array, count);
    return child;
}

/* ------------------------------------------------------------------------
 * The tree.
 * ---------------------------------------------------------------------- */

rax::rax() : head(std::make_unique<raxNode>()) {}

/* Frees the nodes under `n` (and `n`) one by one from a work list, calling
 * `cb` on every key's value when it is set: no recursion, so no depth of
 * tree can exhaust the stack. */
static void raxFreeNodes(std::unique_ptr<raxNode> n, void (*cb)(void *)) {
    std::vector<std::unique_ptr<raxNode>> pending;
    pending.push_back(std::move(n));
    while (!pending.empty()) {
        std::unique_ptr<raxNode> node = std::move(pending.back());
        pending.pop_back();
        if (cb && node->iskey) cb(node->data);
        for (auto &child : node->children()) pending.push_back(std::move(child));
    }
}

rax::~rax() { raxFreeNodes(std::move(head), nullptr); }

/* The position among n's children of the child whose label starts with
 * `c`, or where it would be inserted. */
static size_t raxChildIndex(const raxNode *n, unsigned char c) {
    auto children = n->children();
    auto it = std::lower_bound(children.begin(), children.end(), c,
                               [](const std::unique_ptr<raxNode> &child, unsigned char b) {
                                   return static_cast<unsigned char>(child->label()[0]) < b;
                               });
    return static_cast<size_t>(it - children.begin());
}

static bool raxHasChildAt(const raxNode *n, size_t i, unsigned char c) {
    return i < n->children().size() && static_cast<unsigned char>(n->children()[i]->label()[0]) == c;
}

/* The length of the common prefix of a and b. */
static size_t raxCommonPrefix(std::string_view a, std::string_view b) {
    return static_cast<size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
}

/* Where a walk ended, for raxRemove's cleanup: the parent of the node
 * reached and that node's position among its children, and the same one
 * level up (null parents above the head). */
struct raxWalkTail {
    raxNode *parent = nullptr;
    size_t index = 0;
    raxNode *grandparent = nullptr;
    size_t parent_index = 0;
};

/* raxLowWalk: the node whose path is exactly `s` (a key or not), or null
 * when there is none; with `tail`, where it hangs. */
static raxNode *raxLowWalk(const rax *rt, std::string_view s, raxWalkTail *tail = nullptr) {
    raxNode *n = rt->head.get();
    size_t pos = 0;
    while (pos < s.size()) {
        size_t i = raxChildIndex(n, s[pos]);
        if (!raxHasChildAt(n, i, s[pos])) return nullptr;
        if (tail) *tail = {n, i, tail->parent, tail->index};
        n = n->children()[i].get();
        std::string_view label = n->label();
        if (s.substr(pos, label.size()) != label) return nullptr;
        pos += label.size();
    }
    return n;
}

/* raxGenericInsert: walks down `s`, splitting the child whose label
 * diverges from it (Redis's compressed-node split), and ends on the node of
 * `s`, made on the way if needed. */
static bool raxGenericInsert(rax *rt, std::string_view s, void *data, void **old, bool overwrite) {
    raxNode *n = rt->head.get();
    size_t pos = 0;
    while (pos < s.size()) {
        std::string_view rest = s.substr(pos);
        size_t i = raxChildIndex(n, rest[0]);
        if (!raxHasChildAt(n, i, rest[0])) {
            n->insertChild(i, std::make_unique<raxNode>(rest));
            rt->numnodes++;
            n = n->children()[i].get();
            break;
        }
        std::unique_ptr<raxNode> &slot = n->children()[i];
        size_t common = raxCommonPrefix(slot->label(), rest);
        if (common < slot->label().size()) {
            /* The key leaves (or ends inside) the child's edge: cut the edge
             * after the common bytes with a node that the key goes through
             * or ends at. */
            auto split = std::make_unique<raxNode>(slot->label().substr(0, common));
            slot->setLabel(slot->label().substr(common));
            split->insertChild(0, std::move(slot));
            slot = std::move(split);
            rt->numnodes++;
        }
        n = slot.get();
        pos += common;
    }
    if (n->iskey) {
        if (old) *old = n->data;
        if (overwrite) n->data = data;
        return false;
    }
    n->iskey = true;
    n->data = data;
    rt->numele++;
    return true;
}

bool raxInsert(rax *rt, std::string_view s, void *data, void **old) {
    return raxGenericInsert(rt, s, data, old, true);
}

bool raxTryInsert(rax *rt, std::string_view s, void *data, void **old) {
    return raxGenericInsert(rt, s, data, old, false);
}

/* The node in `slot` is not the head, not a key, and has one child: the
 * child takes its place, its label extended in front by the node's. */
static void raxCompress(std::unique_ptr<raxNode> &slot) {
    std::unique_ptr<raxNode> child = slot->removeChild(0);
    std::string label(slot->label());
    label.append(child->label());
    child->setLabel(label);
    slot = std::move(child);
}

/* A node that is not the head must be a key or branch (rax.h): once `slot`
 * lost its key or a child, drop it if it has no child left, or merge it into
 * its only child. `parent` is the node holding `slot`. */
static void raxCleanup(rax *rt, raxNode *parent, size_t index) {
    std::unique_ptr<raxNode> &slot = parent->children()[index];
    if (slot->iskey || slot->children().size() > 1) return;
    if (slot->children().empty())
        parent->removeChild(index);
    else
        raxCompress(slot);
    rt->numnodes--;
}

bool raxRemove(rax *rt, std::string_view s, void **old) {
    raxWalkTail tail;
    raxNode *n = raxLowWalk(rt, s, &tail);
    if (!n || !n->iskey) return false;
    if (old) *old = n->data;
    n->iskey = false;
    n->data = nullptr;
    rt->numele--;
    if (!tail.parent) return true; /* the head may stay as it is */
    bool dropped = n->children().empty();
    raxCleanup(rt, tail.parent, tail.index);
    /* Dropping a leaf takes a child from the parent, which may leave it a
     * non-key with one child: a chain link to merge in turn. */
    if (dropped && tail.grandparent) raxCleanup(rt, tail.grandparent, tail.parent_index);
    return true;
}

void *raxFind(const rax *rt, std::string_view s) {
    const raxNode *n = raxLowWalk(rt, s);
    return n && n->iskey ? n->data : raxNotFound;
}

uint64_t raxSize(const rax *rt) { return rt->numele; }

void raxFreeWithCallback(rax *rt, void (*free_callback)(void *)) {
    raxFreeNodes(std::move(rt->head), free_callback);
    rt->head = std::make_unique<raxNode>();
    rt->numele = 0;
    rt->numnodes = 1;
}

/* ------------------------------------------------------------------------
 * Iterators. The stack is the path from the head to the current node and
 * `key` the concatenation of its labels; the moves below keep both in step.
 * ---------------------------------------------------------------------- */

void raxStart(raxIterator *it, rax *rt) {
    it->rt = rt;
    it->key.clear();
    it->data = nullptr;
    it->stack.clear();
    it->just_seeked = false;
    it->eof = true;
}

bool raxEOF(const raxIterator *it) { return it->eof; }

static raxNode *raxIterTop(const raxIterator *it) { return it->stack.back().node; }

static void raxIterPush(raxIterator *it, size_t index) {
    raxNode *child = raxIterTop(it)->children()[index].get();
    it->stack.push_back({child, index});
    it->key.append(child->label());
}

/* Up to the parent; returns the position the left node had among its
 * siblings. */
static size_t raxIterPop(raxIterator *it) {
    raxIterator::raxStackItem top = it->stack.back();
    it->stack.pop_back();
    it->key.resize(it->key.size() - top.node->label().size());
    return top.index;
}

/* The first key in the subtree of the current node: the node itself or
 * down the first children (a node that is no key has children). */
static void raxSeekSmallest(raxIterator *it) {
    while (!raxIterTop(it)->iskey) raxIterPush(it, 0);
}

/* The last key in the subtree of the current node: down the last children
 * to a leaf, which is a key. */
static void raxSeekGreatest(raxIterator *it) {
    while (!raxIterTop(it)->children().empty()) raxIterPush(it, raxIterTop(it)->children().size() - 1);
}

/* The first key after the whole subtree of the current node; false when
 * there is none. */
static bool raxIterNextAfterSubtree(raxIterator *it) {
    while (it->stack.size() > 1) {
        size_t next = raxIterPop(it) + 1;
        if (next < raxIterTop(it)->children().size()) {
            raxIterPush(it, next);
            raxSeekSmallest(it);
            return true;
        }
    }
    return false;
}

/* The last key before the current node's (keys above it come before it,
 * then earlier siblings' subtrees); false when there is none. */
static bool raxIterPrevBeforeNode(raxIterator *it) {
    while (it->stack.size() > 1) {
        size_t index = raxIterPop(it);
        if (index > 0) {
            raxIterPush(it, index - 1);
            raxSeekGreatest(it);
            return true;
        }
        if (raxIterTop(it)->iskey) return true;
    }
    return false;
}

/* The first key in the subtrees of the current node's children from
 * position `index` on, or after them. */
static bool raxIterFirstFromChild(raxIterator *it, size_t index) {
    if (index < raxIterTop(it)->children().size()) {
        raxIterPush(it, index);
        raxSeekSmallest(it);
        return true;
    }
    return raxIterNextAfterSubtree(it);
}

/* The last key before the current node's child at `index` (which may be
 * one past the last): an earlier child's subtree, the node, or before it. */
static bool raxIterLastBeforeChild(raxIterator *it, size_t index) {
    if (index > 0) {
        raxIterPush(it, index - 1);
        raxSeekGreatest(it);
        return true;
    }
    return raxIterTop(it)->iskey || raxIterPrevBeforeNode(it);
}

/* After a move: the current key's value, or EOF when the move found none. */
static void raxIterLand(raxIterator *it, bool found) {
    it->eof = !found;
    it->data = found ? raxIterTop(it)->data : nullptr;
}

bool raxSeek(raxIterator *it, std::string_view op, std::string_view ele) {
    bool eq = op == "=" || op == ">=" || op == "<=";
    bool gt = op == ">" || op == ">=";
    bool lt = op == "<" || op == "<=";
    bool first = op == "^", last = op == "$";
    it->stack.clear();
    it->just_seeked = true;
    if (!eq && !gt && !lt && !first && !last) {
        it->eof = true;
        return false;
    }
    /* `ele` may be the iterator's own key (re-seeking after a removal):
     * read it from a copy, since the walk rewrites the key. */
    std::string copy;
    const char *keybuf = it->key.data();
    if (!ele.empty() && std::less_equal<const char *>()(keybuf, ele.data()) &&
        std::less<const char *>()(ele.data(), keybuf + it->key.size())) {
        copy.assign(ele);
        ele = copy;
    }
    it->key.clear();
    it->stack.push_back({it->rt->head.get(), 0});
    if (it->rt->numele == 0) {
        raxIterLand(it, false);
        return true;
    }
    if (first || last) {
        first ? raxSeekSmallest(it) : raxSeekGreatest(it);
        raxIterLand(it, true);
        return true;
    }
    size_t pos = 0;
    for (;;) {
        raxNode *n = raxIterTop(it);
        if (pos == ele.size()) { /* at the node of `ele` itself */
            if (eq && n->iskey) raxIterLand(it, true);
            else if (gt) raxIterLand(it, raxIterFirstFromChild(it, 0));
            else if (lt) raxIterLand(it, raxIterPrevBeforeNode(it));
            else raxIterLand(it, false);
            return true;
        }
        std::string_view rest = ele.substr(pos);
        size_t i = raxChildIndex(n, rest[0]);
        size_t common = 0;
        if (raxHasChildAt(n, i, rest[0])) {
            std::string_view label = n->children()[i]->label();
            common = raxCommonPrefix(label, rest);
            if (common == label.size()) {
                raxIterPush(it, i);
                pos += common;
                continue;
            }
            /* `ele` leaves the child's edge: the child's whole subtree is
             * on one side of it. Past it when ele is the smaller. */
            bool subtreeGreater = common == rest.size() ||
                                  static_cast<unsigned char>(label[common]) > static_cast<unsigned char>(rest[common]);
            if (!subtreeGreater) i++;
        }
        /* `ele` falls between the children before `i` and those from `i`. */
        if (gt) raxIterLand(it, raxIterFirstFromChild(it, i));
        else if (lt) raxIterLand(it, raxIterLastBeforeChild(it, i));
        else raxIterLand(it, false);
        return true;
    }
}

bool raxNext(raxIterator *it) {
    if (it->eof) return false;
    if (it->just_seeked) {
        it->just_seeked = false;
        return true;
    }
    raxIterLand(it, raxIterFirstFromChild(it, 0));
    return !it->eof;
}

bool raxPrev(raxIterator *it) {
    if (it->eof) return false;
    if (it->just_seeked) {
        it->just_seeked = false;
        return true;
    }
    raxIterLand(it, raxIterPrevBeforeNode(it));
    return !it->eof;
}
