#include "conclave/store/StoreFileCheck.h"

#include "conclave/store/StoreSchema.h"

#include <sqlite3.h>

#include <array>
#include <fstream>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace conclave {

namespace {

constexpr std::string_view kSqliteHeader{"SQLite format 3\0", 16};

bool isCorruption(int code)
{
    return code == SQLITE_CORRUPT || code == SQLITE_NOTADB;
}

} // namespace

std::optional<std::string> StoreFileCheck::file(const std::filesystem::path& file, Access access)
{
    const std::string name = file.string();
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
        return name + ": cannot be read";
    if (S_ISDIR(st.st_mode))
        return name + ": is a folder, not a database file";
    if (st.st_size == 0)
        return name + ": the file is empty, not a Conclave run store";
    std::ifstream in(file, std::ios::binary);
    std::array<char, 16> header{};
    in.read(header.data(), header.size());
    if (!in)
        return name + ": not an SQLite database";
    if (std::string_view(header.data(), header.size()) != kSqliteHeader)
        return name + ": not an SQLite database";
    if (access == Access::Write && !writable(file))
        return name + ": the database is read-only";
    return std::nullopt;
}

bool StoreFileCheck::writable(const std::filesystem::path& file)
{
    struct stat st {};
    return ::stat(file.c_str(), &st) == 0 && (st.st_mode & 0222) != 0 && ::access(file.c_str(), W_OK) == 0;
}

bool StoreFileCheck::atRest(const std::filesystem::path& file)
{
    std::error_code ec;
    return !std::filesystem::exists(file.string() + "-wal", ec) && !std::filesystem::exists(file.string() + "-shm", ec);
}

std::optional<std::string> StoreFileCheck::contents(SqliteDb& db, const std::filesystem::path& file, int64_t& version,
                                                    std::string_view schema)
{
    const std::string name = file.string();
    const std::string prefix(schema);
    const auto userVersion = db.queryInt("PRAGMA " + prefix + ".user_version");
    const auto tables = db.queryInt("SELECT count(*) FROM " + prefix + ".sqlite_master");
    if (!userVersion || !tables) {
        if (isCorruption(db.lastErrorCode()))
            return name + ": the database is corrupt (" + db.lastError() + ")";
        return name + ": cannot read (" + db.lastError() + ")";
    }
    if (*userVersion > StoreSchema::currentVersion())
        return name + ": written by a newer Conclave (store schema version " + std::to_string(*userVersion) +
               "; this one reads up to " + std::to_string(StoreSchema::currentVersion()) + ")";
    if (*userVersion == 0 && *tables > 0)
        return name + ": an SQLite database, but not a Conclave run store";
    version = *userVersion;
    return std::nullopt;
}

} // namespace conclave
