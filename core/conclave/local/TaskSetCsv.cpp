// TaskSet's CSV reader: RFC 4180 rows, each handed to the field rules that
// JSON Lines uses (TaskSet::taskFromFields) as the JSON object it stands for.
#include "conclave/local/TaskSet.h"

#include "conclave/io/CsvField.h"
#include "conclave/io/JsonText.h"

#include <nlohmann/json.hpp>

#include <string>

namespace conclave {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

struct Cell {
    std::string text;
    int line = 0; // where the cell begins
    int column = 0;
};

struct Row {
    std::vector<Cell> cells;
    int line = 0;
};

Problem at(int line, int column, std::string message, Severity severity = Severity::Error)
{
    Problem p;
    p.severity = severity;
    p.line = line;
    p.column = column;
    p.message = std::move(message);
    return p;
}

std::string trimmed(std::string_view text)
{
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

// The offset of the first byte that is not part of valid UTF-8, or npos. A
// cell becomes a JSON string, which must be UTF-8.
size_t firstInvalidUtf8(std::string_view text)
{
    for (size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const size_t n = lead < 0x80           ? 1
                         : (lead >> 5) == 0x6  ? 2
                         : (lead >> 4) == 0xE  ? 3
                         : (lead >> 3) == 0x1E ? 4
                                               : 0;
        if (n == 0 || i + n > text.size())
            return i;
        uint32_t code = n == 1 ? lead : lead & (0x7F >> n);
        for (size_t k = 1; k < n; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80)
                return i;
            code = (code << 6) | (next & 0x3F);
        }
        const bool overlong = (n == 2 && code < 0x80) || (n == 3 && code < 0x800) || (n == 4 && code < 0x10000);
        if (overlong || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF)
            return i;
        i += n;
    }
    return std::string_view::npos;
}

// A cell longer than kMaxCsvFieldBytes, named by its row (the header is row
// 1, blank lines are no rows) and its column (and the header's name for it).
std::optional<Problem> tooLong(const Cell& cell, const std::vector<Row>& rows, size_t column)
{
    if (cell.text.size() <= kMaxCsvFieldBytes)
        return std::nullopt;
    std::string where = "row " + std::to_string(rows.size() + 1) + ", column " + std::to_string(column + 1);
    if (!rows.empty() && column < rows.front().cells.size() && !trimmed(rows.front().cells[column].text).empty())
        where += " (" + printableText(trimmed(rows.front().cells[column].text).substr(0, 40)) + ")";
    return at(cell.line, cell.column,
              where + ": the field is " + std::to_string(cell.text.size()) + " bytes long; the limit is " +
                  std::to_string(kMaxCsvFieldBytes));
}

// Splits text into rows of cells (RFC 4180), skipping blank lines. A syntax
// error or a field over the limit stops the reading: what follows it cannot be
// told apart reliably.
std::optional<Problem> readRows(std::string_view text, std::vector<Row>& rows)
{
    size_t pos = text.starts_with(kBom) ? kBom.size() : 0;
    int line = 1;
    size_t lineStart = 0;
    const auto column = [&](size_t offset) { return static_cast<int>(offset - lineStart) + 1; };
    // The length of the line break at offset: LF, CRLF, or a CR that ends the file.
    const auto lineBreak = [&](size_t offset) -> size_t {
        if (offset >= text.size())
            return 0;
        if (text[offset] == '\n')
            return 1;
        if (text[offset] == '\r')
            return offset + 1 == text.size() ? 1 : text[offset + 1] == '\n' ? 2 : 0;
        return 0;
    };
    while (pos < text.size()) {
        Row row;
        row.line = line;
        bool quoted = false;
        for (;;) {
            Cell cell{{}, line, column(pos)};
            // Spaces around a quoted field are not part of it ("a, "b, c"").
            size_t open = pos;
            while (open < text.size() && (text[open] == ' ' || text[open] == '\t'))
                ++open;
            if (open < text.size() && text[open] == '"') {
                quoted = true;
                const int openLine = line;
                const int openColumn = column(open);
                pos = open + 1;
                for (;;) {
                    const size_t quote = text.find('"', pos);
                    if (quote == std::string_view::npos)
                        return at(openLine, openColumn, "a quoted field begins here and has no closing quote");
                    for (size_t i = pos; i < quote; ++i) {
                        if (text[i] == '\r' && i + 1 < quote && text[i + 1] == '\n')
                            continue; // CRLF reads as LF
                        if (text[i] == '\n') {
                            ++line;
                            lineStart = i + 1;
                        }
                        cell.text += text[i];
                    }
                    pos = quote + 1;
                    if (pos < text.size() && text[pos] == '"') {
                        cell.text += '"';
                        ++pos;
                        continue;
                    }
                    break;
                }
                while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
                    ++pos;
                if (pos < text.size() && text[pos] != ',' && lineBreak(pos) == 0)
                    return at(line, column(pos),
                              "text after a closing quote; a quote inside a quoted field is doubled");
            } else {
                const size_t start = pos;
                for (; pos < text.size() && text[pos] != ',' && lineBreak(pos) == 0; ++pos) {
                    if (text[pos] == '"')
                        return at(line, column(pos),
                                  "a quote inside an unquoted field; quote the whole field and double the quote");
                }
                cell.text.assign(text.substr(start, pos - start));
            }
            if (auto error = tooLong(cell, rows, row.cells.size()))
                return error;
            row.cells.push_back(std::move(cell));
            if (pos < text.size() && text[pos] == ',') {
                ++pos;
                continue;
            }
            break;
        }
        if (const size_t length = lineBreak(pos)) {
            pos += length;
            ++line;
            lineStart = pos;
        }
        const bool blank =
            !quoted && row.cells.size() == 1 && row.cells[0].text.find_first_not_of(" \t") == std::string::npos;
        if (!blank)
            rows.push_back(std::move(row));
    }
    return std::nullopt;
}

} // namespace

