#pragma once

#include "conclave/store/SqliteDb.h"

#include <optional>
#include <string>

namespace conclave {

// The run store's schema: numbered migrations, the version in PRAGMA user_version.
// Migration n takes a database from version n-1 to n; all pending ones are
// applied in one transaction, so a database is always at some exact version.
class StoreSchema {
public:
    // The version this build writes (and the newest it can read).
    static int currentVersion();
    // Brings `db` up to currentVersion(); an error message on failure, nothing changed.
    static std::optional<std::string> migrate(SqliteDb& db);
    // Brings `db` up to `toVersion` only (for tests that make a file of an older schema).
    static std::optional<std::string> migrate(SqliteDb& db, int toVersion);
};

} // namespace conclave
