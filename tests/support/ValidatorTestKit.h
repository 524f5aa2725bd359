#pragma once
// What the validator's test suites share: expected problems rendered as one
// comparable line each, the teams the rows start from and edit, and the
// check of one data row against validate().
// Include <QtTest> first.

#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"
#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/validate/Validator.h"

#include <QDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <regex>
#include <set>
#include <string>

using nlohmann::json;

// Builds the JSON document of one row's team.
using TeamBuilder = std::function<json()>;
Q_DECLARE_METATYPE(TeamBuilder)

// Changes a C++ team in place.
using TeamEdit = std::function<void(conclave::Team&)>;
Q_DECLARE_METATYPE(TeamEdit)

namespace validatortest {

using namespace conclave;

// ---------------------------------------------------------------------------
// Expected problems, rendered as one comparable line each.

struct Where {
    std::optional<std::string> node = {};
    std::optional<size_t> edge = {};
};

inline QString describe(Severity severity, std::string_view pointer, std::string_view message, const Where& where)
{
    QString text = severity == Severity::Error ? QStringLiteral("error ") : QStringLiteral("warning ");
    text += QString::fromUtf8(pointer.data(), qsizetype(pointer.size())) + QStringLiteral(": ") +
            QString::fromUtf8(message.data(), qsizetype(message.size()));
    if (where.node)
        text += QStringLiteral(" [node \"%1\"]").arg(QString::fromStdString(*where.node));
    if (where.edge)
        text += QStringLiteral(" [edge %1]").arg(*where.edge);
    return text;
}

inline QString err(std::string_view pointer, std::string_view message, const Where& where = {})
{
    return describe(Severity::Error, pointer, message, where);
}

inline QString warn(std::string_view pointer, std::string_view message, const Where& where = {})
{
    return describe(Severity::Warning, pointer, message, where);
}

inline QStringList render(const std::vector<Problem>& problems)
{
    QStringList out;
    for (const auto& p : problems) {
        Where where;
        if (p.node)
            where.node = p.node->str();
        where.edge = p.edge;
        QString line = describe(p.severity, p.pointer, p.message, where);
        if (p.line > 0)
            line += QStringLiteral(" [at %1:%2]").arg(p.line).arg(p.column);
        out << line;
    }
    return out;
}

inline void compareProblems(const QStringList& actual, const QStringList& expected)
{
    if (actual != expected) {
        qWarning().noquote() << "\nactual problems:\n    " + actual.join(QStringLiteral("\n    ")) +
                                    "\nexpected problems:\n    " + expected.join(QStringLiteral("\n    "));
    }
    QCOMPARE(actual, expected);
}

inline const std::string kSecret =
    "a literal secret is not allowed in a team file; name an environment variable in api_key_env instead";

inline const QStringList kModels{QStringLiteral("local/generalist-7b"), QStringLiteral("local/math-13b")};

inline std::string unknownModel(const std::string& name)
{
    return "unknown local model \"" + name + "\"; the local-moe backend has local/generalist-7b, local/math-13b";
}

inline std::string regexError(const std::string& pattern)
{
    try {
        std::regex compiled(pattern, std::regex::ECMAScript | std::regex::icase);
    } catch (const std::regex_error& e) {
        return e.what();
    }
    return "(no error)";
}

// ---------------------------------------------------------------------------
// Small valid teams; each row changes one of them.

// input -> expert -> output with one local-moe backend.
inline json minimal()
{
    return json::parse(R"({
  "conclave": 1,
  "name": "Minimal",
  "backends": { "local": { "kind": "local-moe" } },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "e", "kind": "expert", "model": "local/generalist-7b", "prompt": "{{input}}" },
    { "id": "out", "kind": "output" }
  ],
  "edges": [ { "from": "in", "to": "e" }, { "from": "e", "to": "out" } ]
})");
}

// input -> coordinator (member m) -> output.
inline json coordinatorTeam()
{
    return json::parse(R"({
  "conclave": 1,
  "name": "Meeting",
  "backends": { "local": { "kind": "local-moe" } },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "c", "kind": "coordinator", "mode": "debate" },
    { "id": "m", "kind": "expert", "model": "local/generalist-7b", "prompt": "{{task}}" },
    { "id": "out", "kind": "output" }
  ],
  "edges": [
    { "from": "in", "to": "c" },
    { "from": "c", "to": "m", "role": "member" },
    { "from": "c", "to": "out" }
  ]
})");
}

