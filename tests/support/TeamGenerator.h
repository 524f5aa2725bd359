#pragma once
// A RapidCheck generator of valid teams for the engine's property tests: every
// node kind, every router, aggregator and coordinator strategy with their
// options (a synthesize's agreement skip among them), routers in front of
// coordinators and aggregators, cascade and adaptive meetings holding member
// meetings (two levels deep), fallbacks, timeouts, retries, failure rates,
// budgets of each kind, and a cancellation at a random moment. Each pick shrinks towards the simplest team (one expert).
//
// When a node option is added to the team format, add it here: the generated
// suite is what shows that every run still ends.

#include <rapidcheck.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace teamgen {

using json = nlohmann::json;

// One generated trial: a team file, the input, the seed and when (if ever) to cancel.
struct GeneratedCase {
    json team;
    std::string input;
    uint64_t seed = 0;
    std::optional<int> cancelAtMs; // simulated milliseconds after the start
    // Nothing in it lets timing decide the outcome (no tight timeout, deadline,
    // wall budget, `first`, quorum, min_confidence, cost or token budget, or
    // cancellation), so two runs of it must agree exactly, even on the real clock.
    bool timingFree = true;
};

inline void showValue(const GeneratedCase& c, std::ostream& os)
{
    os << "seed " << c.seed << ", input " << json(c.input).dump();
    if (c.cancelAtMs)
        os << ", cancelled at " << *c.cancelAtMs << " ms";
    os << (c.timingFree ? ", timing-free" : "") << "; team file:\n" << c.team.dump(2) << "\n";
}

// The time scale of every generated team: 10 s of simulated time take 100 ms.
inline constexpr double kTimeScale = 0.01;

// Inline models with narrow latency spreads: the slowest call there can be
// (every draw at its clamp) stays under 10 s, a third of the default
// timeout, so a timing-free team never comes near a timeout.
inline json generatedModels()
{
    const auto profile = [](double skill, double ttft, double tokens, double speed, double failureRate,
                            json skills = nullptr) {
        json p = json::object();
        if (skills.is_null()) {
            skills = json::object();
            for (const char* d : {"math", "code", "facts", "writing", "reasoning"})
                skills[d] = skill;
        }
        p["skills"] = skills;
        p["ttft_ms"] = json{{"median", ttft}, {"p95", ttft * 1.5}};
        p["tokens_per_s"] = json{{"median", speed}, {"p95", speed * 0.75}};
        p["output_tokens"] = json{{"median", tokens}, {"p95", tokens * 1.5}};
        p["price_per_mtok"] = json{{"input", 1.0}, {"output", 4.0}};
        p["context_tokens"] = 100000;
        p["failure_rate"] = failureRate;
        return p;
    };
    json m = json::object();
    m["fast"] = profile(0.8, 60, 40, 400, 0);
    m["slow"] = profile(0.9, 300, 100, 40, 0);
    m["weak"] = profile(0.3, 40, 30, 500, 0);
    m["flaky"] = profile(0.7, 80, 50, 300, 0.5);
    m["broken"] = profile(0.9, 50, 40, 300, 1.0);
    m["math"] = profile(0, 120, 60, 150, 0.02,
                        json{{"math", 0.95}, {"code", 0.3}, {"facts", 0.2}, {"writing", 0.2}, {"reasoning", 0.6}});
    m["facts"] = profile(0, 100, 50, 200, 0.02,
                         json{{"math", 0.2}, {"code", 0.2}, {"facts", 0.95}, {"writing", 0.4}, {"reasoning", 0.4}});
    return m;
}

inline const std::vector<std::string>& generatedModelNames()
{
    static const std::vector<std::string> names{"fast", "slow", "weak", "flaky", "broken", "math", "facts"};
    return names;
}

// A scorer file (conclave train-scorer's format) that knows every generated
// model, by absolute path: the test that runs generated teams writes it
// before generating any; empty, no coordinator gets a scorer.
inline std::string& generatedScorerFile()
{
    static std::string path;
    return path;
}

