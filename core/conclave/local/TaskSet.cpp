#include "conclave/local/TaskSet.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"
#include "conclave/util/AsciiText.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <system_error>

namespace conclave {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr size_t kWindowBytes = 8;
constexpr size_t kFilterBits = size_t(1) << 16;

uint64_t windowKey(const char* bytes)
{
    uint64_t key = 0;
    std::memcpy(&key, bytes, kWindowBytes);
    return key;
}

size_t filterBit(uint64_t key)
{
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 48);
}

Problem shapeProblem(std::string pointer, std::string message, Severity severity = Severity::Error)
{
    Problem p;
    p.severity = severity;
    p.pointer = std::move(pointer);
    p.message = std::move(message);
    return p;
}

// Moves a problem found in one line's JSON to that line of the file: a parser
// position keeps its column, anything else points at column 1 and names its
// JSON pointer first.
Problem atLine(Problem p, int line, int columnShift)
{
    if (p.line > 0) {
        p.column += columnShift;
    } else {
        p.column = 1;
        if (!p.pointer.empty())
            p.message = p.pointer + ": " + p.message;
    }
    p.line = line;
    return p;
}

bool isNonEmptyString(const nlohmann::ordered_json& value)
{
    return value.is_string() && !value.get_ref<const std::string&>().empty();
}

std::string describe(const nlohmann::ordered_json& value)
{
    return describeJsonValue(nlohmann::json(value));
}

Problem noTasksWarning()
{
    return shapeProblem("", "the file has no tasks", Severity::Warning);
}

Problem fileProblem(std::string message)
{
    Problem p;
    p.message = std::move(message);
    return p;
}

// A folder's problems name their file in the message (see loadFolder).
Problem inFile(Problem p, const std::string& file)
{
    std::string where = file;
    if (p.line > 0)
        where += ':' + std::to_string(p.line) + ':' + std::to_string(p.column);
    p.message = where + ": " + p.message;
    p.line = 0;
    p.column = 0;
    p.pointer.clear();
    return p;
}

} // namespace

void TaskSet::add(Task task)
{
    const size_t index = m_tasks.size();
    m_byId.emplace(task.id, index);
    m_byPrompt.emplace(task.prompt, index);
    m_tasks.push_back(std::move(task));
}

void TaskSet::reindex()
{
    m_items = std::make_shared<const ItemBank>(m_tasks);
    m_anchors.clear();
    m_anchorFilter.assign(kFilterBits / 64, 0);
    m_shortPrompts.clear();
    m_shortestPrompt = 0;

    // In how many prompts each 8-byte window occurs.
    std::unordered_map<uint64_t, size_t> promptsWith;
    std::vector<uint64_t> windows;
    for (const auto& task : m_tasks) {
        const auto& prompt = task.prompt;
        if (prompt.size() < kWindowBytes)
            continue;
        windows.clear();
        for (size_t at = 0; at + kWindowBytes <= prompt.size(); ++at)
            windows.push_back(windowKey(prompt.data() + at));
        std::sort(windows.begin(), windows.end());
        windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
        for (const uint64_t window : windows)
            ++promptsWith[window];
    }

    for (size_t index = 0; index < m_tasks.size(); ++index) {
        const auto& prompt = m_tasks[index].prompt;
        m_shortestPrompt = index == 0 ? prompt.size() : std::min(m_shortestPrompt, prompt.size());
        if (prompt.size() < kWindowBytes) {
            m_shortPrompts.push_back(index);
            continue;
        }
        size_t bestOffset = 0;
        size_t bestCount = std::numeric_limits<size_t>::max();
        for (size_t at = 0; at + kWindowBytes <= prompt.size(); ++at) {
            const size_t count = promptsWith[windowKey(prompt.data() + at)];
            if (count < bestCount) {
                bestCount = count;
                bestOffset = at;
            }
        }
        const uint64_t key = windowKey(prompt.data() + bestOffset);
        m_anchors[key].push_back({index, bestOffset});
        const size_t bit = filterBit(key);
        m_anchorFilter[bit / 64] |= uint64_t(1) << (bit % 64);
    }
}

TaskSet TaskSet::subset(const std::vector<const Task*>& tasks) const
{
    TaskSet out;
    for (const Task* task : tasks)
        out.add(*task);
    out.reindex();
    return out;
}

