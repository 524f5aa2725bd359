#pragma once

#include "conclave/diagnostics/ProblemSink.h"
#include "conclave/io/TeamFields.h"
#include "conclave/model/Team.h"
#include "conclave/validate/Validator.h"

#include <concepts>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace conclave::checks {

// The value as the file spells it: integers without a fraction or exponent, other
// numbers in the shortest form that reads back to the same double.
std::string formatNumber(double value);
std::string formatNumber(std::integral auto value)
{
    return std::to_string(value);
}

extern const std::string kSecretMessage;

// A key of the team file that holds a secret (api_key, access_token, a password).
bool isSecretKey(std::string_view key);

// checkFields' work, one team at a time. Its members are in two files:
// FieldChecks.cpp (the team, defaults, budget, nodes and their model calls,
// unknown keys) and BackendChecks.cpp (backends, model profiles, models files).
class FieldChecker {
public:
    FieldChecker(const Team& team, const ValidationContext& context, ProblemSink& sink)
        : m_team(team), m_context(context), m_sink(sink)
    {
    }

    void run();

private:
    template <class T>
    void range(const std::string& pointer, std::string_view key, const std::optional<T>& value,
               const std::optional<NodeId>& node = {})
    {
        range(pointer, key, value, fieldRule(key), node);
    }

    // `key` checked against another key's rule (an array's index).
    template <class T>
    void range(const std::string& pointer, std::string_view key, const std::optional<T>& value, const FieldRule& rule,
               const std::optional<NodeId>& node = {})
    {
        if (!value)
            return;
        if (!rule.accepts(static_cast<double>(*value)))
            m_sink.error(childPointer(pointer, key),
                         "expected " + std::string(rule.expected) + ", got " + formatNumber(*value), node);
    }

    void unknownKeys(const std::string& pointer, const nlohmann::json& extra, std::string_view owner,
                     const std::optional<NodeId>& node = {}, std::optional<size_t> edge = {});
    void findNestedSecrets(const std::string& pointer, const nlohmann::json& value, const std::optional<NodeId>& node,
                           std::optional<size_t> edge);
    void checkParams(const std::string& pointer, const ModelParams& params, const std::optional<NodeId>& node);

    // BackendChecks.cpp
    void checkBackend(const BackendName& name, const Backend& b);
    void checkRecorded(const std::string& pointer, const Backend& b);
    void checkOpenAi(const std::string& pointer, const Backend& b);
    void checkModelsFile(const BackendName& name, const std::string& pointer, const Backend& b);
    void checkProfile(const std::string& pointer, const ModelProfile& profile);
    bool checkDistribution(const std::string& pointer, const Distribution& d, bool tailIsSlower);
    void checkPrice(const std::string& pointer, const Price& price);

    void checkDefaults(const Defaults& d);
    void checkDefaultModel(const std::string& model);
    void checkBudget(const Budget& b);
    const Backend* backendOf(const std::optional<BackendName>& own) const;
    const Backend* resolveBackend(const std::string& pointer, const Node& node);
    bool knowsModel(const Backend& backend, const std::string& model) const;
    void checkModelName(const std::string& where, const std::string& model, const Backend& backend, const NodeId& node);
    void reportUnknownModel(const std::string& where, const std::string& model, const std::optional<NodeId>& node);
    void checkModelCall(const std::string& pointer, const Node& node, std::string_view why);
    void checkNode(const std::string& pointer, const Node& node);
    // A router's strategy and the fields of every strategy it sets (RouterStrategies).
    void checkRouter(const std::string& pointer, const Node& node);

    const Team& m_team;
    const ValidationContext& m_context;
    ProblemSink& m_sink;
    std::map<const Backend*, std::set<std::string>> m_fileModels; // the models of each models file read
};

} // namespace conclave::checks
