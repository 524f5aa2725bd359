// An experiment's identity: the same id however its files' paths are typed
// and wherever it runs from, a new id when a byte it reads changes, seeds
// listed once, a stored baseline checked, and experiments stored by an older
// Conclave (whose ids hashed the paths) still readable and resumable.
#include <QtTest>

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/ExperimentSpec.h"

#include <QDir>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

using namespace conclave;
namespace fs = std::filesystem;

namespace {

std::string example(const std::string& name)
{
    return std::string(CONCLAVE_RESOURCES) + "/examples/" + name + ".team.json";
}

// A team file reading a models_file beside it, and a task file: what a user's folder holds.
void writeFolder(const fs::path& dir)
{
    fs::create_directories(dir);
    std::ofstream(dir / "models.json") << R"({"models": {"tiny": {"skills": {"math": 0.7}}}})";
    std::ofstream(dir / "a.team.json") << R"({
  "conclave": 1, "name": "a",
  "backends": {"local": {"kind": "local-moe", "models_file": "models.json"}},
  "defaults": {"backend": "local", "model": "tiny"},
  "nodes": [{"id": "in", "kind": "input"}, {"id": "e", "kind": "expert"}, {"id": "out", "kind": "output"}],
  "edges": [{"from": "in", "to": "e"}, {"from": "e", "to": "out"}]
})";
    std::ofstream(dir / "t.jsonl") << R"({"id": "m1", "prompt": "What is 2 + 3?", "answer": "5", "domain": "math"})"
                                   << "\n"
                                   << R"({"id": "m2", "prompt": "What is 4 * 4?", "answer": "16", "domain": "math"})"
                                   << "\n";
}

std::string idOf(const std::string& team, const std::string& tasks)
{
    EvalRequest request;
    request.designFiles = {team};
    request.taskset = tasks;
    request.seeds = {1, 2};
    const auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
    if (!setup.spec) {
        qWarning("%s", setup.errors.empty() ? "no spec" : setup.errors.front().c_str());
        return {};
    }
    return setup.spec->id();
}

// Restores the working folder when a test ends, however it ends.
struct InFolder {
    QString before = QDir::currentPath();
    explicit InFolder(const fs::path& dir) { QDir::setCurrent(QString::fromStdString(dir.string())); }
    ~InFolder() { QDir::setCurrent(before); }
};

} // namespace

class TestExperimentIdentity : public QObject {
    Q_OBJECT

private slots:
    void theSameIdFromEverySpellingAndEveryFolder()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString() + "/work";
        writeFolder(dir);
        fs::create_directories(dir / "sub");
        std::vector<std::string> ids;
        {
            InFolder here(dir);
            ids.push_back(idOf("a.team.json", "t.jsonl"));
            ids.push_back(idOf("./a.team.json", "./t.jsonl"));
            ids.push_back(idOf((dir / "a.team.json").string(), (dir / "t.jsonl").string()));
            ids.push_back(idOf("sub/../a.team.json", "sub/../t.jsonl"));
        }
        {
            InFolder below(dir / "sub");
            ids.push_back(idOf("../a.team.json", "../t.jsonl"));
        }
        // The same files in another folder (another machine's shard): the same experiment.
        const fs::path copy = tmp.path().toStdString() + "/elsewhere";
        writeFolder(copy);
        ids.push_back(idOf((copy / "a.team.json").string(), (copy / "t.jsonl").string()));
        QVERIFY(!ids.front().empty());
        for (const auto& id : ids)
            QCOMPARE(QString::fromStdString(id), QString::fromStdString(ids.front()));

