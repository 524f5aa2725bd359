#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/local/ItemBank.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace conclave {

// One task of a task set: a question, usually with a known short answer.
struct Task {
    // The domain of a task whose file names none.
    static constexpr std::string_view kDefaultDomain = "general";

    // Each field has an initializer, so a designated initializer may leave any
    // out without -Wmissing-field-initializers.
    std::string id{};
    std::string domain{};
    std::string prompt{};
    std::string answer{};               // empty: none; then a judge must score (callers check)
    std::vector<std::string> choices{}; // empty unless multiple choice
    std::optional<double> tolerance{};  // numeric scoring: |answer - reference| <= tolerance
    // How hard the task is for every model, in standard units (0 typical, +1
    // one standard deviation harder); absent: drawn from the id (ItemBank).
    std::optional<double> difficulty{};
    // The file's other keys (JSONL) or columns (CSV), in file order; a JSON
    // value that is not a string is kept as its compact JSON text.
    std::vector<std::pair<std::string, std::string>> metadata{};

    friend bool operator==(const Task&, const Task&) = default;
};

// Tasks from JSON Lines (resources/tasksets/*.jsonl, a user's FILE.jsonl) or
// CSV files, found by id or by exact prompt. Immutable after loading; shared by
// every run. Both formats have the same fields and rules:
//   id, prompt   non-empty strings, required; an id is unique in its file
//   domain       optional, non-empty; Task::kDefaultDomain when absent
//   answer       optional, non-empty (a judge scores a task without one)
//   choices      optional, distinct non-empty strings that hold the answer
//   tolerance    optional number >= 0; the answer must then be a number
//                (parseNumber) and is scored as one
//   difficulty   optional number from -5 to 5, in standard units: the
//                simulator's item difficulty (docs/simulator.md)
//   anything else is kept as metadata, in file order
// A UTF-8 byte order mark is ignored; columns count the file's bytes.
//
// JSONL: one task object per line; blank lines are skipped. Problems print as
//   FILE:LINE:COL: message               a syntax error, at the parser's column
//   FILE:LINE:1: /answer: message        a bad shape, the JSON pointer first
//   FILE:LINE:1: warning: /x: kept as task metadata    an unknown key
// and Problem::pointer holds the pointer too. A bad line is skipped and
// reported, and the other lines are still checked.
//
// CSV (RFC 4180): a header row names the columns (id and prompt required;
// answer, domain, choices separated by '|', tolerance, difficulty; any other column is
// metadata, reported once as a warning on the header). Fields may be quoted,
// with "" for a quote and commas or line breaks inside; lines end in LF or
// CRLF, and a CRLF inside a quoted field reads as LF, so the convention never
// changes a task. The header's names and the id, domain, answer, choices and
// tolerance cells are trimmed of spaces and tabs; a prompt and metadata are
// kept as written. An empty cell is an absent field (an empty metadata cell is
// left out). Lines are the file's physical lines, so a row that spans lines is
// reported at the line where its cell begins:
//   FILE:LINE:COL: tolerance: expected a number ≥ 0, got "abc"
// (COL is the cell's first byte; a row's or the header's problem is at 1). A
// syntax error stops the reading there: an unterminated quote (reported where
// the quoted field began), a stray quote, text after a closing quote, bytes
// that are not UTF-8 (a cell becomes a JSON string), a field longer than
// kMaxCsvFieldBytes (io/CsvField.h; docs/limits.md).
//
// Either format: a duplicate id is an error naming the line of the first, a
// repeated prompt under another id a warning. The result holds tasks only
// when there are no errors (warnings are fine), never part of a file.
class TaskSet {
public:
    struct LoadResult;

    // CSV for a .csv extension (any case), JSON Lines otherwise.
    static LoadResult load(const std::filesystem::path& path);
    static LoadResult fromJsonLines(std::string_view text);
    static LoadResult fromCsv(std::string_view text);
    // Every *.jsonl file in a folder, in name order, as one set. A task whose id
    // an earlier file already holds is skipped when it is identical and is an
    // error when it differs. Problems cannot carry a file, so each one names its
    // file and place in its message and has line 0: formatProblem(p, FOLDER)
    // prints "FOLDER: code.jsonl:3:1: /answer: message".
    static LoadResult loadFolder(const std::filesystem::path& folder);

