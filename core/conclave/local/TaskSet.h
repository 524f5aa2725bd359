#pragma once

#include "conclave/diagnostics/Problem.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace conclave {

// One task of a task set: a question with a known short answer.
struct Task {
    std::string id;
    std::string domain;
    std::string prompt;
    std::string answer;
    std::vector<std::string> choices; // empty unless multiple choice

    friend bool operator==(const Task&, const Task&) = default;
};

// Tasks from JSON Lines files (resources/tasksets/*.jsonl), found by id or by
// exact prompt. Immutable after loading; shared by every run.
//
// One task per line: {"id", "domain", "prompt", "answer": non-empty strings,
// "choices": optional array of distinct non-empty strings that holds the
// answer}. Blank lines are skipped; a UTF-8 byte order mark is ignored.
//
// Every problem carries the line it was found on, so formatProblem prints
//   FILE:LINE:COL: message               a syntax error, at the parser's column
//   FILE:LINE:1: /answer: message        a bad shape, the JSON pointer first
//   FILE:LINE:1: warning: /x: message    an unknown key (ignored)
// Problem::pointer holds the pointer too. A bad line is skipped and reported,
// and the other lines are still checked; the result holds tasks only when there
// are no errors (warnings are fine). A duplicate id in one file is an error
// naming the line of the first; a repeated prompt under another id a warning.
class TaskSet {
public:
    struct LoadResult;

    static LoadResult load(const std::filesystem::path& path);
    static LoadResult fromJsonLines(std::string_view text);
    // Every *.jsonl file in a folder, in name order, as one set. A task whose id
    // an earlier file already holds is skipped when it is identical and is an
    // error when it differs. Problems cannot carry a file, so each one names its
    // file and place in its message and has line 0: formatProblem(p, FOLDER)
    // prints "FOLDER: code.jsonl:3:1: /answer: message".
    static LoadResult loadFolder(const std::filesystem::path& folder);

    // Adds other's tasks; one whose id is already here is skipped (this set's
    // task wins), so merging never changes what an id means.
    void merge(const TaskSet& other);

    const std::vector<Task>& tasks() const { return m_tasks; }
    const Task* byId(std::string_view id) const;
    const Task* byPrompt(std::string_view prompt) const;
    // The task whose prompt appears in text (exact match first, then as a
    // substring, longest prompt first), if any.
    const Task* find(std::string_view text) const;

private:
    // Lets the maps be searched with a string_view, without a copy.
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    using Index = std::unordered_map<std::string, size_t, StringHash, std::equal_to<>>;

    // Appends a task; reindex() must follow before find() is used.
    void add(Task task);
    void reindex();

    std::vector<Task> m_tasks;
    Index m_byId;
    Index m_byPrompt;

    // For find(): each prompt is keyed by the 8 bytes of it that the fewest
    // other prompts share (so a common opening like "What does this Python
    // program print?" does not make a text match dozens of candidates); a bit
    // filter over the keys rejects almost every position of a text with one
    // test. Prompts shorter than 8 bytes are searched for directly.
    struct Anchor {
        size_t task = 0;
        size_t offset = 0; // of the key in the prompt
    };
    std::unordered_map<uint64_t, std::vector<Anchor>> m_anchors;
    std::vector<uint64_t> m_anchorFilter;
    std::vector<size_t> m_shortPrompts;
    size_t m_shortestPrompt = 0;
};

struct TaskSet::LoadResult {
    std::optional<TaskSet> tasks;
    std::vector<Problem> problems;
};

} // namespace conclave
