// inputsRead: a coordinator's scorer file is one of the inputs a team reads,
// found as a models_file is, its bytes part of an experiment design's identity;
// so is an openai backend's models_file (its skills steer the gate).
#include "conclave/experiment/TeamInputs.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace conclave;

namespace {

Team scoredTeam(const std::string& scorer)
{
    const auto loaded = teamFromJson(nlohmann::json::parse(R"({
      "conclave": 3, "name": "t",
      "backends": {"local": {"kind": "local-moe"}},
      "defaults": {"backend": "local"},
      "nodes": [{"id": "in", "kind": "input"},
                {"id": "c", "kind": "coordinator", "mode": "cascade", "scorer": ")" +
                                                           scorer + R"("},
                {"id": "m", "kind": "expert", "model": "local/tiny-1b"},
                {"id": "out", "kind": "output"}],
      "edges": [{"from": "in", "to": "c"}, {"from": "c", "to": "m", "role": "member"}, {"from": "c", "to": "out"}]
    })"));
    if (!loaded.team)
        qFatal("the team does not load");
    return *loaded.team;
}

// One expert on an openai backend whose block has `modelsFile`.
Team endpointTeam(const std::string& modelsFile)
{
    using nlohmann::json;
    const json backend{{"kind", "openai"}, {"base_url", "http://127.0.0.1:9/v1"}, {"models_file", modelsFile}};
    const auto loaded =
        teamFromJson(json{{"conclave", 3},
                          {"name", "t"},
                          {"backends", {{"api", backend}}},
                          {"nodes", json::array({{{"id", "in"}, {"kind", "input"}},
                                                 {{"id", "e"}, {"kind", "expert"}, {"model", "m"}},
                                                 {{"id", "out"}, {"kind", "output"}}})},
                          {"edges", json::array({{{"from", "in"}, {"to", "e"}}, {{"from", "e"}, {"to", "out"}}})}});
    if (!loaded.team)
        qFatal("the team does not load");
    return *loaded.team;
}

} // namespace

class TestTeamInputs : public QObject {
    Q_OBJECT

private slots:
    void aScorerIsAnInput()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto folder = dir.path().toStdString();
        QVERIFY(!writeFileAtomically(folder + "/s.json", "{\"format\": 1}"));
        const auto inputs = inputsRead(scoredTeam("s.json"), folder);
        QCOMPARE(inputs.size(), size_t(1));
        QCOMPARE(inputs[0].what, std::string("scorer c"));
        QCOMPARE(inputs[0].where, folder + "/s.json");
        QCOMPARE(inputs[0].bytes, std::string("{\"format\": 1}"));
        QCOMPARE(inputsHashText(inputs), std::string("\nscorer c 13:{\"format\": 1}"));
        // Another scorer file is another design.
        QVERIFY(!writeFileAtomically(folder + "/s.json", "{\"format\": 2}"));
        QVERIFY(inputsHashText(inputsRead(scoredTeam("s.json"), folder)) != inputsHashText(inputs));
        // A missing one is marked, not described.
        QCOMPARE(inputsRead(scoredTeam("missing.json"), folder)[0].bytes, std::string("(not readable)"));
    }

    void anOpenAiModelsFileIsAnInput()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto folder = dir.path().toStdString();
        const std::string skills = R"({"models": {"m": {"skills": {"math": 0.9}}}})";
        QVERIFY(!writeFileAtomically(folder + "/skills.json", skills));
        const auto inputs = inputsRead(endpointTeam("skills.json"), folder);
        QCOMPARE(inputs.size(), size_t(1));
        QCOMPARE(inputs[0].what, std::string("models_file api"));
        QCOMPARE(inputs[0].where, folder + "/skills.json");
        QCOMPARE(inputs[0].bytes, skills);
        QCOMPARE(inputsHashText(inputs), "\nmodels_file api 44:" + skills);
        // Another skill is another design.
        QVERIFY(!writeFileAtomically(folder + "/skills.json", R"({"models": {"m": {"skills": {"math": 0.2}}}})"));
        QVERIFY(inputsHashText(inputsRead(endpointTeam("skills.json"), folder)) != inputsHashText(inputs));
        QCOMPARE(inputsRead(endpointTeam("missing.json"), folder)[0].bytes, std::string("(not readable)"));
    }
};

QTEST_GUILESS_MAIN(TestTeamInputs)
#include "tst_teaminputs.moc"
