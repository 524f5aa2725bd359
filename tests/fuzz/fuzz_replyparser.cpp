// The reply parser: any reply gives an answer, a confidence in [0, 1], a
// route among the labels (or none) and non-empty subtasks.
#include "FuzzCheck.h"

#include "conclave/engine/ReplyParser.h"

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using conclave::ReplyParser;
    namespace fuzz = conclave::fuzz;
    const auto reply = fuzz::text(data, size);
    const auto parsed = ReplyParser::parse(reply);
    fuzz::check(parsed.confidence >= 0.0 && parsed.confidence <= 1.0, "the confidence is in [0, 1]");
    fuzz::check(parsed.answer.size() <= ReplyParser::kMaxReplyBytes, "the answer comes from the first MiB");
    const std::vector<std::string> labels{"math", "facts", "Compound"};
    const auto route = ReplyParser::routeLabel(reply, labels);
    fuzz::check(route.empty() || route == labels[0] || route == labels[1] || route == labels[2],
                "a route is one of the labels");
    for (const auto& subtask : ReplyParser::subtasks(reply))
        fuzz::check(!subtask.empty(), "no subtask is empty");
    return 0;
}
