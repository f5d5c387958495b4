/* rio.cpp — the RDB streams (Redis's rio.c; see rio.h). */
#include "rio.h"

#include <unistd.h>

#include <cstring>

#include "crc64.h"

bool rio::write(const void *buf, size_t len) {
    if (!writeBytes(buf, len)) return false;
    if (update_cksum) cksum = crc64(cksum, static_cast<const unsigned char *>(buf), len);
    processed_bytes += len;
    return true;
}

bool rio::read(void *buf, size_t len) {
    if (!readBytes(buf, len)) return false;
    if (update_cksum) cksum = crc64(cksum, static_cast<const unsigned char *>(buf), len);
    processed_bytes += len;
    return true;
}

bool rioBuffer::writeBytes(const void *buf, size_t len) {
    buf_.append(static_cast<const char *>(buf), len);
    return true;
}

bool rioBuffer::readBytes(void *buf, size_t len) {
    if (buf_.size() - pos_ < len) return false;
    memcpy(buf, buf_.data() + pos_, len);
    pos_ += len;
    return true;
}

bool rioFile::writeBytes(const void *buf, size_t len) {
    if (len && fwrite(buf, len, 1, fp_) != 1) return false;
    buffered_ += len;
    if (autosync_ && buffered_ >= autosync_) {
        if (fflush(fp_) != 0 || fdatasync(fileno(fp_)) != 0) return false;
        buffered_ = 0;
    }
    return true;
}

bool rioFile::readBytes(void *buf, size_t len) { return len == 0 || fread(buf, len, 1, fp_) == 1; }