// A router file (conclave train-router's format) that knows every generated
// model, by absolute path: written by the test before generating; empty, no
// learned router is generated.
inline std::string& generatedRouterFile()
{
    static std::string path;
    return path;
}

// Tasks of the bundled task sets (so answers are right or wrong by skill), a
// compound request (so decompose has parts), and free prompts.
inline const std::vector<std::string>& generatedInputs()
{
    static const std::vector<std::string> inputs{
        "Calculate 323 + 460.",
        "What is the capital city of France?",
        "Calculate 323 + 460. And what is the capital city of France?",
        "All bloops are razzies. All razzies are lazzies. Does it necessarily follow that all bloops are lazzies? "
        "Answer yes or no.",
        "Write a haiku about the sea.",
        "x",
    };
    return inputs;
}

class TeamShape {
public:
    GeneratedCase generate()
    {
        m_doc["conclave"] = 1;
        m_doc["name"] = "generated";
        json local = json::object();
        local["kind"] = "local-moe";
        local["seed"] = 7;
        local["time_scale"] = kTimeScale;
        local["models"] = generatedModels();
        simulatorSettings(local);
        m_doc["backends"]["local"] = local;
        json defaults{{"backend", "local"}, {"timeout_ms", 30000}};
        defaults["retries"] = *rc::gen::inRange(0, 3);
        m_doc["defaults"] = defaults;
        m_doc["nodes"] = json::array();
        m_doc["edges"] = json::array();
        addNode("in", "input", json::object());

        const int depth = *rc::gen::inRange(0, 3);
        const auto last = block("in", std::nullopt, depth);
        addNode("out", "output", json::object());
        edge(last, "out");

        if (pick(4))
            budget();
        fitToInputs();
        GeneratedCase c;
        c.input = *rc::gen::elementOf(generatedInputs());
        c.seed = *rc::gen::inRange<uint64_t>(0, 1000);
        if (pick(6)) {
            c.cancelAtMs = *rc::gen::inRange(0, 3000);
            m_timed = true;
        }
        c.team = std::move(m_doc);
        c.timingFree = !m_timed;
        return c;
    }

private:
    // A quorum is drawn before the aggregator's inputs are wired: keep it to
    // the number of nodes that feed it, as a valid team must.
    void fitToInputs()
    {
        for (auto& node : m_doc["nodes"]) {
            if (!node.contains("quorum"))
                continue;
            std::set<std::string> sources;
            for (const auto& e : m_doc["edges"]) {
                if (e["to"] == node["id"])
                    sources.insert(e["from"].get<std::string>());
            }
            node["quorum"] = std::min<int>(node["quorum"].get<int>(), int(sources.size()));
        }
    }

    // Format-3 settings of the simulator: its load (a queue, calls in flight
    // that are not the run's, latency growing with them) and how its models
    // behave together. Load changes when calls end, so it makes a team timed.
    void simulatorSettings(json& local)
    {
        if (pick(5)) {
            local["max_concurrency"] = *rc::gen::inRange(1, 4);
            needVersion(3);
            m_timed = true;
        }
        if (pick(5)) {
            local["background_inflight"] = *rc::gen::inRange(0, 6);
            needVersion(3);
        }
        for (const auto& name : generatedModelNames()) {
            if (!pick(4))
                continue;
            auto& profile = local["models"][name];
            needVersion(3);
            if (pick(2))
                profile["difficulty_weight"] = *rc::gen::elementOf(std::vector<double>{0, 0.3, 0.7, 1});
            if (pick(2))
                profile["confidence"] = json{{"right", {{"mean", 0.9}, {"sd", 0.05}}},
                                             {"wrong", {{"mean", *rc::gen::elementOf(std::vector<double>{0.3, 0.8})},
                                                        {"sd", 0.2}}}};
            if (pick(2))
                profile["synthesis"] = json{{"p_right_given_right", json::array({0.1, 0.6, 0.95})},
                                            {"self_answer", *rc::gen::elementOf(std::vector<double>{0, 0.5, 1})}};
            if (pick(3)) {
                profile["load_slope"] = *rc::gen::elementOf(std::vector<double>{0.05, 0.2});
                m_timed = true;
            }
            if (pick(3))
                profile["retry_repeat"] = *rc::gen::elementOf(std::vector<double>{0, 0.5, 1});
            if (pick(3))
                profile["conformity"] = *rc::gen::elementOf(std::vector<double>{0, 0.4, 1});
            if (pick(3))
                profile["repeat_agreement"] = *rc::gen::elementOf(std::vector<double>{0, 0.5, 1});
            if (pick(3)) {
                profile["fitted"] = json::array({"skills", "difficulty_weight"});
                profile["calibrated_from"] = json::array({json{{"experiment", "exp-1"}, {"answers", 200}}});
            }
        }
    }

