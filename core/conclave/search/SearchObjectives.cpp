#include "conclave/search/SearchObjectives.h"

#include "conclave/util/MoneyText.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace conclave {

namespace {

constexpr std::array<Objective, kObjectiveCount> kAll = {Objective::Accuracy, Objective::Cost,  Objective::P50Wall,
                                                         Objective::P95Wall,  Objective::Calls, Objective::Tokens};

std::optional<Objective> objectiveNamed(std::string_view name)
{
    for (const auto objective : kAll) {
        if (toString(objective) == name)
            return objective;
    }
    return std::nullopt;
}

std::string known()
{
    std::string text;
    for (const auto objective : kAll)
        text += (text.empty() ? "" : ", ") + std::string(toString(objective));
    return text;
}

} // namespace

std::string_view toString(Objective objective)
{
    switch (objective) {
    case Objective::Accuracy:
        return "accuracy";
    case Objective::Cost:
        return "cost";
    case Objective::P50Wall:
        return "p50_wall";
    case Objective::P95Wall:
        return "p95_wall";
    case Objective::Calls:
        return "calls";
    case Objective::Tokens:
        return "tokens";
    }
    return "accuracy";
}

std::optional<std::vector<Objective>> SearchObjectives::parse(std::string_view list, std::string& error)
{
    std::vector<Objective> out;
    size_t start = 0;
    while (start <= list.size()) {
        const auto comma = list.find(',', start);
        const auto name = list.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        const auto objective = objectiveNamed(name);
        if (!objective) {
            error = "unknown objective \"" + std::string(name) + "\" (known: " + known() + ")";
            return std::nullopt;
        }
        for (const auto o : out) {
            if (o == *objective) {
                error = "objective \"" + std::string(name) + "\" is named twice";
                return std::nullopt;
            }
        }
        out.push_back(*objective);
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    if (out.size() < 2) {
        error = "a search needs at least two objectives (one alone has no front)";
        return std::nullopt;
    }
    return out;
}

std::optional<SearchConstraint> SearchObjectives::parseConstraint(std::string_view text, std::string& error)
{
    const auto at = text.find_first_of("<>");
    if (at == std::string_view::npos || at + 1 >= text.size() || text[at + 1] != '=') {
        error = "'" + std::string(text) + "': a constraint is NAME>=NUMBER or NAME<=NUMBER";
        return std::nullopt;
    }
    const auto objective = objectiveNamed(text.substr(0, at));
    if (!objective) {
        error = "'" + std::string(text) + "': unknown objective \"" + std::string(text.substr(0, at)) +
                "\" (known: " + known() + ")";
        return std::nullopt;
    }
    const auto number = text.substr(at + 2);
    double bound = 0;
    const auto parsed = std::from_chars(number.data(), number.data() + number.size(), bound);
    if (number.empty() || parsed.ec != std::errc() || parsed.ptr != number.data() + number.size() ||
        !std::isfinite(bound)) {
        error = "'" + std::string(text) + "': \"" + std::string(number) + "\" is not a number";
        return std::nullopt;
    }
    return SearchConstraint{*objective, text[at] == '>', bound, std::string(text)};
}

std::string SearchObjectives::format(Objective objective, double value)
{
    char text[64];
    switch (objective) {
    case Objective::Accuracy:
        std::snprintf(text, sizeof text, "%.1f %%", 100 * value);
        return text;
    case Objective::Cost:
        return moneyText(value);
    case Objective::P50Wall:
    case Objective::P95Wall:
        std::snprintf(text, sizeof text, "%.0f ms", value);
        return text;
    case Objective::Calls:
        std::snprintf(text, sizeof text, "%.2f calls", value);
        return text;
    case Objective::Tokens:
        std::snprintf(text, sizeof text, "%.0f tokens", value);
        return text;
    }
    return {};
}

} // namespace conclave
