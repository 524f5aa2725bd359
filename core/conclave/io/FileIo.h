#pragma once

#include "conclave/diagnostics/Problem.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace conclave {

struct FileText {
    std::optional<std::string> text;  // set on success
    std::string error;                // otherwise: what went wrong, without the file name
};

// Reads a whole file, refusing one larger than maxBytes before reading it.
FileText readFileText(const std::filesystem::path& path, size_t maxBytes);

// Reads a file and hands its text to parse(text) -> Result; a file that cannot
// be read gives a Result whose one problem says why. Result has `problems`.
template <class Result, class Parse>
Result parseTextFile(const std::filesystem::path& path, size_t maxBytes, Parse parse)
{
    auto file = readFileText(path, maxBytes);
    if (!file.text) {
        Result result;
        Problem problem;
        problem.message = std::move(file.error);
        result.problems.push_back(std::move(problem));
        return result;
    }
    return parse(*file.text);
}

// Writes content to a temporary file beside path, flushes it to disk and
// renames it over path, so a crash leaves either the old file or the new one.
// Returns an error message, or nullopt on success.
std::optional<std::string> writeFileAtomically(const std::filesystem::path& path, std::string_view content);

} // namespace conclave
