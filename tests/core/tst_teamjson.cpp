#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace conclave;

namespace {

std::string readAll(const QString& path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

QStringList examplePaths()
{
    QDir dir(QStringLiteral(CONCLAVE_RESOURCES "/examples"));
    QStringList out;
    for (const auto& name : dir.entryList({"*.team.json"}, QDir::Files, QDir::Name))
        out << dir.filePath(name);
    return out;
}

const char* kMinimal = R"({
  "conclave": 1,
  "name": "Minimal",
  "backends": { "local": { "kind": "local-moe" } },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "e", "kind": "expert", "model": "local/tiny-1b" },
    { "id": "out", "kind": "output" }
  ],
  "edges": [ { "from": "in", "to": "e" }, { "from": "e", "to": "out" } ]
})";


} // namespace

class TestTeamJson : public QObject {
    Q_OBJECT

private slots:
    void examplesRoundTrip_data()
    {
        QTest::addColumn<QString>("path");
        const auto paths = examplePaths();
        QVERIFY(paths.size() >= 5);
        for (const auto& path : paths)
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }

    void examplesRoundTrip()
    {
        QFETCH(QString, path);
        const auto original = readAll(path);
        const auto first = teamFromJsonText(original);
        QVERIFY(first.team);
        QCOMPARE(first.problems.size(), size_t(0));

        const auto saved = teamToJsonText(*first.team);
        // The shipped examples are kept in canonical form.
        QCOMPARE(saved, original);

        const auto second = teamFromJsonText(saved);
        QVERIFY(second.team);
        QVERIFY(*second.team == *first.team);
        QCOMPARE(teamToJsonText(*second.team), saved);
    }

    void savesThroughFileAreByteIdentical()
    {
        QTemporaryDir dir;
        const auto team = teamFromJsonText(kMinimal).team;
        QVERIFY(team);
        const auto a = dir.filePath("a.team.json").toStdString();
        const auto b = dir.filePath("b.team.json").toStdString();
        QVERIFY(!saveTeamFile(*team, a));
        QVERIFY(!saveTeamFile(*team, b));
        QCOMPARE(readAll(QString::fromStdString(a)), readAll(QString::fromStdString(b)));
        const auto reloaded = loadTeamFile(a);
        QVERIFY(reloaded.team);
        QVERIFY(*reloaded.team == *team);
    }