    // True one time in `oneIn`; shrinks to false.
    // The file says the version its fields need, as the writer would (formatVersionNeeded).
    void needVersion(int version) { m_doc["conclave"] = std::max(m_doc["conclave"].get<int>(), version); }

    static bool pick(int oneIn) { return *rc::gen::inRange(0, oneIn) == oneIn - 1; }

    std::string newId(const char* prefix) { return prefix + std::to_string(++m_count); }

    void addNode(const std::string& id, const char* kind, json fields)
    {
        fields["id"] = id;
        fields["kind"] = kind;
        m_doc["nodes"].push_back(std::move(fields));
    }

    void edge(const std::string& from, const std::string& to, const std::optional<std::string>& when = std::nullopt)
    {
        json e{{"from", from}, {"to", to}};
        if (when)
            e["when"] = *when;
        m_doc["edges"].push_back(std::move(e));
    }

    std::string model() { return *rc::gen::elementOf(generatedModelNames()); }

    // Adds a block fed from `from` (its entry edges labelled `when` when `from`
    // is a routing router) and returns the node whose result leaves it.
    std::string block(const std::string& from, const std::optional<std::string>& when, int depth)
    {
        switch (*rc::gen::inRange(0, depth <= 0 ? 2 : 6)) {
        case 0: {
            const auto id = expert(false);
            edge(from, id, when);
            return id;
        }
        case 1: {
            const auto id = coordinator();
            edge(from, id, when);
            return id;
        }
        case 2: {
            const auto first = block(from, when, depth - 1);
            return block(first, std::nullopt, depth - 1);
        }
        case 3: { // fan-out to a join
            const auto join = aggregator();
            const int branches = *rc::gen::inRange(2, 5);
            for (int i = 0; i < branches; ++i)
                edge(block(from, when, depth - 1), join);
            return join;
        }
        case 4:
            return routed(from, when, depth);
        default: { // a short path and a long one into the same join
            const auto join = aggregator();
            edge(from, join, when);
            edge(block(from, when, depth - 1), join);
            return join;
        }
        }
    }

