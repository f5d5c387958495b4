/* adlist_test.cpp — the linked list of the `linkedlist` encoding.
 *
 * Every test checks the whole structure after it changes: the forward walk,
 * the backward walk (each node's prev is the node before it), head, tail and
 * length must all agree with the expected values. Under ASan this also
 * proves each value fits in its node's single allocation.
 */
#include "adlist.h"

#include <gtest/gtest.h>

#include <climits>
#include <deque>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

std::vector<std::string> walk(const list &l, int direction) {
    std::vector<std::string> out;
    listIter it(l, direction);
    while (listNode *n = it.next()) out.emplace_back(n->value());
    return out;
}

template <typename Container>
void expectList(const list &l, const Container &want) {
    ASSERT_EQ(l.length(), want.size());
    ASSERT_EQ(l.first() == nullptr, want.empty());
    ASSERT_EQ(l.last() == nullptr, want.empty());
    if (!want.empty()) {
        ASSERT_EQ(l.first()->prev(), nullptr);
        ASSERT_EQ(l.last()->next(), nullptr);
    }
    size_t i = 0;
    for (listNode *n = l.first(); n; n = n->next(), i++) {
        ASSERT_LT(i, want.size());
        ASSERT_EQ(n->value(), want[i]);
        if (n->next()) {
            ASSERT_EQ(n->next()->prev(), n);
        } else {
            ASSERT_EQ(n, l.last());
        }
    }
    ASSERT_EQ(i, want.size());
    const std::vector<std::string> backward = walk(l, AL_START_TAIL);
    ASSERT_TRUE(std::equal(backward.rbegin(), backward.rend(), want.begin(), want.end()));
}

using Strings = std::vector<std::string>;

list makeList(std::initializer_list<std::string_view> values) {
    list l;
    for (std::string_view v : values) l.addNodeTail(v);
    return l;
}

TEST(AdlistTest, EmptyList) {
    list l;
    expectList(l, Strings{});
    EXPECT_EQ(l.index(0), nullptr);
    EXPECT_EQ(l.index(-1), nullptr);
    l.rotate();
    expectList(l, Strings{});
    EXPECT_TRUE(walk(l, AL_START_HEAD).empty());
}

TEST(AdlistTest, AddAtBothEnds) {
    list l;
    l.addNodeTail("b");
    l.addNodeHead("a");
    l.addNodeTail("c");
    expectList(l, Strings{"a", "b", "c"});
    EXPECT_EQ(walk(l, AL_START_HEAD), (Strings{"a", "b", "c"}));
    EXPECT_EQ(walk(l, AL_START_TAIL), (Strings{"c", "b", "a"}));
}

TEST(AdlistTest, ValuesAreBytes) {
    const std::string binary("\0\xff\r\n\0", 5), large(100000, 'L');
    list l = makeList({"", binary, large});
    expectList(l, Strings{"", binary, large});
    EXPECT_EQ(l.first()->value().size(), 0u);
}

/* The value lives in the node's own allocation, right after prev, next and
 * the 4-byte length: no second block, no pointer to it. */
TEST(AdlistTest, ValueIsStoredInsideTheNode) {
    list l = makeList({"0123456789"});
    const listNode *n = l.first();
    const char *node = reinterpret_cast<const char *>(n);
    EXPECT_EQ(n->value().data() - node, static_cast<long>(2 * sizeof(void *) + sizeof(uint32_t)));
}

TEST(AdlistTest, InsertNodeBeforeAndAfter) {
    list l = makeList({"b", "d"});
    l.insertNode(l.first(), "a", false); /* new head */
    l.insertNode(l.last(), "e", true);   /* new tail */
    l.insertNode(l.index(1), "c", true);  /* middle */
    expectList(l, Strings{"a", "b", "c", "d", "e"});
    listNode *n = l.insertNode(l.index(2), "bc", false);
    EXPECT_EQ(n->value(), "bc");
    EXPECT_EQ(n, l.index(2));
    expectList(l, Strings{"a", "b", "bc", "c", "d", "e"});

    list one = makeList({"x"});
    one.insertNode(one.first(), "y", true);
    one.insertNode(one.first(), "w", false);
    expectList(one, Strings{"w", "x", "y"});
}

