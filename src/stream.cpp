/* stream.cpp — SKELETON: helper "stream" implements every function of
 * stream.h here and rewrites this comment. */
#include "stream.h"

void streamEncodeID(unsigned char *, const streamID &) {}
streamID streamDecodeID(const unsigned char *) { return {}; }
bool streamIncrID(streamID *) { return false; }
bool streamDecrID(streamID *) { return false; }
streamCG::~streamCG() = default;
stream::~stream() = default;
std::unique_ptr<stream> streamDup(const stream &) { return std::make_unique<stream>(); }
streamAppendResult streamAppendItem(stream *, std::span<const std::string_view>, long long, streamNodeLimits,
                                    streamID *, const streamID *, bool) {
    return streamAppendResult::too_large;
}
bool streamDeleteItem(stream *, const streamID &) { return false; }
int64_t streamTrim(stream *, const streamTrimArgs &) { return 0; }
streamID streamGetEdgeID(stream *, bool, bool) { return {}; }
void streamIteratorStart(streamIterator *, stream *, const streamID *, const streamID *, bool) {}
bool streamIteratorGetID(streamIterator *, streamID *, int64_t *) { return false; }
void streamIteratorGetField(streamIterator *, std::string_view *, std::string_view *) {}
void streamIteratorRemoveEntry(streamIterator *, streamID *) {}
streamCG *streamCreateCG(stream *, std::string_view, const streamID &, long long) { return nullptr; }
streamCG *streamLookupCG(stream *, std::string_view) { return nullptr; }
bool streamDestroyCG(stream *, std::string_view) { return false; }
streamConsumer *streamCreateConsumer(streamCG *, std::string_view, long long) { return nullptr; }
streamConsumer *streamLookupConsumer(streamCG *, std::string_view) { return nullptr; }
uint64_t streamDelConsumer(streamCG *, streamConsumer *) { return 0; }
std::unique_ptr<streamNACK> streamCreateNACK(streamConsumer *, long long) { return nullptr; }
long long streamEstimateDistanceFromFirstEverEntry(stream *, const streamID &) { return SCG_INVALID_ENTRIES_READ; }
bool streamValidateListpackIntegrity(std::string_view, const streamID &) { return false; }
