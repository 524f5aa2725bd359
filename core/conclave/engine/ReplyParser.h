#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// A plan's subtasks, at most a limit of them.
struct SubtaskList {
    std::vector<std::string> subtasks; // the first ones, in reply order
    size_t dropped = 0;                // further subtask lines: counted, not kept
};

struct ParsedReply {
    std::string answer;       // normalized
    double confidence = 0.5;  // 0.5 when the reply states none
    bool answerLine = false;  // the answer came from an "Answer:" line (else from the last other line)
};

// Reads what models reply: the "Answer:" and "Confidence:" lines every
// answering prompt asks for, a route label, a numbered list of subtasks.
// Each reads a reply over its first kMaxReplyBytes only (cut back to a UTF-8
// boundary): what a model writes past 1 MiB is no answer, route or subtask,
// and a huge reply costs no more to read than 1 MiB.
class ReplyParser {
public:
    static constexpr size_t kMaxReplyBytes = size_t(1) << 20;

    // The part of a reply the functions below read.
    static std::string_view readPart(std::string_view reply);

    static ParsedReply parse(std::string_view text);

    // Lower-case, trimmed, inner spaces collapsed, a trailing period dropped,
    // so that "Paris." and " paris" vote together.
    static std::string normalizeAnswer(std::string_view answer);

    // The first label (case-insensitive) the reply names, or empty.
    static std::string routeLabel(std::string_view reply, const std::vector<std::string>& labels);

    // "1. a\n2. b" -> {"a", "b"}; unnumbered non-empty lines count too.
    static std::vector<std::string> subtasks(std::string_view reply);
    // The first `max` subtasks, and how many more the reply lists (a decompose
    // coordinator's max_subtasks: every subtask kept is a paid call).
    static SubtaskList subtasksUpTo(std::string_view reply, size_t max);
};

} // namespace conclave