        // A byte of the models_file it reads makes another experiment; so does a task's.
        std::ofstream(copy / "models.json") << R"({"models": {"tiny": {"skills": {"math": 0.8}}}})";
        const auto changedModels = idOf((copy / "a.team.json").string(), (copy / "t.jsonl").string());
        QVERIFY(changedModels != ids.front());
        writeFolder(copy);
        std::ofstream(copy / "t.jsonl", std::ios::app)
            << R"({"id": "m3", "prompt": "What is 1 + 1?", "answer": "2", "domain": "math"})" << "\n";
        QVERIFY(idOf((copy / "a.team.json").string(), (copy / "t.jsonl").string()) != ids.front());
    }

    void theSpecKeepsThePathsAsTypedForDisplay()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        writeFolder(dir);
        InFolder here(dir);
        EvalRequest request;
        request.designFiles = {"./a.team.json"};
        request.taskset = "./t.jsonl";
        const auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY(setup.spec);
        const auto json = setup.spec->toJson();
        QCOMPARE(json["format"].get<int>(), 2);
        QCOMPARE(json["designs"][0]["file"].get<std::string>(), std::string("./a.team.json"));
        QCOMPARE(json["designs"][0]["path"].get<std::string>(), fs::weakly_canonical(dir / "a.team.json").string());
        QCOMPARE(json["taskset"]["name"].get<std::string>(), std::string("./t.jsonl"));
        QCOMPARE(json["taskset"]["bundled"].get<bool>(), false);
        QVERIFY(setup.spec->identityJson().dump().find(dir.string()) == std::string::npos);
        QVERIFY(setup.spec->identityJson().dump().find("./") == std::string::npos);
    }

    void aBundledSetIsKnownByItsName()
    {
        EvalRequest request;
        request.designFiles = {example("triage")};
        request.taskset = "math";
        request.taskIds = {"math-001", "math-002"};
        const auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY(setup.spec);
        QVERIFY(setup.spec->tasksetBundled);
        const auto identity = setup.spec->identityJson();
        QCOMPARE(identity["taskset"]["bundled"].get<std::string>(), std::string("math"));
        QCOMPARE(identity["taskset"]["tasks"].size(), size_t(2));
    }

    void aSeedListedTwiceIsRefused()
    {
        EvalRequest request;
        request.designFiles = {example("triage")};
        request.taskset = "math";
        request.seeds = {3, 1, 3};
        const auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY(!setup.spec);
        QCOMPARE(setup.errors, (std::vector<std::string>{"--seed-list: seed 3 is listed twice; each seed runs every "
                                                         "design on every task once"}));
    }

    void aStoredBaselineOutsideTheDesignsIsRefused()
    {
        EvalRequest request;
        request.designFiles = {example("triage")};
        request.taskset = "math";
        auto json = ExperimentSetup::build(request, CONCLAVE_RESOURCES).spec->toJson();
        json["baseline"] = 3;
        std::string error;
        QVERIFY(!StoredSpec::fromJson(json.dump(), error));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("the stored spec's baseline 3 is not one of its 1 designs"));
        json["baseline"] = -1;
        QVERIFY(!StoredSpec::fromJson(json.dump(), error));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("the stored spec's baseline -1 is not one of its 1 designs"));
    }

    void anExperimentOfAnOlderConclaveResumesUnderItsOwnId()
    {
        EvalRequest request;
        request.designFiles = {example("triage")};
        request.taskset = "math";
        auto json = ExperimentSetup::build(request, CONCLAVE_RESOURCES).spec->toJson();
        // The format-1 spec: no absolute paths, no "bundled"; its id hashed the whole spec.
        json["format"] = 1;
        json["designs"][0].erase("path");
        json["taskset"].erase("bundled");
        json["taskset"].erase("path");
        ExperimentRecord record;
        record.id = "e-0123456789ab";
        record.name = "old";
        record.specJson = json.dump();
        const auto resumed = ExperimentSetup::resume(record, CONCLAVE_RESOURCES);
        QVERIFY2(resumed.spec, resumed.errors.empty() ? "" : resumed.errors.front().c_str());
        QCOMPARE(QString::fromStdString(resumed.spec->id()), QStringLiteral("e-0123456789ab"));
        // A format-2 spec stored under another id is not this spec: refused.
        json["format"] = 2;
        record.specJson = json.dump();
        const auto refused = ExperimentSetup::resume(record, CONCLAVE_RESOURCES);
        QVERIFY(!refused.spec);
        QVERIFY2(refused.errors.front().starts_with("experiment e-0123456789ab: its spec reloads as e-"),
                 refused.errors.front().c_str());
    }

    void aResumeFindsItsFilesFromAnotherFolder()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString() + "/work";
        writeFolder(dir);
        fs::create_directories(tmp.path().toStdString() + "/other");
        ExperimentRecord record;
        {
            InFolder here(dir);
            EvalRequest request;
            request.designFiles = {"a.team.json"};
            request.taskset = "t.jsonl";
            const auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
            QVERIFY(setup.spec);
            record.id = setup.spec->id();
            record.specJson = setup.spec->toJson().dump();
        }
        InFolder elsewhere(tmp.path().toStdString() + "/other");
        const auto resumed = ExperimentSetup::resume(record, CONCLAVE_RESOURCES);
        QVERIFY2(resumed.spec, resumed.errors.empty() ? "" : resumed.errors.front().c_str());
        QCOMPARE(resumed.spec->id(), record.id);
        QCOMPARE(resumed.spec->designs[0].file, std::string("a.team.json"));
    }
};

QTEST_GUILESS_MAIN(TestExperimentIdentity)
#include "tst_experimentidentity.moc"
