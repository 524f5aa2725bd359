// TeamSweep: a sweep applied to a team through its file format. Paths to
// nodes (the longest node-id prefix, so dotted ids work), nested fields made
// on the way, backends and defaults; typed values; and exact errors naming
// the flag (a path that names nothing) or the variant (one that does not
// load, does not validate, or sets a field its node kind does not read).
#include <QtTest>

#include "conclave/experiment/TeamSweep.h"
#include "conclave/io/TeamJson.h"

#include <nlohmann/json.hpp>

using namespace conclave;
using nlohmann::json;

Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

Team sweepTeam()
{
    auto loaded = teamFromJsonText(R"({
  "conclave": 1, "name": "sweepme",
  "backends": {"local": {"kind": "local-moe", "seed": 1}},
  "defaults": {"backend": "local", "model": "local/tiny-1b"},
  "nodes": [
    {"id": "in", "kind": "input"},
    {"id": "triage", "kind": "router", "strategy": "moe_gate", "top_k": 1},
    {"id": "stage", "kind": "expert", "model": "local/math-13b"},
    {"id": "stage.1", "kind": "expert", "params": {"temperature": 0.2}},
    {"id": "vote", "kind": "aggregator", "strategy": "majority"},
    {"id": "out", "kind": "output"}
  ],
  "edges": [
    {"from": "in", "to": "triage"},
    {"from": "triage", "to": "stage", "when": "math"},
    {"from": "triage", "to": "stage.1", "when": "facts"},
    {"from": "stage", "to": "vote"}, {"from": "stage.1", "to": "vote"}, {"from": "vote", "to": "out"}
  ]
})");
    if (!loaded.team)
        qFatal("the sweep team does not load");
    return *loaded.team;
}

std::optional<std::vector<TeamVariant>> variantsOf(const std::vector<std::string>& flags, std::string& error)
{
    const auto spec = SweepSpec::parse(flags, error);
    if (!spec)
        return std::nullopt;
    return TeamSweep(sweepTeam(), "t.team.json", {}).variants(*spec, "sweepme", error);
}

json at(const TeamVariant& variant, const char* pointer)
{
    const json doc = teamToJson(variant.team);
    const json::json_pointer p(pointer);
    return doc.contains(p) ? doc.at(p) : json("absent");
}

} // namespace

class TestTeamSweep : public QObject {
    Q_OBJECT

private slots:
    void setsTypedValuesWhereThePathsPoint()
    {
        std::string error;
        const auto variants =
            variantsOf({"stage.1.params.temperature=0.1:0.3:0.1", "triage.top_k=1,2", "stage.params.top_p=0.9",
                        "backends.local.seed=7", "defaults.retries=3", "stage.model=local/facts-7b"},
                       error);
        QVERIFY2(variants, error.c_str());
        QCOMPARE(variants->size(), size_t(6));
        const auto& v = (*variants)[3];
        QCOMPARE(v.name, std::string("sweepme [stage.1.params.temperature=0.2, triage.top_k=2, stage.params.top_p=0.9, "
                                     "backends.local.seed=7, defaults.retries=3, stage.model=local/facts-7b]"));
        QCOMPARE(at(v, "/nodes/3/params/temperature"), json(0.2)); // the longest id prefix: stage.1
        QCOMPARE(at(v, "/nodes/1/top_k"), json(2));
        QVERIFY(at(v, "/nodes/1/top_k").is_number_integer());
        QCOMPARE(at(v, "/nodes/2/params/top_p"), json(0.9)); // params made on the way
        QCOMPARE(at(v, "/nodes/2/model"), json("local/facts-7b"));
        QCOMPARE(at(v, "/backends/local/seed"), json(7));
        QCOMPARE(at(v, "/defaults/retries"), json(3));
        QCOMPARE(at(v, "/defaults/model"), json("local/tiny-1b")); // the rest stays
        QCOMPARE(v.parameters.size(), size_t(6));
        QCOMPARE(v.parameters[0], (SweepParameter{"stage.1.params.temperature", json(0.2), "0.2"}));
        QCOMPARE(at((*variants)[0], "/nodes/3/params/temperature"), json(0.1));
        QCOMPARE(at((*variants)[5], "/nodes/3/params/temperature"), json(0.3));
    }

    void errors_data()
    {
        QTest::addColumn<std::vector<std::string>>("flags");
        QTest::addColumn<QString>("error");
        using F = std::vector<std::string>;
        QTest::newRow("unknown node")
            << F{"judge.params.temperature=0.1"}
            << "--vary 'judge.params.temperature=0.1': judge.params.temperature names no node of t.team.json (PATH is "
               "NODE_ID.FIELD, backends.NAME.FIELD or defaults.FIELD)";
        QTest::newRow("a node, no field")
            << F{"stage.1=2"} << "--vary 'stage.1=2': stage.1 is a node; name one of its fields (stage.1.FIELD)";
        QTest::newRow("a node's id") << F{"stage.id=x"}
                                     << "--vary 'stage.id=x': a node's id cannot be varied; its fields can";
        QTest::newRow("a node's kind") << F{"stage.kind=router"}
                                       << "--vary 'stage.kind=router': a node's kind cannot be varied; its fields can";
        QTest::newRow("unknown backend")
            << F{"backends.remote.seed=1"}
            << "--vary 'backends.remote.seed=1': no backend \"remote\" in t.team.json (PATH is backends.NAME.FIELD)";
        QTest::newRow("a backend, no field")
            << F{"backends.local=1"}
            << "--vary 'backends.local=1': backends.local is a backend; name one of its fields "
               "(backends.local.FIELD)";
        QTest::newRow("through a value")
            << F{"stage.model.name=x"}
            << "--vary 'stage.model.name=x': stage.model is a string in t.team.json, not an "
               "object with fields";
        QTest::newRow("does not load")
            << F{"stage.params.temperature=0.5,hot"}
            << "--vary: variant \"sweepme [stage.params.temperature=hot]\": /nodes/2/params/temperature: expected a "
               "number from 0 to 2, got \"hot\"";
        QTest::newRow("does not validate")
            << F{"stage.1.params.temperature=1,5"}
            << "--vary: variant \"sweepme [stage.1.params.temperature=5]\": /nodes/3/params/temperature: expected "
               "a number from 0 to 2, got 5";
        QTest::newRow("not a field of that kind") << F{"in.top_k=1,2"}
                                                  << "--vary: variant \"sweepme [in.top_k=1]\": /nodes/0/top_k: "
                                                     "warning: unknown key for an input node; it is "
                                                     "kept as is; a sweep varies only fields the team reads";
        QTest::newRow("not a field of params")
            << F{"stage.params.temp=1"}
            << "--vary: variant \"sweepme [stage.params.temp=1]\": /nodes/2/params/temp: warning: unknown key for "
               "params; it is kept as is; a sweep varies only fields the team reads";
    }
    void errors()
    {
        QFETCH(std::vector<std::string>, flags);
        QFETCH(QString, error);
        std::string got;
        QVERIFY(!variantsOf(flags, got));
        QCOMPARE(QString::fromStdString(got), error);
    }
};

QTEST_GUILESS_MAIN(TestTeamSweep)
#include "tst_teamsweep.moc"