TEST(AdlistTest, DelNode) {
    list l = makeList({"a", "b", "c", "d"});
    l.delNode(l.index(1));
    expectList(l, Strings{"a", "c", "d"});
    l.delNode(l.first());
    expectList(l, Strings{"c", "d"});
    l.delNode(l.last());
    expectList(l, Strings{"c"});
    l.delNode(l.first());
    expectList(l, Strings{});
    l.addNodeTail("again");
    expectList(l, Strings{"again"});
}

TEST(AdlistTest, IndexFromBothEnds) {
    list l = makeList({"a", "b", "c"});
    const Strings want{"a", "b", "c"};
    for (long i = 0; i < 3; i++) {
        ASSERT_NE(l.index(i), nullptr);
        EXPECT_EQ(l.index(i)->value(), want[i]);
        EXPECT_EQ(l.index(i - 3), l.index(i));
    }
    EXPECT_EQ(l.index(3), nullptr);
    EXPECT_EQ(l.index(-4), nullptr);
    EXPECT_EQ(l.index(LONG_MAX), nullptr);
    EXPECT_EQ(l.index(LONG_MIN), nullptr);
}

TEST(AdlistTest, Rotate) {
    list one = makeList({"only"});
    one.rotate();
    expectList(one, Strings{"only"});

    list two = makeList({"a", "b"});
    two.rotate();
    expectList(two, Strings{"b", "a"});

    list l = makeList({"a", "b", "c", "d"});
    l.rotate();
    expectList(l, Strings{"d", "a", "b", "c"});
    for (int i = 0; i < 3; i++) l.rotate();
    expectList(l, Strings{"a", "b", "c", "d"});
}

/* listNext moves on before it returns, so the returned node may go. */
TEST(AdlistTest, DeleteWhileIterating) {
    list l = makeList({"keep", "drop", "keep", "drop", "drop"});
    listIter it(l, AL_START_HEAD);
    while (listNode *n = it.next()) {
        if (n->value() == "drop") l.delNode(n);
    }
    expectList(l, Strings{"keep", "keep"});

    list back = makeList({"1", "2", "3"});
    listIter rit(back, AL_START_TAIL);
    while (listNode *n = rit.next()) back.delNode(n);
    expectList(back, Strings{});
}

TEST(AdlistTest, MoveAndClear) {
    list a = makeList({"x", "y"});
    list b = std::move(a);
    expectList(a, Strings{}); /* a moved-from list is empty, and usable */
    expectList(b, Strings{"x", "y"});
    list c = makeList({"old"});
    c = std::move(b);
    expectList(c, Strings{"x", "y"});
    c.clear();
    expectList(c, Strings{});
    c.addNodeHead("fresh");
    expectList(c, Strings{"fresh"});
}

TEST(AdlistTest, LongListIsFreedWithoutRecursion) {
    list l;
    for (int i = 0; i < 1000000; i++) l.addNodeTail("v");
    EXPECT_EQ(l.length(), 1000000u);
}

TEST(AdlistTest, RandomOperationsAgainstDeque) {
    std::mt19937_64 rng(7);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    list l;
    std::deque<std::string> d;
    for (int step = 0; step < 20000; step++) {
        const size_t n = d.size();
        const std::string v(pick(40), static_cast<char>('a' + pick(26)));
        const size_t op = n == 0 ? pick(2) : n > 100 ? 3 + pick(2) : pick(6);
        const size_t i = n ? pick(n) : 0;
        switch (op) {
        case 0:
            l.addNodeHead(v);
            d.push_front(v);
            break;
        case 1:
            l.addNodeTail(v);
            d.push_back(v);
            break;
        case 2: {
            const bool after = pick(2);
            l.insertNode(l.index(static_cast<long>(i) - static_cast<long>(n)), v, after);
            d.insert(d.begin() + static_cast<long>(i + after), v);
            break;
        }
        case 3:
            l.delNode(l.index(static_cast<long>(i)));
            d.erase(d.begin() + static_cast<long>(i));
            break;
        case 4:
            l.rotate();
            d.push_front(d.back());
            d.pop_back();
            break;
        default: ASSERT_EQ(l.index(static_cast<long>(i))->value(), d[i]);
        }
        expectList(l, d);
        if (HasFailure()) FAIL() << "at step " << step;
    }
}

}  // namespace
