#include "conclave/routing/AnswerFeatures.h"

#include "conclave/util/NumberText.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool alphanumeric(char c)
{
    c = lower(c);
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

} // namespace

const std::array<std::string_view, AnswerFeatures::kCount>& AnswerFeatures::names()
{
    static const std::array<std::string_view, kCount> names{"length",     "number", "choice", "answer_line",
                                                            "confidence", "agree",  "asked"};
    return names;
}

bool AnswerFeatures::isChoice(std::string_view prompt, std::string_view answer)
{
    if (answer.size() == 1 && answer[0] >= 'a' && answer[0] <= 'e')
        return true;
    if (answer.empty() || parseNumber(answer))
        return false;
    for (size_t at = 0; at + answer.size() <= prompt.size(); ++at) {
        bool equal = true;
        for (size_t k = 0; k < answer.size() && equal; ++k)
            equal = lower(prompt[at + k]) == lower(answer[k]);
        if (!equal)
            continue;
        const bool startsWord = at == 0 || !alphanumeric(prompt[at - 1]);
        const size_t end = at + answer.size();
        if (startsWord && (end == prompt.size() || !alphanumeric(prompt[end])))
            return true;
    }
    return false;
}

int AnswerFeatures::sameAs(std::string_view answer, const std::vector<std::string>& earlier)
{
    return int(std::count(earlier.begin(), earlier.end(), answer));
}

std::array<double, AnswerFeatures::kCount> AnswerFeatures::of(const Inputs& in)
{
    const int asked = std::max(in.asked, 0);
    return {std::min(1.0, std::log1p(double(in.answer.size())) / std::log(1000.0)),
            parseNumber(in.answer) ? 1.0 : 0.0,
            isChoice(in.prompt, in.answer) ? 1.0 : 0.0,
            in.answerLine ? 1.0 : 0.0,
            std::clamp(in.confidence, 0.0, 1.0),
            asked > 0 ? std::clamp(double(in.same) / double(asked), 0.0, 1.0) : 0.0,
            double(asked) / double(asked + 1)};
}

} // namespace conclave