TaskSet::LoadResult TaskSet::fromCsv(std::string_view text)
{
    std::vector<Problem> problems;
    if (const size_t bad = firstInvalidUtf8(text); bad != std::string_view::npos) {
        const auto [line, column] = lineColumnAt(text, bad);
        problems.push_back(at(
            line, column, "the byte " + printableText(text.substr(bad, 1)) + " is not UTF-8; save the file as UTF-8"));
        return finish({}, std::move(problems));
    }
    std::vector<Row> rows;
    if (auto error = readRows(text, rows)) {
        problems.push_back(std::move(*error));
        return finish({}, std::move(problems));
    }
    if (rows.empty()) {
        problems.push_back(
            at(1, 1, "the file is empty; expected a header row naming at least the columns id and prompt"));
        return finish({}, std::move(problems));
    }

    // The header: one name per column, each once.
    const Row& header = rows.front();
    std::vector<std::string> names;
    std::map<std::string, size_t, std::less<>> columnOf;
    for (const auto& cell : header.cells) {
        auto name = trimmed(cell.text);
        if (name.empty()) {
            problems.push_back(
                at(cell.line, cell.column, "column " + std::to_string(names.size() + 1) + " has no name"));
        } else if (const auto first = columnOf.find(name); first != columnOf.end()) {
            problems.push_back(
                at(cell.line, cell.column,
                   name + ": a second column of that name; the first is column " + std::to_string(first->second + 1)));
        } else {
            columnOf.emplace(name, names.size());
            if (!isTaskField(name))
                problems.push_back(at(cell.line, cell.column, name + ": kept as task metadata", Severity::Warning));
        }
        names.push_back(std::move(name));
    }
    for (const char* required : {"id", "prompt"}) {
        if (!columnOf.contains(required))
            problems.push_back(at(header.line, 1, std::string("the header has no ") + required + " column"));
    }
    if (hasErrors(problems))
        return finish({}, std::move(problems));

    SeenInFile seen;
    std::vector<Task> tasks;
    for (size_t r = 1; r < rows.size(); ++r) {
        const Row& row = rows[r];
        if (row.cells.size() != names.size()) {
            problems.push_back(at(row.line, 1,
                                  "expected " + std::to_string(names.size()) +
                                      " fields, one per column of the header, got " +
                                      std::to_string(row.cells.size())));
            continue;
        }
        std::vector<Problem> found;
        auto fields = nlohmann::ordered_json::object();
        for (size_t c = 0; c < names.size(); ++c) {
            const auto& name = names[c];
            const auto& cell = row.cells[c];
            if (!isTaskField(name) || name == "prompt") {
                if (name == "prompt" || !cell.text.empty()) // an empty metadata cell is left out
                    fields[name] = cell.text;
                continue;
            }
            auto value = trimmed(cell.text);
            if (name == "id") {
                fields[name] = value; // an empty one is reported
            } else if (value.empty()) {
                // An empty cell is an absent field.
            } else if (name == "choices") {
                auto choices = nlohmann::ordered_json::array();
                for (size_t from = 0;;) {
                    const size_t bar = value.find('|', from);
                    choices.push_back(trimmed(std::string_view(value).substr(from, bar - from)));
                    if (bar == std::string::npos)
                        break;
                    from = bar + 1;
                }
                fields[name] = std::move(choices);
            } else if (name == "tolerance" || name == "difficulty") {
                // Left as text when it is out of range, for the message to quote as written.
                const auto number = parseNumber(value);
                const bool fine = number && (name == "tolerance" ? *number >= 0 : *number >= -5 && *number <= 5);
                fields[name] = fine ? nlohmann::ordered_json(*number) : nlohmann::ordered_json(value);
            } else {
                fields[name] = value;
            }
        }
        auto task = taskFromFields(fields, false, found);
        const Cell& idCell = row.cells[columnOf.find("id")->second];
        if (task && !seen.add(*task, idCell.line, found))
            task.reset();

        // Each problem at its cell, named by its column: "/choices/2" is in "choices".
        for (auto& p : found) {
            const std::string_view pointer = p.pointer;
            const auto field = pointer.empty() ? pointer : pointer.substr(1, pointer.find('/', 1) - 1);
            const auto column = columnOf.find(field);
            const Cell& cell = column == columnOf.end() ? row.cells.front() : row.cells[column->second];
            if (!field.empty())
                p.message = std::string(field) + ": " + p.message;
            p.line = cell.line;
            p.column = cell.column;
            p.pointer.clear();
            problems.push_back(std::move(p));
        }
        if (task)
            tasks.push_back(std::move(*task));
    }
    return finish(std::move(tasks), std::move(problems));
}

} // namespace conclave
