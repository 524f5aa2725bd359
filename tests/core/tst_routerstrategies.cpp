// The registry of router strategies (model/RouterStrategies) against the JSON
// Schema file, the names every layer reads from it, and session/'s behaviours.
#include "conclave/io/TeamJson.h"
#include "conclave/model/RouterStrategies.h"
#include "conclave/model/Team.h"
#include "conclave/local/Gate.h"
#include "conclave/session/RouterBehaviourFactory.h"

#include <QtTest>

#include <fstream>
#include <set>

using namespace conclave;
using nlohmann::json;

namespace {

json routerSchema()
{
    std::ifstream in(CONCLAVE_RESOURCES "/schema/team.schema.json");
    return json::parse(in).at("$defs").at("router");
}

std::vector<std::string> registryNames()
{
    std::vector<std::string> out;
    for (const auto& s : RouterStrategies::all())
        out.emplace_back(s.name);
    return out;
}

// The JSON Schema type of a field of this kind.
std::string schemaType(FieldKind kind)
{
    switch (kind) {
    case FieldKind::Number:
        return "number";
    case FieldKind::Integer:
        return "integer";
    case FieldKind::RouteMap:
        return "object";
    case FieldKind::String:
    case FieldKind::Path:
    case FieldKind::Enum:
    case FieldKind::NodeRef:
    case FieldKind::RouteLabel:
        break;
    }
    return "string";
}

// The keys the schema requires of a router of `strategy` (allOf: if strategy is it, then required).
std::set<std::string> schemaRequired(const json& router, std::string_view strategy)
{
    std::set<std::string> out;
    for (const auto& rule : router.value("allOf", json::array())) {
        const auto& is = rule.at("if").at("properties").at("strategy");
        if (is.value("const", "") == strategy)
            for (const auto& key : rule.at("then").at("required"))
                out.insert(key.get<std::string>());
    }
    return out;
}

Node router(const RouterStrategyDescriptor& s)
{
    Node n;
    n.id = NodeId("r");
    n.kind = NodeKind::Router;
    n.config.routerStrategy = s.strategy;
    return n;
}

} // namespace

class TestRouterStrategies : public QObject {
    Q_OBJECT

private slots:
    void registryListsTheStrategiesInOrder()
    {
        QCOMPARE(registryNames(), (std::vector<std::string>{"all", "keyword", "moe_gate", "llm", "learned"}));
        QCOMPARE(RouterStrategies::namesInWords(), std::string("all, keyword, moe_gate, llm or learned"));
        QCOMPARE(RouterStrategies::values().size(), RouterStrategies::all().size());
        for (const auto& s : RouterStrategies::all()) {
            QCOMPARE(toString(s.strategy), s.name);
            QCOMPARE(enumFromString<RouterStrategy>(s.name), std::optional<RouterStrategy>(s.strategy));
            QCOMPARE(RouterStrategies::find(s.name), &s);
        }
        QVERIFY(!RouterStrategies::find("forest"));
    }

    void fieldsAreListedOncePerKeyInOrder()
    {
        std::vector<std::string> keys;
        for (const RouterField* f : RouterStrategies::fields())
            keys.emplace_back(f->key);
        QCOMPARE(keys, (std::vector<std::string>{"routes", "default", "top_k", "min_weight", "router_file", "policy",
                                                 "threshold", "cost_weight", "strong", "weak"}));
        QCOMPARE(RouterStrategies::strategiesWith("default"), (std::vector<std::string_view>{"keyword", "llm"}));
        QCOMPARE(RouterStrategies::strategiesWith("top_k"), (std::vector<std::string_view>{"moe_gate"}));
    }

    void schemaEnumIsTheRegistry()
    {
        const auto schema = routerSchema();
        QCOMPARE(schema.at("properties").at("strategy").at("enum").get<std::vector<std::string>>(), registryNames());
    }