// input -> router (all) -> expert -> output.
inline json routerTeam()
{
    return json::parse(R"({
  "conclave": 1,
  "name": "Router",
  "backends": { "local": { "kind": "local-moe" } },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "r", "kind": "router", "strategy": "all" },
    { "id": "e", "kind": "expert", "model": "local/generalist-7b", "prompt": "{{input}}" },
    { "id": "out", "kind": "output" }
  ],
  "edges": [
    { "from": "in", "to": "r" },
    { "from": "r", "to": "e", "when": "e" },
    { "from": "e", "to": "out" }
  ]
})");
}

// input -> experts a, b -> aggregator v -> output.
inline json aggregatorTeam()
{
    return json::parse(R"({
  "conclave": 1,
  "name": "Vote",
  "backends": { "local": { "kind": "local-moe" } },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "a", "kind": "expert", "model": "local/generalist-7b", "prompt": "{{input}}" },
    { "id": "b", "kind": "expert", "model": "local/math-13b", "prompt": "{{input}}" },
    { "id": "v", "kind": "aggregator", "strategy": "majority" },
    { "id": "out", "kind": "output" }
  ],
  "edges": [
    { "from": "in", "to": "a" },
    { "from": "in", "to": "b" },
    { "from": "a", "to": "v" },
    { "from": "b", "to": "v" },
    { "from": "v", "to": "out" }
  ]
})");
}

// input -> keyword router -> math | general -> first -> output.
inline json keywordTeam()
{
    return json::parse(R"({
  "conclave": 1,
  "name": "Keywords",
  "backends": { "local": { "kind": "local-moe" } },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "r", "kind": "router", "strategy": "keyword",
      "routes": { "math": ["calc", "/\\d+/"] }, "default": "general" },
    { "id": "math", "kind": "expert", "model": "local/math-13b", "prompt": "{{input}}" },
    { "id": "general", "kind": "expert", "model": "local/generalist-7b", "prompt": "{{input}}" },
    { "id": "v", "kind": "aggregator", "strategy": "first" },
    { "id": "out", "kind": "output" }
  ],
  "edges": [
    { "from": "in", "to": "r" },
    { "from": "r", "to": "math", "when": "math" },
    { "from": "r", "to": "general", "when": "general" },
    { "from": "math", "to": "v" },
    { "from": "general", "to": "v" },
    { "from": "v", "to": "out" }
  ]
})");
}

// Every numeric field of the format set to a valid value, both backend kinds,
// defaults, budget and an inline model profile. (The URL's slashes are escaped
// because moc reads "//" inside a raw string as a comment and loses the class.)
inline json richTeam()
{
    return json::parse(R"({
  "conclave": 1,
  "name": "Rich",
  "backends": {
    "local": { "kind": "local-moe", "seed": 1, "time_scale": 1,
      "models": { "my/model": {
        "skills": { "math": 0.5 },
        "ttft_ms": { "median": 100, "p95": 200 },
        "tokens_per_s": { "median": 50, "p95": 30 },
        "output_tokens": { "median": 100, "p95": 200 },
        "price_per_mtok": { "input": 0.1, "output": 0.2 },
        "context_tokens": 1000,
        "failure_rate": 0.01 } } },
    "oa": { "kind": "openai", "base_url": "https:\/\/api.example.com\/v1", "api_key_env": "EXAMPLE_API_KEY",
            "max_concurrency": 4, "requests_per_minute": 60, "connect_timeout_ms": 1000,
            "max_tokens_param": "max_tokens", "headers": { "X-Trace": "on" },
            "prices": { "gpt-x": { "input": 1, "output": 2 } } }
  },
  "defaults": { "backend": "local", "timeout_ms": 1000, "retries": 1,
                "params": { "temperature": 0.5, "max_tokens": 100, "top_p": 0.9 } },
  "budget": { "max_cost_usd": 1, "max_tokens": 1000, "max_wall_ms": 1000 },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "r", "kind": "router", "strategy": "moe_gate", "top_k": 1, "min_weight": 0.1 },
    { "id": "e", "kind": "expert", "model": "my/model", "prompt": "{{input}}",
      "params": { "temperature": 0.5, "max_tokens": 100, "top_p": 0.9 },
      "timeout_ms": 1000, "retries": 1, "weight": 1 },
    { "id": "c", "kind": "coordinator", "mode": "cascade", "max_rounds": 2, "consensus": 0.5, "threshold": 0.5 },
    { "id": "m", "kind": "expert", "backend": "oa", "model": "gpt-x", "prompt": "{{task}}" },
    { "id": "v", "kind": "aggregator", "strategy": "weighted", "quorum": 1, "min_confidence": 0.5,
      "deadline_ms": 1000 },
    { "id": "out", "kind": "output" }
  ],
  "edges": [
    { "from": "in", "to": "r" },
    { "from": "r", "to": "e", "when": "e" },
    { "from": "e", "to": "c" },
    { "from": "c", "to": "m", "role": "member" },
    { "from": "c", "to": "v" },
    { "from": "v", "to": "out" }
  ]
})");
}

