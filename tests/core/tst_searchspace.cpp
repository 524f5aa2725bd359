// SearchSpace and SearchObjectives: what a design search may change and
// optimise, read from a space file and the command line — every point, its
// team, and an exact error for each kind of bad input.
#include <QtTest>

#include "support/QtStrings.h"
#include "support/SoloTeam.h"

#include "conclave/io/TeamJson.h"
#include "conclave/search/SearchCommandLine.h"
#include "conclave/search/SearchObjectives.h"
#include "conclave/search/SearchSpace.h"

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

using namespace conclave;
namespace fs = std::filesystem;

namespace {

const char* kSolo = testsupport::kSoloTeam;

const char* kPair = R"({
  "conclave": 1, "name": "pair",
  "backends": {"local": {"kind": "local-moe"}},
  "defaults": {"backend": "local", "model": "local/tiny-1b"},
  "nodes": [{"id": "in", "kind": "input"}, {"id": "a", "kind": "expert"}, {"id": "b", "kind": "expert"},
            {"id": "vote", "kind": "aggregator", "strategy": "majority"}, {"id": "out", "kind": "output"}],
  "edges": [{"from": "in", "to": "a"}, {"from": "in", "to": "b"}, {"from": "a", "to": "vote"},
            {"from": "b", "to": "vote"}, {"from": "vote", "to": "out"}]
})";

SearchBase base(const char* json, const std::string& file = "")
{
    return {file, file, *teamFromJsonText(json).team};
}

} // namespace

