#include "conclave/store/LiveStatus.h"

#include "conclave/store/ProcessIdentity.h"

#include <sqlite3.h>

namespace conclave {

namespace {

std::string columnText(sqlite3_value* value)
{
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
    return text ? std::string(text, size_t(sqlite3_value_bytes(value))) : std::string();
}

void writerAlive(sqlite3_context* context, int, sqlite3_value** args)
{
    const ProcessIdentity writer{columnText(args[0]), sqlite3_value_int64(args[1]), sqlite3_value_int64(args[2])};
    sqlite3_result_int(context, writer.alive() ? 1 : 0);
}

} // namespace

bool LiveStatus::define(SqliteDb& db)
{
    // Not SQLITE_DETERMINISTIC: a process may end between two calls.
    return sqlite3_create_function(db.handle(), "conclave_writer_alive", 3, SQLITE_UTF8, nullptr, &writerAlive, nullptr,
                                   nullptr) == SQLITE_OK;
}

std::string LiveStatus::writerGone(std::string_view table)
{
    const std::string t(table);
    // CASE, not AND: SQLite may evaluate AND's operands in any order, and only running rows need /proc.
    return "(CASE WHEN " + t + ".status = 'running' THEN NOT conclave_writer_alive(" + t + ".host, " + t + ".pid, " +
           t + ".pid_start) ELSE 0 END)";
}

std::string LiveStatus::status(std::string_view table)
{
    return "(CASE WHEN " + writerGone(table) + " THEN 'interrupted' ELSE " + std::string(table) + ".status END)";
}

std::string LiveStatus::experimentNote(std::string_view table)
{
    const std::string t(table);
    return "(CASE WHEN " + t + ".note = '' AND " + writerGone(table) + " THEN '" + std::string(kInterruptedNote) +
           "' ELSE " + t + ".note END)";
}

} // namespace conclave