    // A router whose branches (blocks, or straight edges) meet at an aggregator.
    std::string routed(const std::string& from, const std::optional<std::string>& when, int depth)
    {
        const auto id = newId("r");
        json fields = json::object();
        const int branches = *rc::gen::inRange(1, 4);
        std::vector<std::string> labels;
        for (int i = 0; i < branches; ++i)
            labels.push_back("route" + std::to_string(i + 1));
        const std::string strategy =
            generatedRouterFile().empty() ? *rc::gen::element<std::string>("all", "keyword", "moe_gate", "llm")
                                          : *rc::gen::element<std::string>("all", "keyword", "moe_gate", "llm", "learned");
        if (strategy == "learned")
            return learned(from, when, labels.size());
        fields["strategy"] = strategy;
        const bool broadcast = strategy == "all";
        if (strategy == "keyword") {
            static const std::vector<std::string> keywords{"calculate", "capital", "bloops",
                                                           "haiku",     "zebra",   "/\\d+/"};
            json routes = json::object();
            for (const auto& label : labels)
                routes[label] = json::array({*rc::gen::elementOf(keywords)});
            fields["routes"] = routes;
        }
        if ((strategy == "keyword" || strategy == "llm") && pick(2))
            fields["default"] = *rc::gen::elementOf(labels);
        if (strategy == "moe_gate") {
            if (pick(2))
                fields["top_k"] = *rc::gen::inRange(1, branches + 1);
            if (pick(3))
                fields["min_weight"] = *rc::gen::element(0.15, 0.5);
        }
        if (strategy == "llm") {
            fields["model"] = model();
            callOptions(fields);
        }
        addNode(id, "router", fields);
        edge(from, id, when);

        const auto join = aggregator();
        for (const auto& label : labels) {
            const std::optional<std::string> route = broadcast ? std::nullopt : std::optional<std::string>(label);
            // A straight edge makes the router itself a voter; moe_gate routes only to models.
            if (strategy != "moe_gate" && (!broadcast || label == labels.front()) && pick(4))
                edge(id, join, route);
            else
                edge(block(id, route, depth - 1), join);
        }
        return join;
    }

    // A learned router: one route straight to each of 1–3 experts (a learned route's model is its
    // expert's), its policy and that policy's fields; strong_weak only with exactly two routes.
    std::string learned(const std::string& from, const std::optional<std::string>& when, size_t branches)
    {
        const auto id = newId("r");
        json fields{{"strategy", "learned"}, {"router_file", generatedRouterFile()}};
        const std::string policy = branches == 2 ? *rc::gen::element<std::string>("cheapest_above", "max_utility", "strong_weak")
                                                 : *rc::gen::element<std::string>("cheapest_above", "max_utility");
        fields["policy"] = policy;
        if (policy == "max_utility")
            fields["cost_weight"] = *rc::gen::element(0.0, 0.5, 2.0);
        else
            fields["threshold"] = *rc::gen::element(-0.2, 0.0, 0.3, 0.7, 1.0);
        std::vector<std::string> experts;
        for (size_t i = 0; i < branches; ++i) {
            const auto expert = newId("e");
            json call{{"model", model()}};
            callOptions(call);
            addNode(expert, "expert", call);
            experts.push_back(expert);
        }
        if (policy == "strong_weak") {
            const bool flip = pick(2);
            fields["strong"] = experts[flip ? 1 : 0];
            fields["weak"] = experts[flip ? 0 : 1];
        }
        addNode(id, "router", fields);
        edge(from, id, when);
        const auto join = aggregator();
        for (const auto& expert : experts) {
            edge(id, expert, std::nullopt);
            edge(expert, join);
        }
        return join;
    }

    // Timeout, retries, fallback and reply length of a node that calls a model.
    void callOptions(json& fields)
    {
        if (pick(5)) {
            fields["timeout_ms"] = *rc::gen::element(100, 400, 2000);
            m_timed = true;
        }
        if (pick(3))
            fields["retries"] = *rc::gen::inRange(0, 3);
        if (pick(3))
            fields["fallback_model"] = *rc::gen::element<std::string>("fast", "weak");
        if (pick(4))
            fields["params"] = json{{"max_tokens", *rc::gen::element(8, 64, 512)}};
    }

    std::string expert(bool member)
    {
        const auto id = newId("e");
        json fields = json::object();
        fields["model"] = model();
        callOptions(fields);
        if (!member && pick(4))
            fields["weight"] = *rc::gen::element(0.5, 2.0);
        if (!member && pick(4))
            fields["prompt"] = "{{input}}\n\n{{inputs}}";
        addNode(id, "expert", fields);
        return id;
    }

