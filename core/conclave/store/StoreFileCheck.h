#pragma once

#include "conclave/store/SqliteDb.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// The checks a run store file passes before anything writes to it, shared by
// opening a store and by reading a shard to merge. They only read: a file that
// fails one is left byte-for-byte as it was. Errors read "FILE: what is wrong".
class StoreFileCheck {
public:
    enum class Access { Write, Read };

    // What is wrong with an existing file, judged from its bytes and mode alone
    // (a folder, empty, not SQLite, read-only when `access` is Write).
    static std::optional<std::string> file(const std::filesystem::path& file, Access access);

    // Whether Conclave may write the file: it has a write bit and this process may write it
    // (root may write anywhere; a file without write bits is still meant to be left alone).
    static bool writable(const std::filesystem::path& file);
    // No -wal or -shm lies beside the file: no process has it open for writing, and it can be
    // read as immutable (SqliteDb::Mode::AtRest), creating nothing beside it.
    static bool atRest(const std::filesystem::path& file);

    // What is wrong with an open database (`schema`: "main", or the name it is
    // attached as): corrupt, someone else's, from a newer Conclave. On success,
    // `version` is its schema version (0 for an empty database).
    static std::optional<std::string> contents(SqliteDb& db, const std::filesystem::path& file, int64_t& version,
                                               std::string_view schema = "main");
};

} // namespace conclave