// The inline profile of richTeam(), as a pointer ('/' in the name escaped).
inline const std::string kProfile = "/backends/local/models/my~1model";

inline json expertNode(const std::string& id, const std::string& prompt = "{{input}}")
{
    return {{"id", id}, {"kind", "expert"}, {"model", "local/generalist-7b"}, {"prompt", prompt}};
}

inline json edgeJson(const std::string& from, const std::string& to)
{
    return {{"from", from}, {"to", to}};
}

inline json memberEdge(const std::string& from, const std::string& to)
{
    return {{"from", from}, {"to", to}, {"role", "member"}};
}

// Renames a node everywhere it is mentioned.
inline void renameNode(json& team, const std::string& from, const std::string& to)
{
    for (auto& node : team["nodes"]) {
        if (node["id"] == from)
            node["id"] = to;
    }
    for (auto& edge : team["edges"]) {
        if (edge["from"] == from)
            edge["from"] = to;
        if (edge["to"] == from)
            edge["to"] = to;
    }
}

inline TeamBuilder edit(json (*base)(), std::function<void(json&)> change)
{
    return [base, change] {
        auto doc = base();
        change(doc);
        return doc;
    };
}

inline TeamBuilder setAt(json (*base)(), const std::string& pointer, const json& value)
{
    return edit(base, [pointer, value](json& doc) { doc[json::json_pointer(pointer)] = value; });
}

inline TeamBuilder unchanged(json (*base)())
{
    return [base] { return base(); };
}

// A team built from scratch: nodes, then edges as (from, to) pairs.
inline TeamBuilder graph(std::vector<json> nodes, std::vector<std::pair<std::string, std::string>> edges)
{
    return [nodes, edges] {
        auto doc = minimal();
        doc["nodes"] = nodes;
        doc["edges"] = json::array();
        for (const auto& [from, to] : edges)
            doc["edges"].push_back(edgeJson(from, to));
        return doc;
    };
}

inline json inputNode(const std::string& id = "in")
{
    return {{"id", id}, {"kind", "input"}};
}

inline json outputNode(const std::string& id = "out")
{
    return {{"id", id}, {"kind", "output"}};
}

inline void addColumns()
{
    QTest::addColumn<TeamBuilder>("build");
    QTest::addColumn<QStringList>("models");
    QTest::addColumn<QStringList>("expected");
}

inline void row(const char* name, const TeamBuilder& build, const QStringList& expected, const QStringList& models = {})
{
    QTest::newRow(name) << build << models << expected;
}

// The C++ form of minimal(): a team as an editor would build it.
inline Team minimalTeam()
{
    Team team;
    team.name = "Minimal";
    team.backends.emplace(BackendName("local"), Backend{});
    Node in;
    in.id = NodeId("in");
    in.kind = NodeKind::Input;
    Node expert;
    expert.id = NodeId("e");
    expert.kind = NodeKind::Expert;
    expert.config.call.model = "local/generalist-7b";
    expert.config.call.prompt = "{{input}}";
    Node out;
    out.id = NodeId("out");
    out.kind = NodeKind::Output;
    team.nodes = {in, expert, out};
    for (const auto& [from, to] : {std::pair{"in", "e"}, std::pair{"e", "out"}}) {
        Edge edge;
        edge.from = NodeId(from);
        edge.to = NodeId(to);
        team.edges.push_back(edge);
    }
    return team;
}

} // namespace validatortest

namespace validatortest {

// The local model catalog the rows validate against, and the check of one row.
class ValidatorRows {
public:
    // Loads resources/models/local-models.json; false when it does not load cleanly.
    bool loadCatalog()
    {
        const auto catalog = LocalModelCatalog::load(CONCLAVE_RESOURCES "/models/local-models.json");
        if (!catalog.problems.empty() || !catalog.catalog)
            return false;
        m_catalogModels = catalog.catalog->names();
        return m_catalogModels.contains("local/generalist-7b");
    }
    const std::set<std::string>& catalogModels() const { return m_catalogModels; }

    // Loads the row's team (which must load cleanly) and compares validate()'s problems.
    static void verifyRow()
    {
        QFETCH(TeamBuilder, build);
        QFETCH(QStringList, models);
        QFETCH(QStringList, expected);

        const auto loaded = teamFromJson(build());
        QCOMPARE(render(loaded.problems), QStringList());
        QVERIFY(loaded.team);
        ValidationContext context;
        for (const auto& model : models)
            context.localModels.insert(model.toStdString());
        compareProblems(render(validate(*loaded.team, context)), expected);
    }

private:
    std::set<std::string> m_catalogModels;
};

} // namespace validatortest
