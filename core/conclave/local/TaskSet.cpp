#include "conclave/local/TaskSet.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"

#include <algorithm>
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

struct LineTask {
    Task task;
    int line = 0;
};

struct ParsedLines {
    std::vector<LineTask> tasks;
    std::vector<Problem> problems;
};

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

bool isNonEmptyString(const nlohmann::json& value)
{
    return value.is_string() && !value.get_ref<const std::string&>().empty();
}

std::optional<Task> taskFromJson(const nlohmann::json& value, std::vector<Problem>& problems)
{
    if (!value.is_object()) {
        problems.push_back(shapeProblem("", "expected a task object with id, domain, prompt and answer, got " +
                                                describeJsonValue(value)));
        return std::nullopt;
    }
    const size_t before = problems.size();
    Task task;
    const auto text = [&](const char* key, std::string& out) {
        const auto it = value.find(key);
        const auto pointer = childPointer("", key);
        if (it == value.end())
            problems.push_back(shapeProblem(pointer, "missing; expected a non-empty string"));
        else if (!isNonEmptyString(*it))
            problems.push_back(shapeProblem(pointer, "expected a non-empty string, got " + describeJsonValue(*it)));
        else
            out = it->get<std::string>();
    };
    text("id", task.id);
    text("domain", task.domain);
    text("prompt", task.prompt);
    text("answer", task.answer);

    if (const auto choices = value.find("choices"); choices != value.end()) {
        if (!choices->is_array() || choices->empty()) {
            problems.push_back(
                shapeProblem("/choices", "expected a non-empty array of strings, got " + describeJsonValue(*choices)));
        } else {
            for (size_t i = 0; i < choices->size(); ++i) {
                const auto& choice = (*choices)[i];
                const auto pointer = childPointer("/choices", i);
                if (!isNonEmptyString(choice))
                    problems.push_back(
                        shapeProblem(pointer, "expected a non-empty string, got " + describeJsonValue(choice)));
                else if (std::find(task.choices.begin(), task.choices.end(), choice.get_ref<const std::string&>()) !=
                         task.choices.end())
                    problems.push_back(shapeProblem(pointer, "duplicate choice " + describeJsonValue(choice)));
                else
                    task.choices.push_back(choice.get<std::string>());
            }
            if (problems.size() == before && !task.answer.empty() &&
                std::find(task.choices.begin(), task.choices.end(), task.answer) == task.choices.end())
                problems.push_back(shapeProblem("/answer", describeJsonValue(nlohmann::json(task.answer)) +
                                                               " is not one of the choices"));
        }
    }

    for (const auto& [key, child] : value.items()) {
        if (key != "id" && key != "domain" && key != "prompt" && key != "answer" && key != "choices")
            problems.push_back(shapeProblem(childPointer("", key), "unknown key; ignored", Severity::Warning));
    }
    for (size_t i = before; i < problems.size(); ++i) {
        if (problems[i].isError())
            return std::nullopt;
    }
    return task;
}

// Every line of one file, with the checks that need only that file.
ParsedLines parseLines(std::string_view text)
{
    ParsedLines out;
    int bomShift = 0;
    if (text.starts_with(kBom)) {
        text.remove_prefix(kBom.size());
        bomShift = static_cast<int>(kBom.size());
    }
    std::map<std::string, int, std::less<>> idLines;
    std::map<std::string, int, std::less<>> promptLines;
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
        std::vector<Problem> problems;
        auto parsed = parseJsonText(line);
        problems = std::move(parsed.problems);
        std::optional<Task> task;
        if (parsed.value)
            task = taskFromJson(*parsed.value, problems);
        if (task) {
            if (const auto first = idLines.find(task->id); first != idLines.end()) {
                problems.push_back(shapeProblem("/id", "duplicate id " + describeJsonValue(task->id) +
                                                           "; first on line " + std::to_string(first->second)));
                task.reset();
            } else {
                idLines.emplace(task->id, lineNumber);
                if (const auto same = promptLines.find(task->prompt); same != promptLines.end())
                    problems.push_back(shapeProblem("/prompt",
                                                    "the same prompt as line " + std::to_string(same->second) +
                                                        "; a lookup by prompt finds that task",
                                                    Severity::Warning));
                else
                    promptLines.emplace(task->prompt, lineNumber);
            }
        }
        for (auto& p : problems)
            out.problems.push_back(atLine(std::move(p), lineNumber, shift));
        if (task)
            out.tasks.push_back({std::move(*task), lineNumber});
    }
    if (out.tasks.empty() && !hasErrors(out.problems))
        out.problems.push_back(shapeProblem("", "the file has no tasks", Severity::Warning));
    return out;
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

TaskSet::LoadResult TaskSet::fromJsonLines(std::string_view text)
{
    auto parsed = parseLines(text);
    LoadResult result;
    result.problems = std::move(parsed.problems);
    if (hasErrors(result.problems))
        return result;
    TaskSet set;
    for (auto& [task, line] : parsed.tasks)
        set.add(std::move(task));
    set.reindex();
    result.tasks = std::move(set);
    return result;
}

TaskSet::LoadResult TaskSet::load(const std::filesystem::path& path)
{
    return parseTextFile<LoadResult>(path, JsonLimits{}.maxBytes,
                                     [](std::string_view text) { return fromJsonLines(text); });
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
        auto parsed = parseLines(*file.text);
        auto& problems = parsed.problems;
        for (auto& [task, line] : parsed.tasks) {
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

} // namespace conclave