class TestSearchSpace : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void pointsOfOneBase()
    {
        std::string error;
        auto space = SearchSpace::fromFlags({"e.model=local/tiny-1b,local/math-13b", "e.params.temperature=0:1:0.5"},
                                            {base(kSolo)}, error);
        QVERIFY2(space, error.c_str());
        // (2 + its own) x (3 + its own).
        QCOMPARE(space->size(), 12.0);
        const auto grid = space->grid(100);
        QCOMPARE(grid.size(), size_t(12));
        QCOMPARE(q(SearchSpace::key(grid[0])), QString("b0:-,-"));
        QCOMPARE(q(SearchSpace::key(grid[1])), QString("b0:-,0"));
        QCOMPARE(q(SearchSpace::key(grid[11])), QString("b0:1,2"));
        QVERIFY(space->grid(11).empty());
        QVERIFY(space->parameters()[1].ordered);
        QVERIFY(!space->parameters()[0].ordered);
        const auto variant = space->variant(grid[11], error);
        QVERIFY2(variant, error.c_str());
        QCOMPARE(q(variant->name), QString("solo [e.model=local/math-13b, e.params.temperature=1.0]"));
        QCOMPARE(q(*variant->team.findNode(NodeId("e"))->config.call.model), QString("local/math-13b"));
        // The base as drawn sets nothing.
        QVERIFY(space->parametersOf(grid[0]).empty());
        QCOMPARE(q(space->variant(grid[0], error)->team.name), QString("solo"));
    }

    void aParameterAppliesToTheBasesThatHaveItsNode()
    {
        std::string error;
        auto space = SearchSpace::fromFlags({"e.model=local/math-13b", "a.model=local/facts-7b,local/code-13b",
                                             "defaults.timeout_ms=1000,2000"},
                                            {base(kSolo), base(kPair)}, error);
        QVERIFY2(space, error.c_str());
        QCOMPARE(space->parameters()[0].appliesTo, (std::vector<bool>{true, false}));
        QCOMPARE(space->parameters()[1].appliesTo, (std::vector<bool>{false, true}));
        QCOMPARE(space->parameters()[2].appliesTo, (std::vector<bool>{true, true}));
        // solo: 2 x 3; pair: 3 x 3.
        QCOMPARE(space->size(), 15.0);
        QCOMPARE(space->grid(100).size(), size_t(15));
        QCOMPARE(q(SearchSpace::key(space->grid(100)[6])), QString("b1:-,-,-"));
    }

    void refusesWhatCannotBeSearched_data()
    {
        QTest::addColumn<QString>("space");
        QTest::addColumn<QString>("error");
        QTest::newRow("not json") << "{" << "S: not JSON: [json.exception.parse_error.101] parse error at line 1, "
                                            "column 2: syntax error while parsing object key - unexpected end of "
                                            "input; expected string literal";
        QTest::newRow("unknown key") << R"({"parameter": []})"
                                     << "S: /parameter: unknown key (a space has format, parameters and bases)";
        QTest::newRow("newer format") << R"({"format": 2, "parameters": ["e.model=local/tiny-1b"]})"
                                      << "S: /format: 2 is newer than this Conclave reads (1)";
        QTest::newRow("nothing") << R"({"parameters": []})"
                                 << "S: /parameters: nothing to search (no parameter, and no alternative base)";
        QTest::newRow("not a flag") << R"({"parameters": [3]})" << "S: /parameters/0: a --vary flag string, not 3";
        QTest::newRow("bad grammar") << R"({"parameters": ["e.model"]})"
                                     << "S: /parameters/0: --vary 'e.model': expected PATH=v1,v2,\u2026 or PATH=lo:hi:step";
        QTest::newRow("no such node")
            << R"({"parameters": ["x.model=local/tiny-1b"]})"
            << "S: /parameters/0: --vary 'x.model=local/tiny-1b': x.model names no node of solo (PATH is "
               "NODE_ID.FIELD, backends.NAME.FIELD or defaults.FIELD)";
        QTest::newRow("twice") << R"({"parameters": ["e.model=local/tiny-1b", "e.model=local/math-13b"]})"
                               << "S: /parameters/1: e.model is already a parameter";
        QTest::newRow("a value that does not validate")
            << R"({"parameters": ["e.model=local/no-such-model"]})"
            << "S: /parameters/0: --vary: variant \"solo [e.model=local/no-such-model]\": /nodes/1/model: unknown "
               "local model \"local/no-such-model\"; the local-moe backend has local/math-13b, local/tiny-1b";
        QTest::newRow("missing base") << R"({"parameters": [], "bases": ["nowhere.team.json"]})"
                                      << "S: /bases/0: ";
    }

    void refusesWhatCannotBeSearched()
    {
        QFETCH(QString, space);
        QFETCH(QString, error);
        std::string message;
        const std::set<std::string> catalog{"local/tiny-1b", "local/math-13b"};
        QVERIFY(!SearchSpace::fromJsonText(space.toStdString(), "S", m_dir.path().toStdString(), {base(kSolo)},
                                           message, catalog));
        if (error.endsWith(": "))
            QVERIFY2(q(message).startsWith(error), message.c_str());
        else
            QCOMPARE(q(message), error);
    }

    void alternativeBasesFromTheSpaceFile()
    {
        const fs::path dir = m_dir.path().toStdString();
        fs::create_directories(dir / "alt");
        std::ofstream(dir / "alt" / "pair.team.json") << kPair;
        std::ofstream(dir / "space.json") << R"({"parameters": ["defaults.timeout_ms=1000"], "bases": ["alt/pair.team.json"]})";
        std::string error;
        auto space = SearchSpace::load(dir / "space.json", {base(kSolo)}, error);
        QVERIFY2(space, error.c_str());
        QCOMPARE(space->bases().size(), size_t(2));
        QCOMPARE(q(space->bases()[1].team.name), QString("pair"));
        QVERIFY(fs::path(space->bases()[1].path).is_absolute());
        QCOMPARE(space->size(), 4.0);
        QCOMPARE(space->toJson().dump(), std::string(R"({"format":1,"parameters":["defaults.timeout_ms=1000"],"bases":["solo",")") +
                                             space->bases()[1].path + "\"]}");
    }

    void theCommandThatReproducesASearch()
    {
        QCOMPARE(q(SearchCommandLine::shellWord("triage.team.json")), QString("triage.team.json"));
        QCOMPARE(q(SearchCommandLine::shellWord("my team.json")), QString("'my team.json'"));
        QCOMPARE(q(SearchCommandLine::shellWord("it's")), QString("'it'\\''s'"));
        QCOMPARE(q(SearchCommandLine::shellWord("accuracy>=0.9")), QString("'accuracy>=0.9'"));
        QCOMPARE(q(SearchCommandLine::shellWord("")), QString("''"));
        DesignSearch::Options options;
        options.budgetTrials = 5000;
        options.constraints.push_back({Objective::Accuracy, true, 0.9, "accuracy>=0.9"});
        options.trialSeeds = {1, 2, 3};
        QCOMPARE(q(SearchCommandLine::of({{"a.team.json", "b c.team.json"}, "s.json", "math,facts", "out", {"ref.team.json"},
                                          "", true},
                                         options)),
                 QString("conclave search a.team.json 'b c.team.json' --space s.json --taskset math,facts "
                         "--budget-trials 5000 --objectives accuracy,cost,p95_wall --constraint 'accuracy>=0.9' "
                         "--split 0.5/0.25/0.25 --seed 1 --seeds 3 --reference ref.team.json -o out --force"));
    }

    void objectivesAndConstraints()
    {
        std::string error;
        auto objectives = SearchObjectives::parse("accuracy,cost,p95_wall", error);
        QVERIFY(objectives && objectives->size() == 3 && (*objectives)[2] == Objective::P95Wall);
        QVERIFY(!SearchObjectives::parse("accuracy,speed", error));
        QCOMPARE(q(error), QString("unknown objective \"speed\" (known: accuracy, cost, p50_wall, p95_wall, calls, "
                                   "tokens)"));
        QVERIFY(!SearchObjectives::parse("accuracy,cost,accuracy", error));
        QCOMPARE(q(error), QString("objective \"accuracy\" is named twice"));
        QVERIFY(!SearchObjectives::parse("accuracy", error));
        QCOMPARE(q(error), QString("a search needs at least two objectives (one alone has no front)"));
        auto constraint = SearchObjectives::parseConstraint("accuracy>=0.9", error);
        QVERIFY(constraint && constraint->atLeast && constraint->bound == 0.9);
        QVERIFY(constraint->met(0.9) && !constraint->met(0.89));
        constraint = SearchObjectives::parseConstraint("cost<=0.002", error);
        QVERIFY(constraint && !constraint->atLeast && constraint->objective == Objective::Cost);
        QVERIFY(!SearchObjectives::parseConstraint("accuracy>0.9", error));
        QCOMPARE(q(error), QString("'accuracy>0.9': a constraint is NAME>=NUMBER or NAME<=NUMBER"));
        QVERIFY(!SearchObjectives::parseConstraint("cost<=cheap", error));
        QCOMPARE(q(error), QString("'cost<=cheap': \"cheap\" is not a number"));
        QVERIFY(!SearchObjectives::parseConstraint("speed>=1", error));
        QCOMPARE(q(error), QString("'speed>=1': unknown objective \"speed\" (known: accuracy, cost, p50_wall, "
                                   "p95_wall, calls, tokens)"));
    }
};

QTEST_GUILESS_MAIN(TestSearchSpace)
#include "tst_searchspace.moc"
