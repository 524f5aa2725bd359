// The JSON Schema, the reader and the writer must know the same fields.
#include "conclave/io/TeamFields.h"
#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"

#include <QtTest>

#include <fstream>
#include <set>

using namespace conclave;
using nlohmann::json;

namespace {

json loadSchema()
{
    std::ifstream in(CONCLAVE_RESOURCES "/schema/team.schema.json");
    return json::parse(in);
}

QStringList sorted(std::span<const std::string_view> keys)
{
    QStringList out;
    for (const auto key : keys)
        out << QString::fromUtf8(key.data(), qsizetype(key.size()));
    out.sort();
    return out;
}

QStringList schemaKeys(const json& object)
{
    QStringList out;
    for (const auto& [key, value] : object.at("properties").items())
        out << QString::fromStdString(key);
    out.sort();
    return out;
}

// A value the reader accepts for a key, so that a node can carry every key of its kind.
json sampleValue(std::string_view key)
{
    if (key == "id" || key == "label" || key == "backend" || key == "model" || key == "fallback_model" ||
        key == "system" || key == "prompt" || key == "default" || key == "scorer" || key == "router_file" ||
        key == "strong" || key == "weak")
        return "x";
    if (key == "policy")
        return "strong_weak";
    if (key == "pos")
        return json::array({1, 2});
    if (key == "routes")
        return json{{"a", json::array({"k"})}};
    if (key == "params")
        return json{{"temperature", 0.5}};
    if (key == "strategy")
        return "concat";
    if (key == "mode")
        return "debate";
    if (key == "skip_when_agree")
        return true;
    return 1;
}

} // namespace

class TestTeamFields : public QObject {
    Q_OBJECT

private slots:
    void schemaKnowsTheSameObjects_data()
    {
        QTest::addColumn<int>("object");
        QTest::addColumn<QString>("schemaPath");
        QTest::newRow("team") << int(TeamObject::Team) << "";
        QTest::newRow("node") << int(TeamObject::Node) << "node";
        QTest::newRow("edge") << int(TeamObject::Edge) << "edge";
        QTest::newRow("backend") << int(TeamObject::Backend) << "backend";
        QTest::newRow("params") << int(TeamObject::Params) << "params";
        QTest::newRow("defaults") << int(TeamObject::Defaults) << "defaults";
        QTest::newRow("budget") << int(TeamObject::Budget) << "budget";
        QTest::newRow("profile") << int(TeamObject::Profile) << "profile";
    }

    void schemaKnowsTheSameObjects()
    {
        QFETCH(int, object);
        QFETCH(QString, schemaPath);
        const auto schema = loadSchema();
        const auto& node = schemaPath.isEmpty() ? schema : schema.at("$defs").at(schemaPath.toStdString());
        QCOMPARE(schemaKeys(node), sorted(teamObjectKeys(TeamObject(object))));
    }

    void schemaKnowsEachNodeKind()
    {
        const auto schema = loadSchema();
        for (const NodeKind kind : allValues<NodeKind>()) {
            const auto name = std::string(toString(kind));
            QCOMPARE(schemaKeys(schema.at("$defs").at(name)), sorted(nodeKeys(kind)));
        }
        QCOMPARE(schemaKeys(schema.at("$defs").at("localMoeBackend")), sorted(backendKeys(BackendKind::LocalMoe)));
        QCOMPARE(schemaKeys(schema.at("$defs").at("openaiBackend")), sorted(backendKeys(BackendKind::OpenAi)));
    }

    void readerAcceptsExactlyTheKeysOfEachKind()
    {
        for (const NodeKind kind : allValues<NodeKind>()) {
            json node = json::object();
            for (const auto key : nodeKeys(kind))
                node[std::string(key)] = sampleValue(key);
            node["kind"] = std::string(toString(kind));
            if (kind == NodeKind::Router)
                node["strategy"] = "keyword";
            if (kind == NodeKind::Aggregator)
                node["strategy"] = "concat";
            // One key that belongs to no kind, and one that belongs to another kind.
            node["colour"] = "red";
            const bool takesQuorum = kind == NodeKind::Aggregator;
            if (!takesQuorum)
                node["quorum"] = 2;
            const json team{{"conclave", 1}, {"name", "t"}, {"nodes", json::array({node})}};
            const auto result = teamFromJson(team);
            QVERIFY2(result.team, std::string(toString(kind)).c_str());
            const auto& extra = result.team->nodes[0].extra;
            QCOMPARE(extra.size(), takesQuorum ? size_t(1) : size_t(2));
            QVERIFY(extra.contains("colour"));

            // The writer puts the kind's keys in canonical order, and nothing else but the unknown keys.
            const auto written = teamToJson(*result.team).at("nodes").at(0);
            std::vector<std::string> order;
            for (const auto& [key, value] : written.items())
                order.push_back(key);
            std::vector<std::string> expected;
            for (const auto key : nodeKeys(kind))
                expected.emplace_back(key);
            for (const auto& [key, value] : extra.items())
                expected.push_back(key);
            QCOMPARE(order.size(), expected.size());
            QVERIFY2(order == expected, std::string(toString(kind)).c_str());
        }
    }

    void everyNumericKeyHasARule()
    {
        const std::set<std::string_view> numeric{
            "timeout_ms", "retries", "top_k",     "min_weight", "quorum", "min_confidence", "deadline_ms",
            "max_rounds", "consensus", "threshold", "weight",   "temperature", "max_tokens", "top_p",
            "seed",       "time_scale", "max_concurrency", "requests_per_minute", "connect_timeout_ms",
            "max_cost_usd", "max_wall_ms", "context_tokens", "failure_rate", "initial", "max_subtasks"};
        for (const auto key : numeric)
            QVERIFY2(fieldRule(key).key == key, std::string(key).c_str());
        QCOMPARE(std::string(fieldRule("retries").expected), std::string("an integer from 0 to 10"));
        QVERIFY(fieldRule("retries").accepts(10));
        QVERIFY(!fieldRule("retries").accepts(11));
        QVERIFY(!fieldRule("timeout_ms").accepts(0));
        QVERIFY(fieldRule("consensus").accepts(1));
        QVERIFY(!fieldRule("consensus").accepts(0));
    }
};

QTEST_GUILESS_MAIN(TestTeamFields)
#include "tst_teamfields.moc"
