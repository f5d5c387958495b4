/* t_stream.cpp — the stream type's commands (Redis 5+'s t_stream.c, its
 * command half; the data structure is stream.cpp).
 * SKELETON: each section below is filled by one helper; the header comment
 * is rewritten when the file is complete.
 */
#include "t_stream.h"

#include "server.h"

/* ========================================================================
 * The stream type and its commands: XADD, XRANGE, XREVRANGE, XLEN, XDEL,
 * XTRIM, XSETID, XREAD/XREADGROUP (without the waiting: blocked.cpp)
 * ====================================================================== */
/* ---- section 1 (helper "xcmds") begins ---- */

ObjRef createStreamObject() { return ObjRef(); }
unsigned long streamLength(const robj *o) { return objectStream(o).length; }
streamNodeLimits streamServerNodeLimits() { return {}; }
bool streamParseIDOrReply(client *, std::string_view, streamID *, uint64_t, bool *) { return false; }
void addReplyStreamID(client *, const streamID &) {}
size_t streamReplyWithRange(client *, stream *, const streamID *, const streamID *, size_t, bool, streamCG *,
                            streamConsumer *, int, const streamPropInfo *) {
    return 0;
}
bool xreadGenericCommand(client *c, xreadBlockArgs *) {
    addReplyError(c, "not implemented yet");
    return true;
}
blockedServe serveClientBlockedOnStream(client *, robj *, std::string_view) { return blockedServe::not_ready; }
void xaddCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xrangeCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xrevrangeCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xlenCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xdelCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xtrimCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xsetidCommand(client *c) { addReplyError(c, "not implemented yet"); }

/* ---- section 1 ends ---- */

/* ========================================================================
 * Consumer groups: XGROUP, XACK, XPENDING, XCLAIM, XAUTOCLAIM; and XINFO
 * ====================================================================== */
/* ---- section 2 (helper "xgroups") begins ---- */

void xgroupCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xackCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xpendingCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xclaimCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xautoclaimCommand(client *c) { addReplyError(c, "not implemented yet"); }
void xinfoCommand(client *c) { addReplyError(c, "not implemented yet"); }

/* ---- section 2 ends ---- */
