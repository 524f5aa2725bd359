#include "conclave/bench/FidelityDesigns.h"

#include "conclave/io/TeamJson.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace conclave {

namespace {

using json = nlohmann::ordered_json;

json expert(const std::string& id, const std::string& model, const char* prompt = "{{input}}")
{
    return {{"id", id}, {"kind", "expert"}, {"model", model}, {"prompt", prompt}};
}

json edge(const std::string& from, const std::string& to, const char* role = nullptr)
{
    json e{{"from", from}, {"to", to}};
    if (role)
        e["role"] = role;
    return e;
}

Team make(const std::string& name, const std::vector<std::string>& models, json nodes, json edges)
{
    json locals = json::object();
    for (const auto& model : models)
        locals[model] = json::object();
    json team{{"conclave", 2},
              {"name", name},
              {"backends", {{"local", {{"kind", "local-moe"}, {"models", locals}}}}},
              {"defaults", {{"backend", "local"}, {"retries", 1}}},
              {"nodes", json::array({{{"id", "in"}, {"kind", "input"}}})},
              {"edges", std::move(edges)}};
    for (auto& node : nodes)
        team["nodes"].push_back(std::move(node));
    team["nodes"].push_back({{"id", "out"}, {"kind", "output"}});
    return *teamFromJsonText(team.dump()).team;
}

// Up to three members answering side by side, "m0".."m2", each edge from `from`.
void members(const std::vector<std::string>& models, json& nodes, json& edges, const std::string& from,
             const char* role, const char* prompt)
{
    for (size_t i = 0; i < models.size() && i < 3; ++i) {
        const auto id = "m" + std::to_string(i);
        nodes.push_back(expert(id, models[i], prompt));
        edges.push_back(edge(from, id, role));
    }
}

Team panel(const std::string& name, const std::vector<std::string>& models, json aggregator)
{
    json nodes = json::array(), edges = json::array();
    members(models, nodes, edges, "in", nullptr, "{{input}}");
    for (size_t i = 0; i < models.size() && i < 3; ++i)
        edges.push_back(edge("m" + std::to_string(i), "agg"));
    aggregator["id"] = "agg";
    aggregator["kind"] = "aggregator";
    nodes.push_back(std::move(aggregator));
    edges.push_back(edge("agg", "out"));
    return make(name, models, std::move(nodes), std::move(edges));
}

Team coordinated(const std::string& name, const std::vector<std::string>& models, json coordinator,
                 const char* prompt)
{
    json nodes = json::array(), edges = json::array({edge("in", "lead")});
    coordinator["id"] = "lead";
    coordinator["kind"] = "coordinator";
    nodes.push_back(std::move(coordinator));
    members(models, nodes, edges, "lead", "member", prompt);
    edges.push_back(edge("lead", "out"));
    return make(name, models, std::move(nodes), std::move(edges));
}

} // namespace

std::vector<Team> FidelityDesigns::forWorld(const WorldSpec& world)
{
    std::vector<std::string> byPrice;
    for (const auto& [name, model] : world.models)
        byPrice.push_back(name);
    const auto price = [&](const std::string& m) {
        const auto& p = world.models.find(m)->second.pricePerMtok;
        return p.input + p.output;
    };
    std::stable_sort(byPrice.begin(), byPrice.end(),
                     [&](const std::string& a, const std::string& b) { return price(a) > price(b); });
    std::vector<std::string> cheapFirst(byPrice.rbegin(), byPrice.rend());
    if (cheapFirst.size() > 3)
        cheapFirst.erase(cheapFirst.begin() + 1, cheapFirst.end() - 2); // the cheapest, then the two priciest

    std::vector<Team> out;
    out.push_back(make("single", {byPrice.front()}, json::array({expert("m0", byPrice.front())}),
                       json::array({edge("in", "m0"), edge("m0", "out")})));
    out.push_back(coordinated("cascade", cheapFirst, {{"mode", "cascade"}, {"threshold", 0.8}},
                              "Question:\n{{task}}\n\nEarlier answers were not confident enough:\n{{transcript}}\n\n"
                              "Answer the question yourself."));
    out.push_back(panel("vote", byPrice, {{"strategy", "majority"}}));
    const json synthesize{{"strategy", "synthesize"}, {"model", byPrice.front()}};
    out.push_back(panel("synthesizer", byPrice, synthesize));
    json skip = synthesize;
    skip["skip_when_agree"] = true;
    out.push_back(panel("synthesizer-skip", byPrice, skip));
    out.push_back(coordinated("debate", byPrice, {{"mode", "debate"}, {"max_rounds", 2}},
                              "Question:\n{{task}}\n\nDebate round {{round}}. Answers so far:\n{{transcript}}\n\n"
                              "Using the other agents' answers as evidence, give your updated answer. End with a line "
                              "'Answer: ...'."));
    return out;
}

} // namespace conclave
