#pragma once

#include "conclave/store/SqliteDb.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class RunStore;

// A design search as the store keeps it (`searches`). Its status is
// running, finished, stopped, failed, or interrupted (read back so when the
// process running it is gone).
struct SearchRecord {
    std::string id;
    std::string name;
    std::string status = "running";
    std::string specJson;
    std::string command;    // what reproduces it
    std::string reportJson; // set when it ended
    std::string note;
    int64_t trials = 0;
    double seconds = 0;
    int64_t startedAtMs = 0;
    int64_t endedAtMs = -1; // -1 while running
    int64_t candidates = 0; // read back: its candidates
    int64_t front = 0;      // of them, on its front
};

struct SearchCandidateRow {
    int candidate = 0;
    std::string key;
    std::string name;
    std::string teamJson;
    std::string parametersJson = "[]";
    int generation = 0;
    int rung = -1;
    std::string status; // alive, dropped, front
    int droppedBy = 0;  // 0: none
    std::string why;
};

struct SearchTrialRow {
    int candidate = 0;
    std::string part; // search, validation, test
    std::string task;
    uint64_t seed = 0;
    bool scored = false;
    bool correct = false;
    bool failed = false;
    int64_t wallUs = 0;
    double costUsd = 0;
    int64_t tokens = 0;
    int64_t calls = 0;
};

// The run store's searches: a connection of its own on the store file, which
// RunStore opened first (so the file is a store of the current schema, or
// refused as RunStore refuses it). Writes are synchronous, one transaction
// per call; a search opened for reading refuses them.
class SearchStore {
public:
    struct Deleted {
        int64_t candidates = 0;
        std::string error;
    };

    static std::unique_ptr<SearchStore> open(const std::filesystem::path& file, bool forWriting, std::string& error);
    ~SearchStore();

    // Inserts a new search, or marks one that exists running again by this process (a resume).
    std::optional<std::string> begin(const SearchRecord& search);
    std::optional<std::string> saveCandidates(const std::string& searchId, const std::vector<SearchCandidateRow>& rows);
    std::optional<std::string> addTrials(const std::string& searchId, const std::vector<SearchTrialRow>& rows);
    std::optional<std::string> end(const std::string& searchId, const std::string& status, const std::string& note,
                                   const std::string& reportJson, int64_t trials, double seconds);

    // Newest first.
    std::optional<std::vector<SearchRecord>> list(std::string& error);
    // By id or a unique prefix of one; unset with "no search \"X\"" or "search prefix \"X\" is ambiguous".
    std::optional<SearchRecord> search(const std::string& idOrPrefix, std::string& error);
    std::optional<std::vector<SearchCandidateRow>> candidates(const std::string& searchId, std::string& error);
    std::optional<std::vector<SearchTrialRow>> trials(const std::string& searchId, std::string& error);
    // Deletes a search with its candidates and trials; refuses one still running in a live process.
    Deleted remove(const std::string& searchId);

private:
    SearchStore() = default;
    std::optional<std::string> refuseWrite() const;
    // Runs `write` in one write transaction: committed when it returns true, rolled back (with SQLite's error) if not.
    std::optional<std::string> inTransaction(const std::function<bool()>& write);

    std::unique_ptr<RunStore> m_runStore; // holds the file as RunStore opened it
    SqliteDb m_db;
    std::filesystem::path m_path;
    bool m_writable = false;
};

} // namespace conclave