    void schemaFieldsAreTheRegistrys()
    {
        const auto schema = routerSchema();
        const auto& properties = schema.at("properties");
        for (const auto& s : RouterStrategies::all()) {
            for (const auto& f : s.fields) {
                const std::string key(f.key);
                QVERIFY2(properties.contains(key), key.c_str());
                const auto& p = properties.at(key);
                QCOMPARE(p.at("type").get<std::string>(), schemaType(f.kind));
                if (f.kind == FieldKind::Number || f.kind == FieldKind::Integer) {
                    QCOMPARE(p.at(f.rule.minExclusive ? "exclusiveMinimum" : "minimum").get<double>(), f.rule.min);
                    if (f.rule.max < 1e300)
                        QCOMPARE(p.at("maximum").get<double>(), f.rule.max);
                    else
                        QVERIFY2(!p.contains("maximum"), key.c_str());
                }
                if (f.kind == FieldKind::Enum) {
                    std::vector<std::string> values(f.values.begin(), f.values.end());
                    QCOMPARE(p.at("enum").get<std::vector<std::string>>(), values);
                }
                // A field of one strategy says so first in its description.
                const auto owners = RouterStrategies::strategiesWith(f.key);
                if (owners.size() == 1)
                    QVERIFY2(p.at("description").get<std::string>().starts_with(std::string(s.name) + ": "),
                             key.c_str());
            }
            std::set<std::string> required;
            for (const auto& f : s.fields) {
                if (f.required)
                    required.emplace(f.key);
            }
            QCOMPARE(schemaRequired(schema, s.name), required);
        }
    }

    void everyStrategyHasABehaviourMadeBySession()
    {
        EngineResources resources;
        auto gate = Gate::load(CONCLAVE_RESOURCES "/models/gate.json");
        QVERIFY(gate.gate);
        resources.gate = std::make_shared<const Gate>(std::move(*gate.gate));
        const RouterBehaviourFactory factory(resources, CONCLAVE_TEST_DATA "/routers");
        for (const auto& s : RouterStrategies::all()) {
            std::string error;
            auto node = router(s);
            if (s.strategy == RouterStrategy::Learned) { // a file to read, a policy to follow
                node.config.routerFile = "two-models.router.json";
                node.config.routePolicy = "cheapest_above";
                node.config.routeThreshold = 0.7;
            }
            const auto behaviour = factory.make(node, error);
            QVERIFY2(behaviour, (std::string(s.name) + ": " + error).c_str());
            QCOMPARE(error, std::string());
            QCOMPARE(behaviour->asksModel(), s.callsModel);
        }
    }

    void callsModelAndFormatVersionComeFromTheDescriptor()
    {
        for (const auto& s : RouterStrategies::all()) {
            const Node n = router(s);
            QCOMPARE(n.callsModel(), s.callsModel);
            Team team;
            team.nodes.push_back(n);
            QCOMPARE(formatVersionNeeded(team), std::max<int64_t>(1, s.formatVersion));
        }
        Node unset;
        unset.kind = NodeKind::Router;
        QCOMPARE(unset.callsModel(), false);
    }

    void readerAndWriterTakeTheFieldsFromTheRegistry()
    {
        const json doc{{"conclave", 1},
                       {"name", "t"},
                       {"nodes", json::array({json{{"id", "r"},
                                                   {"kind", "router"},
                                                   {"strategy", "moe_gate"},
                                                   {"min_weight", 0.25},
                                                   {"top_k", 2},
                                                   {"routes", json{{"a", json::array({"x"})}}},
                                                   {"default", "a"}}})}};
        const auto loaded = teamFromJson(doc);
        QVERIFY(loaded.team);
        const auto& c = loaded.team->nodes[0].config;
        QCOMPARE(c.topK, std::optional<int64_t>(2));
        QCOMPARE(c.minWeight, std::optional<double>(0.25));
        QCOMPARE(c.defaultRoute, std::optional<std::string>("a"));
        QCOMPARE(c.routes, std::optional<RouteTable>(RouteTable{{"a", {"x"}}}));
        const auto written = teamToJson(*loaded.team).at("nodes").at(0);
        std::vector<std::string> keys;
        for (const auto& [key, value] : written.items())
            keys.push_back(key);
        QCOMPARE(keys,
                 (std::vector<std::string>{"id", "kind", "strategy", "routes", "default", "top_k", "min_weight"}));

        const json bad{{"conclave", 1},
                       {"name", "t"},
                       {"nodes", json::array({json{{"id", "r"}, {"kind", "router"}, {"top_k", "two"}}})}};
        const auto refused = teamFromJson(bad);
        QVERIFY(!refused.team);
        QCOMPARE(refused.problems.size(), size_t(1));
        QCOMPARE(refused.problems[0].pointer, std::string("/nodes/0/top_k"));
        QCOMPARE(refused.problems[0].message, std::string("expected an integer of at least 1, got \"two\""));
    }
};

QTEST_GUILESS_MAIN(TestRouterStrategies)
#include "tst_routerstrategies.moc"
