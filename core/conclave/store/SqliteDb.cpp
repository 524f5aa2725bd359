#include "conclave/store/SqliteDb.h"

#include <sqlite3.h>

#include <array>
#include <cstdio>
#include <utility>

namespace conclave {

SqliteStatement::~SqliteStatement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_stmt(std::exchange(other.m_stmt, nullptr))
{
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_db = std::exchange(other.m_db, nullptr);
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, int64_t value)
{
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value)
{
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text)
{
    // SQLITE_STATIC: every caller keeps the text alive until the statement is stepped and reset.
    sqlite3_bind_text(m_stmt, index, text.data(), int(text.size()), SQLITE_STATIC);
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

bool SqliteStatement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE) {
        m_errorCode = rc;
        m_error = sqlite3_errmsg(m_db);
    }
    return false;
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
    m_error.clear();
    m_errorCode = 0;
}

bool SqliteStatement::execute()
{
    step();
    const bool ok = m_errorCode == 0;
    reset();
    return ok;
}

int64_t SqliteStatement::int64(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteStatement::real(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

std::string SqliteStatement::text(int column) const
{
    return std::string(textView(column));
}

std::string_view SqliteStatement::textView(int column) const
{
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    if (!data)
        return {};
    return {data, size_t(sqlite3_column_bytes(m_stmt, column))};
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

SqliteDb::~SqliteDb()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

SqliteDb::SqliteDb(SqliteDb&& other) noexcept : m_db(std::exchange(other.m_db, nullptr)) {}

SqliteDb& SqliteDb::operator=(SqliteDb&& other) noexcept
{
    if (this != &other) {
        if (m_db)
            sqlite3_close_v2(m_db);
        m_db = std::exchange(other.m_db, nullptr);
    }
    return *this;
}

std::optional<std::string> SqliteDb::open(const std::filesystem::path& file, Mode mode, int busyTimeoutMs)
{
    // URIs let ATTACH open a database read-only ("file:...?mode=ro"); a plain
    // path that happens to start with "file:" is kept a path.
    int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
    std::filesystem::path name = file;
    if (mode == Mode::AtRest)
        name = readOnlyUri(file, true);
    else if (file.native().starts_with("file:"))
        name = std::filesystem::path(".") / file;
    if (mode == Mode::ReadOnly || mode == Mode::AtRest)
        flags |= SQLITE_OPEN_READONLY;
    else
        flags |= SQLITE_OPEN_READWRITE;
    if (mode == Mode::Create)
        flags |= SQLITE_OPEN_CREATE;
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        if (db)
            sqlite3_close_v2(db);
        return message;
    }
    sqlite3_busy_timeout(db, busyTimeoutMs);
    sqlite3_extended_result_codes(db, 0);
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = db;
    return std::nullopt;
}

bool SqliteDb::readOnly() const
{
    return m_db && sqlite3_db_readonly(m_db, "main") == 1;
}

std::optional<std::string> SqliteDb::exec(std::string_view sql)
{
    char* message = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &message) == SQLITE_OK)
        return std::nullopt;
    std::string error = message ? message : sqlite3_errmsg(m_db);
    sqlite3_free(message);
    return error;
}

SqliteStatement SqliteDb::prepare(std::string_view sql)
{
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(m_db, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK)
        return {};
    return {m_db, stmt};
}

std::optional<int64_t> SqliteDb::queryInt(std::string_view sql)
{
    auto stmt = prepare(sql);
    if (!stmt.valid() || !stmt.step())
        return std::nullopt;
    return stmt.int64(0);
}

std::string SqliteDb::lastError() const
{
    return m_db ? sqlite3_errmsg(m_db) : "no database";
}

int SqliteDb::lastErrorCode() const
{
    return m_db ? sqlite3_errcode(m_db) : 0;
}

int64_t SqliteDb::changes() const
{
    return m_db ? sqlite3_changes64(m_db) : 0;
}

std::string SqliteDb::readOnlyUri(const std::filesystem::path& file, bool atRest)
{
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(file, ec);
    std::string uri = "file:";
    for (const unsigned char c : (ec ? file : absolute).string()) {
        if (c == '%' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f) {
            std::array<char, 4> hex{};
            std::snprintf(hex.data(), hex.size(), "%%%02X", c);
            uri += hex.data();
        } else {
            uri += char(c);
        }
    }
    return uri + (atRest ? "?mode=ro&immutable=1" : "?mode=ro");
}

} // namespace conclave