void TaskSet::merge(const TaskSet& other)
{
    for (const auto& task : other.m_tasks) {
        if (!byId(task.id))
            add(task);
    }
    reindex();
}

const Task* TaskSet::byId(std::string_view id) const
{
    const auto it = m_byId.find(id);
    return it == m_byId.end() ? nullptr : &m_tasks[it->second];
}

const Task* TaskSet::byPrompt(std::string_view prompt) const
{
    const auto it = m_byPrompt.find(prompt);
    return it == m_byPrompt.end() ? nullptr : &m_tasks[it->second];
}

const Task* TaskSet::find(std::string_view text) const
{
    if (const Task* exact = byPrompt(text))
        return exact;
    if (m_tasks.empty() || text.size() < m_shortestPrompt)
        return nullptr;

    // The longest prompt found wins; between equally long ones, the first loaded.
    size_t best = m_tasks.size();
    const auto consider = [&](size_t index) {
        if (best == m_tasks.size() || m_tasks[index].prompt.size() > m_tasks[best].prompt.size() ||
            (m_tasks[index].prompt.size() == m_tasks[best].prompt.size() && index < best))
            best = index;
    };
    for (const size_t index : m_shortPrompts) {
        if (text.find(m_tasks[index].prompt) != std::string_view::npos)
            consider(index);
    }
    if (!m_anchors.empty() && text.size() >= kWindowBytes) {
        for (size_t at = 0; at + kWindowBytes <= text.size(); ++at) {
            const uint64_t key = windowKey(text.data() + at);
            const size_t bit = filterBit(key);
            if ((m_anchorFilter[bit / 64] & (uint64_t(1) << (bit % 64))) == 0)
                continue;
            const auto anchors = m_anchors.find(key);
            if (anchors == m_anchors.end())
                continue;
            for (const auto& anchor : anchors->second) {
                if (anchor.offset <= at && text.substr(at - anchor.offset).starts_with(m_tasks[anchor.task].prompt))
                    consider(anchor.task);
            }
        }
    }
    return best == m_tasks.size() ? nullptr : &m_tasks[best];
}

bool TaskSet::isTaskField(std::string_view key)
{
    return key == "id" || key == "domain" || key == "prompt" || key == "answer" || key == "choices" ||
           key == "tolerance" || key == "difficulty";
}

