#include "conclave/store/RunSource.h"

#include <array>
#include <utility>

namespace conclave {

namespace {

constexpr std::array<std::pair<RunSource, std::string_view>, 5> kNames{{
    {RunSource::Run, "run"},
    {RunSource::Rerun, "rerun"},
    {RunSource::Eval, "eval"},
    {RunSource::Studio, "studio"},
    {RunSource::Serve, "serve"},
}};

} // namespace

std::string_view toString(RunSource source)
{
    for (const auto& [value, name] : kNames) {
        if (value == source)
            return name;
    }
    return "run";
}

std::optional<RunSource> runSourceFromString(std::string_view text)
{
    for (const auto& [value, name] : kNames) {
        if (name == text)
            return value;
    }
    return std::nullopt;
}

std::string_view runSourceNames()
{
    return "run, rerun, eval, studio or serve";
}

} // namespace conclave