    std::string aggregator()
    {
        const auto id = newId("a");
        json fields = json::object();
        const std::string strategy =
            *rc::gen::element<std::string>("majority", "weighted", "best_confidence", "concat", "synthesize", "first");
        fields["strategy"] = strategy;
        if (strategy == "first")
            m_timed = true;
        if (strategy == "synthesize") {
            fields["model"] = model();
            callOptions(fields);
            if (pick(2)) {
                fields["skip_when_agree"] = true;
                if (pick(2))
                    fields["agree_fraction"] = *rc::gen::element(0.5, 0.67, 1.0);
                needVersion(2);
            }
        }
        if (pick(4)) {
            fields["quorum"] = *rc::gen::inRange(1, 4);
            m_timed = true;
        }
        if (pick(4)) {
            fields["min_confidence"] = *rc::gen::element(0.5, 0.8, 0.95);
            m_timed = true;
        }
        if (pick(4)) {
            fields["deadline_ms"] = *rc::gen::element(50, 500, 3000);
            m_timed = true;
        }
        addNode(id, "aggregator", fields);
        return id;
    }

    // `nesting`: how many levels of member meetings a cascade or adaptive
    // coordinator may still hold (a meeting as its last stage, TMAS's fast path).
    std::string coordinator(int nesting = 2)
    {
        const auto id = newId("c");
        json fields = json::object();
        const std::string mode =
            *rc::gen::element<std::string>("round_robin", "debate", "cascade", "decompose", "adaptive");
        fields["mode"] = mode;
        if (mode == "decompose") {
            fields["model"] = model();
            callOptions(fields);
            if (pick(2)) {
                fields["max_subtasks"] = *rc::gen::inRange(1, 5); // up to more than the members there are
                needVersion(3);
            }
        }
        if (mode != "cascade" && pick(2))
            fields["max_rounds"] = *rc::gen::inRange(1, 5);
        if ((mode == "round_robin" || mode == "debate" || mode == "adaptive") && pick(2))
            fields["consensus"] = *rc::gen::element(0.5, 0.67, 1.0);
        if ((mode == "cascade" || mode == "adaptive") && pick(2))
            fields["threshold"] = *rc::gen::element(0.5, 0.8, 0.95);
        if (mode == "adaptive") {
            if (pick(2))
                fields["initial"] = *rc::gen::inRange(1, 5); // up to more than the members there are
            needVersion(2);
        }
        const size_t at = m_doc["nodes"].size();
        addNode(id, "coordinator", fields);
        const int members = *rc::gen::inRange(1, mode == "adaptive" ? 6 : 4);
        bool heldMeeting = false;
        for (int i = 0; i < members; ++i) {
            const bool meeting = (mode == "cascade" || mode == "adaptive") && nesting > 0 && pick(4);
            if (meeting)
                needVersion(2);
            heldMeeting = heldMeeting || meeting;
            const auto member = meeting ? coordinator(nesting - 1) : expert(true);
            m_doc["edges"].push_back(json{{"from", id}, {"to", member}, {"role", "member"}});
        }
        // A scorer scores experts' answers: only a meeting of experts gets one.
        if ((mode == "cascade" || mode == "adaptive") && !heldMeeting && !generatedScorerFile().empty() && pick(3)) {
            m_doc["nodes"][at]["scorer"] = generatedScorerFile();
            needVersion(3);
        }
        return id;
    }

    void budget()
    {
        json b = json::object();
        if (pick(2))
            b["max_cost_usd"] = *rc::gen::element(0.00002, 0.0005, 1.0);
        if (pick(2))
            b["max_tokens"] = *rc::gen::element(100, 1500, 100000);
        if (pick(2))
            b["max_wall_ms"] = *rc::gen::element(150, 2000, 60000);
        if (b.empty())
            b["max_tokens"] = 800;
        m_doc["budget"] = b;
        m_timed = true;
    }

    json m_doc = json::object();
    int m_count = 0;
    bool m_timed = false;
};

inline rc::Gen<GeneratedCase> generatedCase()
{
    return rc::gen::exec([] { return TeamShape().generate(); });
}

} // namespace teamgen
