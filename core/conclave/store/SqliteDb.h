#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace conclave {

// A prepared statement. Binds are 1-based, columns 0-based (as in SQLite).
class SqliteStatement {
public:
    SqliteStatement() = default;
    SqliteStatement(sqlite3* db, sqlite3_stmt* stmt) : m_db(db), m_stmt(stmt) {}
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    bool valid() const { return m_stmt != nullptr; }
    SqliteStatement& bind(int index, int64_t value);
    SqliteStatement& bind(int index, double value);
    // The text is not copied: it must stay alive until step() and reset().
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bindNull(int index);
    // true: a row is ready; false: done. Errors are reported by error().
    bool step();
    void reset();
    // Steps a statement that returns no rows and resets it for the next use; false on an error
    // (SQLite's message stays in the connection's lastError()).
    bool execute();
    // The last step's error, or empty.
    const std::string& error() const { return m_error; }
    int errorCode() const { return m_errorCode; }

    int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::string_view textView(int column) const;
    bool isNull(int column) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    std::string m_error;
    int m_errorCode = 0;
};

// One connection. Not thread-safe: each thread (the writer, every reader) opens its own.
class SqliteDb {
public:
    // AtRest: read-only, and the file is taken not to change while open (SQLite's
    // immutable=1): no -wal or -shm is read or made beside it.
    enum class Mode { ReadOnly, AtRest, ReadWrite, Create };

    SqliteDb() = default;
    ~SqliteDb();
    SqliteDb(SqliteDb&& other) noexcept;
    SqliteDb& operator=(SqliteDb&& other) noexcept;
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    // Opens with a busy timeout set; returns an error message (SQLite's) on failure.
    std::optional<std::string> open(const std::filesystem::path& file, Mode mode, int busyTimeoutMs = 5000);
    bool isOpen() const { return m_db != nullptr; }
    bool readOnly() const;

    // Runs one or more statements; returns SQLite's message on failure.
    std::optional<std::string> exec(std::string_view sql);
    // Prepares a statement; an invalid statement on failure (see lastError()).
    SqliteStatement prepare(std::string_view sql);
    // One integer from a query (e.g. a PRAGMA); nullopt on error.
    std::optional<int64_t> queryInt(std::string_view sql);
    std::string lastError() const;
    int lastErrorCode() const;
    int64_t changes() const;
    sqlite3* handle() const { return m_db; }

    // A read-only SQLite URI for `file` (for ATTACH): its absolute path with what a URI
    // gives meaning to escaped, `?mode=ro`, and `&immutable=1` when `atRest`.
    static std::string readOnlyUri(const std::filesystem::path& file, bool atRest);

private:
    sqlite3* m_db = nullptr;
};

} // namespace conclave