std::optional<Task> TaskSet::taskFromFields(const nlohmann::ordered_json& value, bool warnUnknownKeys,
                                            std::vector<Problem>& problems)
{
    if (!value.is_object()) {
        problems.push_back(
            shapeProblem("", "expected a task object with at least id and prompt, got " + describe(value)));
        return std::nullopt;
    }
    const size_t before = problems.size();
    const auto failed = [&] {
        return std::any_of(problems.begin() + static_cast<std::ptrdiff_t>(before), problems.end(),
                           [](const Problem& p) { return p.isError(); });
    };
    Task task;
    const auto text = [&](const char* key, std::string& out, bool required) {
        const auto it = value.find(key);
        const auto pointer = childPointer("", key);
        if (it == value.end()) {
            if (required)
                problems.push_back(shapeProblem(pointer, "missing; expected a non-empty string"));
        } else if (!isNonEmptyString(*it)) {
            problems.push_back(shapeProblem(pointer, "expected a non-empty string, got " + describe(*it)));
        } else {
            out = it->get<std::string>();
        }
    };
    text("id", task.id, true);
    text("domain", task.domain, false);
    text("prompt", task.prompt, true);
    text("answer", task.answer, false);
    if (!value.contains("domain"))
        task.domain = Task::kDefaultDomain;

    if (const auto choices = value.find("choices"); choices != value.end()) {
        if (!choices->is_array() || choices->empty()) {
            problems.push_back(
                shapeProblem("/choices", "expected a non-empty array of strings, got " + describe(*choices)));
        } else {
            for (size_t i = 0; i < choices->size(); ++i) {
                const auto& choice = (*choices)[i];
                const auto pointer = childPointer("/choices", i);
                if (!isNonEmptyString(choice))
                    problems.push_back(shapeProblem(pointer, "expected a non-empty string, got " + describe(choice)));
                else if (std::find(task.choices.begin(), task.choices.end(), choice.get_ref<const std::string&>()) !=
                         task.choices.end())
                    problems.push_back(shapeProblem(pointer, "duplicate choice " + describe(choice)));
                else
                    task.choices.push_back(choice.get<std::string>());
            }
        }
    }

    if (const auto tolerance = value.find("tolerance"); tolerance != value.end()) {
        const double number = tolerance->is_number() ? tolerance->get<double>() : -1;
        if (!tolerance->is_number() || !std::isfinite(number) || number < 0)
            problems.push_back(shapeProblem("/tolerance", "expected a number ≥ 0, got " + describe(*tolerance)));
        else
            task.tolerance = number;
    }
    if (const auto difficulty = value.find("difficulty"); difficulty != value.end()) {
        const double number = difficulty->is_number() ? difficulty->get<double>() : 99;
        if (!difficulty->is_number() || !(number >= -5 && number <= 5))
            problems.push_back(
                shapeProblem("/difficulty", "expected a number from -5 to 5, got " + describe(*difficulty)));
        else
            task.difficulty = number;
    }

    // The fields against each other, once each is fine on its own.
    if (!failed()) {
        if (!task.choices.empty() && !task.answer.empty() &&
            std::find(task.choices.begin(), task.choices.end(), task.answer) == task.choices.end())
            problems.push_back(shapeProblem("/answer", describeJsonValue(task.answer) + " is not one of the choices"));
        if (task.tolerance && !parseNumber(ReplyParser::normalizeAnswer(task.answer)))
            problems.push_back(shapeProblem(
                "/tolerance", "needs a numeric answer, got " +
                                  (task.answer.empty() ? std::string("none") : describeJsonValue(task.answer))));
    }

    for (const auto& [key, child] : value.items()) {
        if (isTaskField(key))
            continue;
        task.metadata.emplace_back(key, child.is_string() ? child.get<std::string>() : child.dump());
        if (warnUnknownKeys)
            problems.push_back(shapeProblem(childPointer("", key), "kept as task metadata", Severity::Warning));
    }
    if (failed())
        return std::nullopt;
    return task;
}

bool TaskSet::SeenInFile::add(const Task& task, int line, std::vector<Problem>& problems)
{
    if (const auto first = idLines.find(task.id); first != idLines.end()) {
        problems.push_back(shapeProblem("/id", "duplicate id " + describeJsonValue(task.id) + "; first on line " +
                                                   std::to_string(first->second)));
        return false;
    }
    idLines.emplace(task.id, line);
    if (const auto same = promptLines.find(task.prompt); same != promptLines.end())
        problems.push_back(shapeProblem("/prompt",
                                        "the same prompt as line " + std::to_string(same->second) +
                                            "; a lookup by prompt finds that task",
                                        Severity::Warning));
    else
        promptLines.emplace(task.prompt, line);
    return true;
}

TaskSet::LoadResult TaskSet::finish(std::vector<Task> tasks, std::vector<Problem> problems)
{
    LoadResult result;
    result.problems = std::move(problems);
    if (hasErrors(result.problems))
        return result;
    if (tasks.empty())
        result.problems.push_back(noTasksWarning());
    TaskSet set;
    for (auto& task : tasks)
        set.add(std::move(task));
    set.reindex();
    result.tasks = std::move(set);
    return result;
}

std::vector<Problem> TaskSet::readJsonLines(std::string_view text, std::vector<LineTask>& tasks)
{
    std::vector<Problem> out;
    int bomShift = 0;
    if (text.starts_with(kBom)) {
        text.remove_prefix(kBom.size());
        bomShift = static_cast<int>(kBom.size());
    }
    SeenInFile seen;
    int lineNumber = 0;
    while (!text.empty()) {
        ++lineNumber;
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue;

        const int shift = lineNumber == 1 ? bomShift : 0;
        auto parsed = parseJsonText(line);
        auto problems = std::move(parsed.problems);
        std::optional<Task> task;
        // Parsed again, keeping the keys' order for the metadata; the strict
        // parse has accepted the line, so this one cannot fail.
        if (parsed.value)
            task = taskFromFields(parseOrderedJsonQuietly(line), true, problems);
        if (task && !seen.add(*task, lineNumber, problems))
            task.reset();
        for (auto& p : problems)
            out.push_back(atLine(std::move(p), lineNumber, shift));
        if (task)
            tasks.push_back({std::move(*task), lineNumber});
    }
    return out;
}

