/* object_test.cpp — the string encodings of object.cpp: which of INT, EMBSTR
 * and RAW a value gets (createStringObject, tryObjectEncoding), the shared
 * integers, dupStringObject, and reading a value back whatever its encoding.
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "object.h"

using namespace std::literals;

namespace {

std::string text(const robj *o) {
    StringBuf buf;
    return std::string(objectStringView(o, buf));
}

long long intValue(const robj *o) { return static_cast<long long>(reinterpret_cast<intptr_t>(o->ptr)); }

bool isShared(const robj *o) { return o->refcount == OBJ_SHARED_REFCOUNT; }

/* An embstr's bytes live right after the robj, behind an sdshdr8. */
bool isEmbeddedInPlace(const robj *o) {
    return o->ptr == reinterpret_cast<const char *>(o + 1) + sizeof(sdshdr8);
}

TEST(ObjectString, EmbstrUpToFortyFourBytesThenRaw) {
    ObjRef e = createStringObject(std::string(44, 'a'));
    EXPECT_EQ(e->type, OBJ_STRING);
    EXPECT_EQ(e->encoding, OBJ_ENCODING_EMBSTR);
    EXPECT_TRUE(isEmbeddedInPlace(e.get()));
    EXPECT_EQ(text(e.get()), std::string(44, 'a'));
    EXPECT_EQ(e->refcount, 1);
    /* 44 is the limit because robj + header + 44 bytes + NUL is 64 bytes. */
    EXPECT_EQ(sizeof(robj) + sdsEmbedSize(OBJ_ENCODING_EMBSTR_SIZE_LIMIT), 64u);

    ObjRef r = createStringObject(std::string(45, 'b'));
    EXPECT_EQ(r->encoding, OBJ_ENCODING_RAW);
    EXPECT_EQ(text(r.get()), std::string(45, 'b'));
    EXPECT_EQ(objectRawSds(r.get()).size(), 45u);

    ObjRef empty = createStringObject("");
    EXPECT_EQ(empty->encoding, OBJ_ENCODING_EMBSTR);
    EXPECT_EQ(stringObjectLen(empty.get()), 0u);

    ObjRef bin = createStringObject("a\0b\r\n"sv);
    EXPECT_EQ(text(bin.get()), "a\0b\r\n"s);
    EXPECT_EQ(createRawStringObject("short")->encoding, OBJ_ENCODING_RAW);
}

TEST(ObjectString, TryObjectEncodingOfIntegers) {
    ObjRef small = tryObjectEncoding(createStringObject("123"));
    EXPECT_EQ(small->encoding, OBJ_ENCODING_INT);
    EXPECT_TRUE(isShared(small.get()));
    EXPECT_EQ(intValue(small.get()), 123);

    ObjRef neg = tryObjectEncoding(createStringObject("-5"));
    EXPECT_EQ(neg->encoding, OBJ_ENCODING_INT);
    EXPECT_EQ(neg->refcount, 1); /* negative numbers are never shared */
    EXPECT_EQ(intValue(neg.get()), -5);
    EXPECT_EQ(text(neg.get()), "-5");

    ObjRef big = tryObjectEncoding(createStringObject("12345678901"));
    EXPECT_EQ(big->encoding, OBJ_ENCODING_INT);
    EXPECT_EQ(big->refcount, 1);
    EXPECT_EQ(intValue(big.get()), 12345678901LL);
    EXPECT_EQ(stringObjectLen(big.get()), 11u);

    for (const char *edge : {"9223372036854775807", "-9223372036854775808"}) {
        ObjRef o = tryObjectEncoding(createStringObject(edge));
        EXPECT_EQ(o->encoding, OBJ_ENCODING_INT) << edge;
        EXPECT_EQ(text(o.get()), edge);
    }
    EXPECT_TRUE(isShared(tryObjectEncoding(createStringObject("9999")).get()));
    EXPECT_FALSE(isShared(tryObjectEncoding(createStringObject("10000")).get()));
    EXPECT_TRUE(isShared(tryObjectEncoding(createStringObject("0")).get()));
}

TEST(ObjectString, TryObjectEncodingKeepsNonCanonicalNumbersAsText) {
    for (const char *s : {"007", " 1", "1 ", "+1", "-0", "1.5", "1e3", "0x10", "9223372036854775808", "-",
                          "", "abc", "123456789012345678901"}) {
        ObjRef in = createStringObject(s);
        robj *before = in.get();
        ObjRef out = tryObjectEncoding(std::move(in));
        EXPECT_EQ(out->encoding, OBJ_ENCODING_EMBSTR) << '"' << s << '"';
        EXPECT_EQ(out.get(), before) << "an embstr is already compact: " << s;
        EXPECT_EQ(text(out.get()), s);
    }
}

TEST(ObjectString, TryObjectEncodingOfRawStrings) {
    /* A RAW number outside the shared range becomes INT in place. */
    ObjRef raw = createRawStringObject("123456");
    robj *before = raw.get();
    ObjRef asInt = tryObjectEncoding(std::move(raw));
    EXPECT_EQ(asInt.get(), before);
    EXPECT_EQ(asInt->encoding, OBJ_ENCODING_INT);
    EXPECT_EQ(intValue(asInt.get()), 123456);

    EXPECT_TRUE(isShared(tryObjectEncoding(createRawStringObject("42")).get()));

    /* A short RAW string becomes an embstr, a long one stays RAW... */
    ObjRef shortRaw = tryObjectEncoding(createRawStringObject("hello"));
    EXPECT_EQ(shortRaw->encoding, OBJ_ENCODING_EMBSTR);
    EXPECT_EQ(text(shortRaw.get()), "hello");
    EXPECT_EQ(tryObjectEncoding(createRawStringObject(std::string(44, 'x')))->encoding, OBJ_ENCODING_EMBSTR);
    EXPECT_EQ(tryObjectEncoding(createRawStringObject(std::string(45, 'x')))->encoding, OBJ_ENCODING_RAW);

    /* ...trimmed when more than 10% of its room is unused. */
    ObjRef roomy = createRawStringObject(std::string(100, 'y'));
    objectRawSds(roomy.get()).makeRoomFor(1000);
    before = roomy.get();
    ObjRef trimmed = tryObjectEncoding(std::move(roomy));
    EXPECT_EQ(trimmed.get(), before);
    EXPECT_LE(objectRawSds(trimmed.get()).avail(), 10u);
    EXPECT_EQ(text(trimmed.get()), std::string(100, 'y'));
}

