/* rio.h — the stream an RDB file is written to and read from (Redis's rio.c).
 *
 * rdb.cpp writes and reads through a `rio` and does not care what is behind
 * it: a file (SAVE, BGSAVE, loading at start-up), a string in memory (tests,
 * and anything that wants the bytes), or nothing at all (rioNull counts the
 * bytes: DEBUG OBJECT's serializedlength is the length the value would take
 * in a file, found by "writing" it).
 *
 * Invariants:
 *  - When update_cksum is set, `cksum` is the CRC-64 (crc64.h) of every
 *    byte written or read since it was set: the checksum that ends an RDB
 *    file is this value, computed as the bytes go by.
 *  - processed_bytes counts the bytes that went through successfully.
 *  - write() and read() move all the bytes or fail; a failed stream stays
 *    failed (a short read is an error, never a partial value).
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

class rio {
public:
    virtual ~rio() = default;

    /* rioWrite / rioRead: all `len` bytes or false. */
    bool write(const void *buf, size_t len);
    bool read(void *buf, size_t len);
    /* rioFlush: pushes buffered bytes to the file (not to the disk). */
    virtual bool flush() { return true; }

    uint64_t cksum = 0;
    bool update_cksum = false;
    size_t processed_bytes = 0;

protected:
    virtual bool writeBytes(const void *buf, size_t len) = 0;
    virtual bool readBytes(void *buf, size_t len) = 0;
};

/* rioInitWithBuffer: writes append to a string; reads consume it from the
 * start. */
class rioBuffer final : public rio {
public:
    rioBuffer() = default;
    explicit rioBuffer(std::string contents) : buf_(std::move(contents)) {}
    const std::string &contents() const { return buf_; }

protected:
    bool writeBytes(const void *buf, size_t len) override;
    bool readBytes(void *buf, size_t len) override;

private:
    std::string buf_;
    size_t pos_ = 0;
};

/* rioInitWithFile: a stdio stream the caller opened and closes. With
 * autosync set, the written data is fsynced every `autosync` bytes, so
 * that saving a big dataset does not leave gigabytes of dirty pages for
 * one final fsync (rdb-save-incremental-fsync). */
/* The autosync step of rdb-save-incremental-fsync and
 * aof-rewrite-incremental-fsync (Redis's REDIS_AUTOSYNC_BYTES). */
constexpr size_t REDIS_AUTOSYNC_BYTES = 4 * 1024 * 1024;

class rioFile final : public rio {
public:
    explicit rioFile(FILE *fp) : fp_(fp) {}
    void setAutoSync(size_t bytes) { autosync_ = bytes; }
    bool flush() override { return fflush(fp_) == 0; }

protected:
    bool writeBytes(const void *buf, size_t len) override;
    bool readBytes(void *buf, size_t len) override;

private:
    FILE *fp_;
    size_t autosync_ = 0;
    size_t buffered_ = 0; /* bytes written since the last fsync */
};

/* Redis's NULL rio: accepts every write, keeps nothing, reads nothing. */
class rioNull final : public rio {
protected:
    bool writeBytes(const void *, size_t) override { return true; }
    bool readBytes(void *, size_t) override { return false; }
};