TaskSet::LoadResult TaskSet::fromJsonLines(std::string_view text)
{
    std::vector<LineTask> read;
    auto problems = readJsonLines(text, read);
    std::vector<Task> tasks;
    tasks.reserve(read.size());
    for (auto& [task, line] : read)
        tasks.push_back(std::move(task));
    return finish(std::move(tasks), std::move(problems));
}

TaskSet::LoadResult TaskSet::load(const std::filesystem::path& path)
{
    const bool csv = toLowerAscii(path.extension().string()) == ".csv";
    return parseTextFile<LoadResult>(path, JsonLimits{}.maxBytes, [csv](std::string_view text) {
        return csv ? fromCsv(text) : fromJsonLines(text);
    });
}

TaskSet::LoadResult TaskSet::loadFolder(const std::filesystem::path& folder)
{
    LoadResult result;
    std::error_code error;
    std::vector<std::filesystem::path> files;
    std::filesystem::directory_iterator entries(folder, error);
    for (; !error && entries != std::filesystem::directory_iterator(); entries.increment(error)) {
        const auto& path = entries->path();
        if (path.extension() == ".jsonl" && entries->is_regular_file(error))
            files.push_back(path);
    }
    if (error) {
        result.problems.push_back(fileProblem("cannot read the folder: " + error.message()));
        return result;
    }
    if (files.empty()) {
        result.problems.push_back(fileProblem("the folder has no *.jsonl files"));
        return result;
    }
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.filename() < b.filename(); });

    struct Origin {
        std::string file;
        int line = 0;
    };
    std::map<std::string, Origin, std::less<>> origins; // by id
    TaskSet set;
    for (const auto& path : files) {
        const std::string name = path.filename().string();
        auto file = readFileText(path, JsonLimits{}.maxBytes);
        if (!file.text) {
            result.problems.push_back(fileProblem(name + ": " + file.error));
            continue;
        }
        std::vector<LineTask> read;
        auto problems = readJsonLines(*file.text, read);
        if (read.empty() && !hasErrors(problems))
            problems.push_back(noTasksWarning());
        for (auto& [task, line] : read) {
            if (const Task* known = set.byId(task.id)) {
                if (*known == task)
                    continue;
                const auto& origin = origins.at(task.id);
                Problem p = shapeProblem("/id", describeJsonValue(nlohmann::json(task.id)) +
                                                    " is already a different task in " + origin.file + ":" +
                                                    std::to_string(origin.line));
                problems.push_back(atLine(std::move(p), line, 0));
                continue;
            }
            origins.emplace(task.id, Origin{name, line});
            set.add(std::move(task));
        }
        std::stable_sort(problems.begin(), problems.end(),
                         [](const Problem& a, const Problem& b) { return a.line < b.line; });
        for (auto& p : problems)
            result.problems.push_back(inFile(std::move(p), name));
    }
    if (!hasErrors(result.problems)) {
        set.reindex();
        result.tasks = std::move(set);
    }
    return result;
}

std::optional<std::filesystem::path> TaskSet::bundled(const std::filesystem::path& resourcesDir, std::string_view name)
{
    const bool plain = !name.empty() && name.front() != '.' && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
               c == '_';
    });
    if (!plain)
        return std::nullopt;
    auto path = resourcesDir / "tasksets" / (std::string(name) + ".jsonl");
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return std::nullopt;
    return path;
}

std::vector<std::string> TaskSet::bundledNames(const std::filesystem::path& resourcesDir)
{
    std::vector<std::string> names;
    std::error_code error;
    std::filesystem::directory_iterator entries(resourcesDir / "tasksets", error);
    for (; !error && entries != std::filesystem::directory_iterator(); entries.increment(error)) {
        const auto& path = entries->path();
        std::error_code kind;
        if (path.extension() == ".jsonl" && entries->is_regular_file(kind) &&
            bundled(resourcesDir, path.stem().string()))
            names.push_back(path.stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace conclave