TEST(ObjectString, TryObjectEncodingLeavesSharedValuesAlone) {
    ObjRef o = createRawStringObject("123456");
    ObjRef other = o; /* refcount 2: someone else may be reading it */
    EXPECT_EQ(o->refcount, 2);
    ObjRef same = tryObjectEncoding(o);
    EXPECT_EQ(same.get(), o.get());
    EXPECT_EQ(same->encoding, OBJ_ENCODING_RAW);
}

TEST(ObjectString, SharedIntegersHaveAFixedRefcount) {
    for (long long v : {0LL, 1LL, 5000LL, 9999LL}) {
        ObjRef a = createStringObjectFromLongLong(v), b = createStringObjectFromLongLong(v);
        EXPECT_EQ(a.get(), b.get()) << v;
        EXPECT_EQ(a->refcount, OBJ_SHARED_REFCOUNT);
        EXPECT_EQ(a->encoding, OBJ_ENCODING_INT);
        EXPECT_EQ(intValue(a.get()), v);
        {
            ObjRef copy = a;
            EXPECT_EQ(a->refcount, OBJ_SHARED_REFCOUNT);
        }
        EXPECT_EQ(a->refcount, OBJ_SHARED_REFCOUNT);
    }
    for (long long v : {-1LL, 10000LL, LLONG_MAX, LLONG_MIN}) {
        ObjRef a = createStringObjectFromLongLong(v), b = createStringObjectFromLongLong(v);
        EXPECT_NE(a.get(), b.get()) << v;
        EXPECT_EQ(a->refcount, 1);
        EXPECT_EQ(intValue(a.get()), v);
        ObjRef copy = a;
        EXPECT_EQ(a->refcount, 2);
    }
}

TEST(ObjectString, DupStringObjectMakesAPrivateCopyOfTheSameEncoding) {
    ObjRef e = createStringObject("embedded");
    ObjRef de = dupStringObject(e.get());
    EXPECT_NE(de.get(), e.get());
    EXPECT_EQ(de->encoding, OBJ_ENCODING_EMBSTR);
    EXPECT_TRUE(isEmbeddedInPlace(de.get()));
    EXPECT_EQ(text(de.get()), "embedded");
    EXPECT_EQ(de->refcount, 1);

    ObjRef r = createStringObject(std::string(100, 'r'));
    ObjRef dr = dupStringObject(r.get());
    EXPECT_EQ(dr->encoding, OBJ_ENCODING_RAW);
    EXPECT_NE(objectRawSds(dr.get()).data(), objectRawSds(r.get()).data());
    EXPECT_EQ(text(dr.get()), std::string(100, 'r'));

    ObjRef shared = createStringObjectFromLongLong(7);
    ObjRef ds = dupStringObject(shared.get());
    EXPECT_NE(ds.get(), shared.get());
    EXPECT_EQ(ds->encoding, OBJ_ENCODING_INT);
    EXPECT_EQ(ds->refcount, 1); /* a private copy, free to change */
    EXPECT_EQ(intValue(ds.get()), 7);
}

TEST(ObjectString, ReadingValuesBack) {
    long long ll;
    ObjRef i = createStringObjectFromLongLong(-123);
    EXPECT_EQ(text(i.get()), "-123");
    EXPECT_EQ(stringObjectLen(i.get()), 4u);
    EXPECT_TRUE(getLongLongFromObject(i.get(), &ll));
    EXPECT_EQ(ll, -123);
    EXPECT_TRUE(getLongLongFromObject(createRawStringObject("77").get(), &ll));
    EXPECT_EQ(ll, 77);
    EXPECT_FALSE(getLongLongFromObject(createStringObject("007").get(), &ll));
    EXPECT_FALSE(getLongLongFromObject(createStringObject("1.0").get(), &ll));

    long double ld;
    EXPECT_TRUE(getLongDoubleFromObject(createStringObject("1.5").get(), &ld));
    EXPECT_EQ(ld, 1.5L);
    EXPECT_TRUE(getLongDoubleFromObject(i.get(), &ld));
    EXPECT_EQ(ld, -123.0L);
    EXPECT_FALSE(getLongDoubleFromObject(createStringObject("abc").get(), &ld));
}

TEST(ObjectString, LongDoublesAreStoredHumanFriendly) {
    EXPECT_EQ(text(createStringObjectFromLongDouble(3.5L, true).get()), "3.5");
    EXPECT_EQ(text(createStringObjectFromLongDouble(10.0L, true).get()), "10");
    EXPECT_EQ(text(createStringObjectFromLongDouble(-0.0L, true).get()), "0");
    EXPECT_EQ(text(createStringObjectFromLongDouble(5200.0L, true).get()), "5200");
    EXPECT_EQ(createStringObjectFromLongDouble(3.0L, true)->encoding, OBJ_ENCODING_EMBSTR);
    EXPECT_EQ(text(createStringObjectFromLongDouble(1e20L, false).get()), "1e+20");
}

}  // namespace
