#include "conclave/store/ExperimentRecords.h"

#include "conclave/io/JsonText.h"

#include <nlohmann/json.hpp>

namespace conclave {

std::string_view toString(ExperimentStatus status)
{
    switch (status) {
    case ExperimentStatus::Running:
        return "running";
    case ExperimentStatus::Finished:
        return "finished";
    case ExperimentStatus::Interrupted:
        return "interrupted";
    case ExperimentStatus::Cancelled:
        return "cancelled";
    case ExperimentStatus::Failed:
        return "failed";
    }
    return "running";
}

std::optional<ExperimentStatus> experimentStatusFromString(std::string_view text)
{
    for (const auto status : {ExperimentStatus::Running, ExperimentStatus::Finished, ExperimentStatus::Interrupted,
                              ExperimentStatus::Cancelled, ExperimentStatus::Failed}) {
        if (toString(status) == text)
            return status;
    }
    return std::nullopt;
}

std::string trialAgentsToJson(const std::vector<TrialAgent>& agents)
{
    auto out = nlohmann::json::array();
    for (const auto& a : agents) {
        nlohmann::json agent = {
            {"node", a.node}, {"cp", a.onCriticalPath}, {"cost", a.costUsd}, {"wall_us", a.wallUs}, {"ran", a.ran}};
        if (!a.attemptsUs.empty())
            agent["attempts_us"] = a.attemptsUs;
        out.push_back(std::move(agent));
    }
    return out.dump();
}

std::vector<TrialAgent> trialAgentsFromJson(std::string_view json)
{
    std::vector<TrialAgent> agents;
    const auto parsed = parseJsonQuietly(json);
    if (!parsed.is_array())
        return agents;
    for (const auto& a : parsed) {
        if (!a.is_object())
            continue;
        // A field of another type reads as absent: the file may have been edited by hand.
        const auto field = [&](const char* key) {
            const auto it = a.find(key);
            return it == a.end() ? nlohmann::json() : *it;
        };
        TrialAgent agent;
        if (const auto v = field("node"); v.is_string())
            agent.node = v.get<std::string>();
        if (const auto v = field("cp"); v.is_boolean())
            agent.onCriticalPath = v.get<bool>();
        if (const auto v = field("cost"); v.is_number())
            agent.costUsd = v.get<double>();
        if (const auto v = field("wall_us"); v.is_number_integer())
            agent.wallUs = v.get<int64_t>();
        if (const auto v = field("ran"); v.is_boolean())
            agent.ran = v.get<bool>();
        if (const auto v = field("attempts_us"); v.is_array()) {
            for (const auto& us : v) {
                if (us.is_number_integer())
                    agent.attemptsUs.push_back(us.get<int64_t>());
            }
        }
        agents.push_back(std::move(agent));
    }
    return agents;
}

} // namespace conclave