    void canonicalLayout()
    {
        const auto team = teamFromJsonText(R"({"edges":[],"nodes":[{"pos":[10,20.5],"kind":"input","id":"in"}],
            "name":"L","conclave":1})")
                              .team;
        QVERIFY(team);
        QCOMPARE(teamToJsonText(*team), std::string(R"({
  "conclave": 1,
  "name": "L",
  "nodes": [
    {
      "id": "in",
      "kind": "input",
      "pos": [10, 20.5]
    }
  ],
  "edges": []
}
)"));
    }

    void unknownKeysAreKeptAndSortedLast()
    {
        const auto result = teamFromJsonText(R"({"conclave":1,"name":"U","zeta":{"b":1,"a":[1,2]},"alpha":true,
            "nodes":[{"id":"in","kind":"input","colour":"red","quorum":3}],
            "edges":[{"from":"in","to":"in","note":"x"}]})");
        QVERIFY(result.team);
        const auto& team = *result.team;
        QCOMPARE(team.extra.size(), size_t(2));
        // quorum means nothing on an input node, so it is kept as an unknown key.
        QCOMPARE(team.nodes[0].extra.dump(), std::string(R"({"colour":"red","quorum":3})"));
        QCOMPARE(team.edges[0].extra.dump(), std::string(R"({"note":"x"})"));
        const auto text = teamToJsonText(team);
        QVERIFY(text.find("\"edges\"") < text.find("\"alpha\""));
        QVERIFY(text.find("\"alpha\"") < text.find("\"zeta\""));
        const auto again = teamFromJsonText(text);
        QVERIFY(again.team);
        QVERIFY(*again.team == team);
    }

    void everyFieldRoundTrips()
    {
        const auto result = loadTeamFile(CONCLAVE_TEST_DATA "/teams/everything.team.json");
        QVERIFY2(result.team, result.problems.empty() ? "" : result.problems.front().message.c_str());
        const auto& team = *result.team;
        for (const auto& node : team.nodes)
            QVERIFY2(node.extra.empty(), node.id.str().c_str());
        for (const auto& [name, backend] : team.backends)
            QVERIFY2(backend.extra.empty(), name.str().c_str());
        const auto& expert = team.nodes[2].config;
        QCOMPARE(expert.call.backend->str(), std::string("remote"));
        QCOMPARE(*expert.call.retries, int64_t(3));
        QCOMPARE(*expert.call.params->topP, 0.9);
        QCOMPARE(*expert.weight, 2.5);
        QCOMPARE(team.nodes[1].config.routes->at("a").size(), size_t(2));
        QVERIFY(*team.nodes[3].config.mode == CoordinatorMode::Debate);
        QVERIFY(*team.nodes[4].config.aggregatorStrategy == AggregatorStrategy::Synthesize);
        QVERIFY(team.edges[2].role == EdgeRole::Member);
        QCOMPARE(team.backends.at(BackendName("remote")).headers->at("X-Team"), std::string("t"));
        QCOMPARE(team.backends.at(BackendName("local")).models->at("my/model").failureRate.value(), 0.5);

        const auto again = teamFromJsonText(teamToJsonText(team));
        QVERIFY(again.team);
        QVERIFY(*again.team == team);
    }

    // A team is written at the lowest format version that holds it: 1 unless it uses a version-2 field, 3 when
    // it uses a version-3 one, so a Conclave that knows only an older version refuses what it would otherwise
    // run differently. One row per field, whatever version the file said it was.
    void formatVersionFollowsTheFields_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("version");
        QTest::newRow("none") << R"({"id":"j","kind":"aggregator","strategy":"synthesize","quorum":2})" << 1;
        QTest::newRow("skip_when_agree")
            << R"({"id":"j","kind":"aggregator","strategy":"synthesize","skip_when_agree":true})" << 2;
        QTest::newRow("skip_when_agree false")
            << R"({"id":"j","kind":"aggregator","strategy":"synthesize","skip_when_agree":false})" << 2;
        QTest::newRow("agree_fraction")
            << R"({"id":"j","kind":"aggregator","strategy":"synthesize","agree_fraction":0.6})" << 2;
        QTest::newRow("cascade") << R"({"id":"c","kind":"coordinator","mode":"cascade"})" << 1;
        QTest::newRow("adaptive") << R"({"id":"c","kind":"coordinator","mode":"adaptive"})" << 2;
        QTest::newRow("initial") << R"({"id":"c","kind":"coordinator","mode":"debate","initial":3})" << 2;
        QTest::newRow("decompose") << R"({"id":"c","kind":"coordinator","mode":"decompose"})" << 1;
        QTest::newRow("max_subtasks") << R"({"id":"c","kind":"coordinator","mode":"decompose","max_subtasks":3})" << 3;
        // Read as written, even where the validator warns that the mode ignores it.
        QTest::newRow("max_subtasks in a debate")
            << R"({"id":"c","kind":"coordinator","mode":"debate","max_subtasks":1})" << 3;
        QTest::newRow("max_subtasks with a version-2 field")
            << R"({"id":"c","kind":"coordinator","mode":"adaptive","initial":2,"max_subtasks":5})" << 3;
    }

    void formatVersionFollowsTheFields()
    {
        QFETCH(QString, node);
        QFETCH(int, version);
        for (const int written : {1, 2, 3}) {
            const auto text = QStringLiteral(R"({"conclave":%1,"name":"v","nodes":[%2],"edges":[]})")
                                  .arg(written)
                                  .arg(node)
                                  .toStdString();
            const auto loaded = teamFromJsonText(text);
            QVERIFY2(loaded.team, loaded.problems.empty() ? "" : loaded.problems.front().message.c_str());
            QCOMPARE(formatVersionNeeded(*loaded.team), int64_t(version));
            const auto saved = nlohmann::json::parse(teamToJsonText(*loaded.team));
            QCOMPARE(saved.at("conclave").get<int>(), version);
        }
    }

    // A meeting among a meeting's members needs version 2 as well.
    void aNestedMeetingNeedsVersion2()
    {
        Team team;
        Node outer{NodeId("outer"), NodeKind::Coordinator, {}, {}, {}};
        outer.config.mode = CoordinatorMode::Cascade;
        Node inner{NodeId("inner"), NodeKind::Coordinator, {}, {}, {}};
        inner.config.mode = CoordinatorMode::Debate;
        Node expert{NodeId("e"), NodeKind::Expert, {}, {}, {}};
        team.nodes = {outer, inner, expert};
        team.edges = {{NodeId("outer"), NodeId("e"), {}, EdgeRole::Member, {}}};
        QCOMPARE(formatVersionNeeded(team), int64_t(1));
        team.edges.push_back({NodeId("outer"), NodeId("inner"), {}, EdgeRole::Member, {}});
        QCOMPARE(formatVersionNeeded(team), int64_t(2));
    }

    // max_subtasks is read, kept and written back in its canonical place (after initial, before the model call).
    void maxSubtasksRoundTrips()
    {
        const auto loaded = teamFromJsonText(
            R"({"conclave":3,"name":"m","nodes":[{"model":"local/tiny-1b","max_subtasks":4,"mode":"decompose",
                "kind":"coordinator","id":"plan"}],"edges":[]})");
        QVERIFY2(loaded.team, loaded.problems.empty() ? "" : loaded.problems.front().message.c_str());
        QCOMPARE(loaded.team->nodes[0].config.maxSubtasks, std::optional<int64_t>(4));
        QVERIFY(loaded.team->nodes[0].extra.empty());
        const auto text = teamToJsonText(*loaded.team);
        QCOMPARE(text, std::string(R"({
  "conclave": 3,
  "name": "m",
  "nodes": [
    {
      "id": "plan",
      "kind": "coordinator",
      "mode": "decompose",
      "max_subtasks": 4,
      "model": "local/tiny-1b"
    }
  ],
  "edges": []
}
)"));
        const auto again = teamFromJsonText(text);
        QVERIFY(again.team);
        QVERIFY(*again.team == *loaded.team);
        // Unset again: the key goes, and so does version 3.
        Team without = *loaded.team;
        without.nodes[0].config.maxSubtasks.reset();
        QCOMPARE(nlohmann::json::parse(teamToJsonText(without)).at("conclave").get<int>(), 1);
        QVERIFY(teamToJsonText(without).find("max_subtasks") == std::string::npos);
    }

    void syntaxErrorsHaveLineAndColumn()
    {
        const auto result = teamFromJsonText("{\n  \"conclave\": 1,\n  \"name\": \"x\"\n  \"nodes\": []\n}\n");
        QVERIFY(!result.team);
        QCOMPARE(result.problems.size(), size_t(1));
        QCOMPARE(formatProblem(result.problems[0], "t.json"),
                 std::string("t.json:4:3: syntax error while parsing object - unexpected string literal; "
                             "expected '}'"));
    }

    void typeErrorsHavePointers_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("timeout string")
            << R"({"conclave":1,"name":"x","nodes":[{"id":"in","kind":"input"},{"id":"a","kind":"input"},
                 {"id":"b","kind":"input"},{"id":"e","kind":"expert","timeout_ms":"abc"}]})"
            << R"(/nodes/3/timeout_ms: expected a positive integer, got "abc")";
        QTest::newRow("newer version") << R"({"conclave":99,"name":"x","nodes":[]})"
                                       << "/conclave: format version 99 is newer than this Conclave understands "
                                          "(3); upgrade Conclave to open this team";
        QTest::newRow("version 4") << R"({"conclave":4,"name":"x","nodes":[]})"
                                   << "/conclave: format version 4 is newer than this Conclave understands "
                                      "(3); upgrade Conclave to open this team";
        QTest::newRow("no version") << R"({"name":"x","nodes":[]})"
                                    << R"(/conclave: missing format version; a team file starts with "conclave": 1)";
        QTest::newRow("kind") << R"({"conclave":1,"name":"x","nodes":[{"id":"q","kind":"wizard"}]})"
                              << "/nodes/0/kind: expected input, router, expert, coordinator, aggregator or "
                                 "output, got \"wizard\"";
        QTest::newRow("role") << R"({"conclave":1,"name":"x","nodes":[],"edges":[{"from":"a","to":"b","role":"boss"}]})"
                              << R"(/edges/0/role: expected "member", got "boss")";
        QTest::newRow("route keyword") << R"({"conclave":1,"name":"x","nodes":[{"id":"r","kind":"router",
                                           "routes":{"a/b":[1]}}]})"
                                       << "/nodes/0/routes/a~1b/0: expected a keyword string, got 1";
        QTest::newRow("retries float") << R"({"conclave":1,"name":"x","nodes":[{"id":"e","kind":"expert",
                                           "retries":1.5}]})"
                                       << "/nodes/0/retries: expected an integer from 0 to 10, got 1.5";
        QTest::newRow("not an object") << "[1, 2]" << "expected a team object, got an array";
        QTest::newRow("max_subtasks float") << R"({"conclave":3,"name":"x","nodes":[{"id":"c","kind":"coordinator",
                                                "mode":"decompose","max_subtasks":2.5}]})"
                                            << "/nodes/0/max_subtasks: expected an integer of at least 1, got 2.5";
        QTest::newRow("max_subtasks string") << R"({"conclave":3,"name":"x","nodes":[{"id":"c","kind":"coordinator",
                                                 "mode":"decompose","max_subtasks":"3"}]})"
                                             << R"(/nodes/0/max_subtasks: expected an integer of at least 1, got "3")";
    }

    void typeErrorsHavePointers()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const auto result = teamFromJsonText(json.toStdString());
        QVERIFY(!result.team);
        QCOMPARE(result.problems.size(), size_t(1));
        const auto& p = result.problems[0];
        const auto line = p.pointer.empty() ? p.message : p.pointer + ": " + p.message;
        QCOMPARE(QString::fromStdString(line), expected);
    }

    void integralFloatsAreIntegers()
    {
        const auto result = teamFromJsonText(
            R"({"conclave":1.0,"name":"x","nodes":[{"id":"e","kind":"expert","timeout_ms":1000.0}]})");
        // conclave must be a plain integer; timeout_ms may be written 1000.0.
        QVERIFY(!result.team);
        const auto ok = teamFromJsonText(R"({"conclave":1,"name":"x","nodes":[{"id":"e","kind":"expert",
            "timeout_ms":1000.0}]})");
        QVERIFY(ok.team);
        QCOMPARE(*ok.team->nodes[0].config.call.timeoutMs, int64_t(1000));
    }
};

QTEST_GUILESS_MAIN(TestTeamJson)
#include "tst_teamjson.moc"