    // A bundled task set by name: "math" is resourcesDir/tasksets/math.jsonl
    // when that file exists. A name is a plain file stem (letters, digits, '.',
    // '-', '_', not starting with '.'), never a path.
    static std::optional<std::filesystem::path> bundled(const std::filesystem::path& resourcesDir,
                                                        std::string_view name);
    // The names bundled() accepts, sorted; empty when there is no such folder.
    static std::vector<std::string> bundledNames(const std::filesystem::path& resourcesDir);

    // The one reading of a numeric answer, shared by the loader (tolerance, the
    // answer of a task with one) and the scorer; callers normalise first
    // (ReplyParser::normalizeAnswer), this trims nothing. Accepts an optional
    // sign ('+', '-' or U+2212 minus), digits with an optional fraction
    // (".5", "5." too) and exponent ("1.5e-3"); thousands separated by commas
    // only in groups of exactly three ("1,027", "12,345.5"; "1,5" is not a
    // number, so a decimal comma is never misread). Not "inf", "nan", hex, a
    // unit or a currency sign; a value beyond double's range is not a number.
    static std::optional<double> parseNumber(std::string_view text);

    // Tasks as JSON Lines that load() reads back to equal tasks (metadata
    // values come back as strings): one object per line, keys in the order
    // id, domain, prompt, answer, choices, tolerance, difficulty, then the metadata.
    static std::string toJsonl(const std::vector<Task>& tasks);

    // Adds other's tasks; one whose id is already here is skipped (this set's
    // task wins), so merging never changes what an id means.
    void merge(const TaskSet& other);
    // A set of some of these tasks (pointers into this set), in the order given.
    TaskSet subset(const std::vector<const Task*>& tasks) const;

    const std::vector<Task>& tasks() const { return m_tasks; }
    const Task* byId(std::string_view id) const;
    const Task* byPrompt(std::string_view prompt) const;
    // The task whose prompt appears in text (exact match first, then as a
    // substring, longest prompt first), if any.
    const Task* find(std::string_view text) const;

    // A stable fingerprint of the tasks' content in order (every field of
    // Task), as 16 hex digits: the same tasks give the same hash whichever file
    // format they came from, and editing any task changes it.
    std::string contentHash() const;

    // The simulator's view of these tasks (the domains' free-text answers);
    // shared by copies. A task's chance never depends on the set (ItemBank).
    const ItemBank& items() const { return *m_items; }

    // Whether a task of this set with no `difficulty` has an unknown one, drawn
    // anew in every trial (ItemBank::difficulty with the trial's seed) rather
    // than once from its id: set for the held-out tasks a fidelity check
    // predicts, so that the prediction averages over their difficulty. Off by
    // default and not carried by subset().
    void drawUnmeasuredPerTrial(bool on) { m_unmeasuredPerTrial = on; }
    bool drawsUnmeasuredPerTrial() const { return m_unmeasuredPerTrial; }

private:
    // The two readers share one set of field rules (TaskSet.cpp): the CSV
    // reader (TaskSetCsv.cpp) hands each row over as the JSON object it stands
    // for, so that each rule and its message exist once. Problems come back
    // with a JSON pointer and without a line; unknown keys become metadata,
    // with a warning each when warnUnknownKeys.
    static bool isTaskField(std::string_view key); // one of Task's fields, not metadata
    static std::optional<Task> taskFromFields(const nlohmann::ordered_json& fields, bool warnUnknownKeys,
                                              std::vector<Problem>& problems);
    // The checks across one file's tasks: a repeated id is an error at /id
    // naming the line of the first (add returns false: the task is refused),
    // a repeated prompt a warning at /prompt.
    struct SeenInFile {
        std::map<std::string, int, std::less<>> idLines;
        std::map<std::string, int, std::less<>> promptLines;
        bool add(const Task& task, int line, std::vector<Problem>& problems);
    };
    // The set of one file's tasks when there are no errors; a warning when the
    // file has none.
    static LoadResult finish(std::vector<Task> tasks, std::vector<Problem> problems);
    // Every line of one JSON Lines file, with the checks that need only that
    // file; problems carry their lines.
    struct LineTask {
        Task task;
        int line = 0;
    };
    static std::vector<Problem> readJsonLines(std::string_view text, std::vector<LineTask>& tasks);

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
    bool m_unmeasuredPerTrial = false;
    std::shared_ptr<const ItemBank> m_items = std::make_shared<const ItemBank>();
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
