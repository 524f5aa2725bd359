// SweepDesigns through ExperimentSetup: an experiment of a sweep's variants —
// their names and parameters, stored with the spec and read back, a baseline
// file left as it is, the report's columns — and its resume, which
// regenerates the variants and refuses when any changed; the 1,000-variant
// confirmation.
#include <QtTest>

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/experiment/SweepColumns.h"

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

using namespace conclave;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* kTeam = R"({
  "conclave": 1, "name": "solo",
  "backends": {"local": {"kind": "local-moe"}},
  "defaults": {"backend": "local", "model": "local/tiny-1b"},
  "nodes": [{"id": "in", "kind": "input"}, {"id": "e.1", "kind": "expert"}, {"id": "out", "kind": "output"}],
  "edges": [{"from": "in", "to": "e.1"}, {"from": "e.1", "to": "out"}]
})";

void writeFolder(const fs::path& dir)
{
    fs::create_directories(dir);
    std::ofstream(dir / "solo.team.json") << kTeam;
    std::ofstream(dir / "base.team.json") << std::string(kTeam).replace(std::string(kTeam).find("solo"), 4, "base");
    std::ofstream(dir / "t.jsonl") << R"({"id": "m1", "prompt": "What is 2 + 3?", "answer": "5", "domain": "math"})"
                                   << "\n";
}

EvalRequest request(const fs::path& dir, std::vector<std::string> vary)
{
    EvalRequest r;
    r.designFiles = {(dir / "solo.team.json").string()};
    r.taskset = (dir / "t.jsonl").string();
    r.vary = std::move(vary);
    return r;
}

ExperimentRecord recordOf(const ExperimentSpec& spec)
{
    ExperimentRecord record;
    record.id = spec.id();
    record.name = spec.name;
    record.specJson = spec.toJson().dump();
    return record;
}

QString firstError(const SetupResult& setup)
{
    return setup.errors.empty() ? QString() : QString::fromStdString(setup.errors.front());
}

} // namespace

class TestSweepDesigns : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path m_dir;

private slots:
    void init()
    {
        m_dir = fs::path(m_tmp.path().toStdString()) / QTest::currentTestFunction();
        writeFolder(m_dir);
    }

    void variantsAreDesignsWithTheirParameters()
    {
        const auto setup = ExperimentSetup::build(
            request(m_dir, {"e.1.params.temperature=0.1:0.2:0.1", "defaults.model=local/tiny-1b,local/math-13b"}),
            CONCLAVE_RESOURCES);
        QVERIFY2(setup.spec, qPrintable(firstError(setup)));
        const auto& spec = *setup.spec;
        QCOMPARE(spec.designNames(),
                 (std::vector<std::string>{"solo [e.1.params.temperature=0.1, defaults.model=local/tiny-1b]",
                                           "solo [e.1.params.temperature=0.1, defaults.model=local/math-13b]",
                                           "solo [e.1.params.temperature=0.2, defaults.model=local/tiny-1b]",
                                           "solo [e.1.params.temperature=0.2, defaults.model=local/math-13b]"}));
        QCOMPARE(spec.name, std::string("solo swept over e.1.params.temperature, defaults.model on ") +
                                (m_dir / "t.jsonl").string());
        QCOMPARE(spec.baseline, 0);
        QCOMPARE(spec.designs[1].team.nodes[1].config.call.params->temperature, std::optional<double>(0.1));
        QCOMPARE(spec.designs[1].parameter("defaults.model")->value, json("local/math-13b"));
        QVERIFY(!spec.designs[1].parameter("e.1.model"));
        QCOMPARE(spec.designs[3].file, (m_dir / "solo.team.json").string());

        // Stored with the spec and read back, in flag order, typed.
        std::string error;
        const auto stored = StoredSpec::fromJson(spec.toJson().dump(), error);
        QVERIFY2(stored, error.c_str());
        QCOMPARE(stored->vary, (std::vector<std::string>{"e.1.params.temperature=0.1:0.2:0.1",
                                                         "defaults.model=local/tiny-1b,local/math-13b"}));
        QCOMPARE(stored->designs[2].sweep,
                 (std::vector<SweepParameter>{{"e.1.params.temperature", json(0.2), "0.2"},
                                              {"defaults.model", json("local/tiny-1b"), "local/tiny-1b"}}));
        const auto columns = SweepColumns::of(stored->designs);
        QCOMPARE(columns.paths, (std::vector<std::string>{"e.1.params.temperature", "defaults.model"}));
        QCOMPARE(columns.row(3), (std::vector<std::string>{"0.2", "local/math-13b"}));
        QCOMPARE(SweepColumns::parameters(stored->designs[0]).dump(),
                 std::string(R"({"e.1.params.temperature":0.1,"defaults.model":"local/tiny-1b"})"));
    }

    void aPlainExperimentStoresNoSweep()
    {
        const auto setup = ExperimentSetup::build(request(m_dir, {}), CONCLAVE_RESOURCES);
        QVERIFY(setup.spec);
        const auto text = setup.spec->toJson().dump();
        QVERIFY(text.find("\"vary\"") == std::string::npos);
        QVERIFY(text.find("\"sweep\"") == std::string::npos);
        QVERIFY(SweepColumns::of(setup.spec->designs).empty());
        // A spec stored before sweeps existed reads back as no sweep.
        std::string error;
        const auto stored = StoredSpec::fromJson(text, error);
        QVERIFY2(stored, error.c_str());
        QVERIFY(stored->vary.empty());
        QVERIFY(stored->designs[0].sweep.empty());
        QVERIFY(SweepColumns::of(stored->designs).empty());
        QCOMPARE(SweepColumns::of(stored->designs).row(0), std::vector<std::string>());
    }

    void malformedStoredSweepsAreRefused_data()
    {
        QTest::addColumn<QString>("sweep");
        QTest::addColumn<QString>("error");
        QTest::newRow("not an array") << "3"
                                      << "design 1: expected its swept fields as an array";
        QTest::newRow("no path") << R"([{"value": 1}])"
                                 << "design 1: expected each swept field with a path and a value";
        QTest::newRow("no value") << R"([{"path": "e.1.retries"}])"
                                  << "design 1: expected each swept field with a path and a value";
    }
    void malformedStoredSweepsAreRefused()
    {
        QFETCH(QString, sweep);
        QFETCH(QString, error);
        const auto setup = ExperimentSetup::build(request(m_dir, {}), CONCLAVE_RESOURCES);
        QVERIFY(setup.spec);
        auto j = setup.spec->toJson();
        j["designs"][0]["sweep"] = nlohmann::ordered_json::parse(sweep.toStdString());
        std::string got;
        QVERIFY(!StoredSpec::fromJson(j.dump(), got));
        QCOMPARE(QString::fromStdString(got), error);
    }

    void aBaselineFileStaysAsItIs()
    {
        auto r = request(m_dir, {"e.1.params.temperature=0.3,0.7"});
        r.baselineFile = (m_dir / "base.team.json").string();
        const auto setup = ExperimentSetup::build(r, CONCLAVE_RESOURCES);
        QVERIFY2(setup.spec, qPrintable(firstError(setup)));
        QCOMPARE(setup.spec->designNames(), (std::vector<std::string>{"base", "solo [e.1.params.temperature=0.3]",
                                                                      "solo [e.1.params.temperature=0.7]"}));
        QCOMPARE(setup.spec->baseline, 0);
        QCOMPARE(setup.spec->name,
                 std::string("base vs solo swept over e.1.params.temperature on ") + (m_dir / "t.jsonl").string());
        const auto columns = SweepColumns::of(setup.spec->designs);
        QCOMPARE(columns.row(0), std::vector<std::string>{"-"});
        QCOMPARE(columns.row(2), std::vector<std::string>{"0.7"});
    }

    void otherDesignsStayBesideTheSweep()
    {
        // The first design is swept; the rest (the single models a curve is drawn against) run as they are,
        // and a baseline named among them keeps pointing at it past the variants.
        auto r = request(m_dir, {"e.1.params.temperature=0.3,0.5,0.7"});
        r.designFiles.push_back((m_dir / "base.team.json").string());
        r.baselineFile = (m_dir / "base.team.json").string();
        const auto setup = ExperimentSetup::build(r, CONCLAVE_RESOURCES);
        QVERIFY2(setup.spec, qPrintable(firstError(setup)));
        QCOMPARE(setup.spec->designNames(),
                 (std::vector<std::string>{"solo [e.1.params.temperature=0.3]", "solo [e.1.params.temperature=0.5]",
                                           "solo [e.1.params.temperature=0.7]", "base"}));
        QCOMPARE(setup.spec->baseline, 3);
        QCOMPARE(setup.spec->name,
                 std::string("base vs solo swept over e.1.params.temperature on ") + (m_dir / "t.jsonl").string());
        QCOMPARE(SweepColumns::of(setup.spec->designs).row(3), std::vector<std::string>{"-"});
        const auto resumed = ExperimentSetup::resume(recordOf(*setup.spec), CONCLAVE_RESOURCES);
        QVERIFY2(resumed.spec, qPrintable(firstError(resumed)));
        QCOMPARE(resumed.spec->designNames(), setup.spec->designNames());
        QCOMPARE(resumed.spec->baseline, 3);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("vary");
        QTest::addColumn<bool>("yes");
        QTest::addColumn<bool>("twoDesigns");
        QTest::addColumn<QString>("error");
        QTest::newRow("1,001 variants need --yes")
            << QStringList{"e.1.params.temperature=0:1:0.1", "e.1.params.max_tokens=1:91:1"} << false << false
            << "--vary: 1,001 variants (11 x 91) are more than 1,000; give --yes to run them all";
        QTest::newRow("too many even with --yes")
            << QStringList{"e.1.params.max_tokens=1:1000:1", "e.1.retries=0:100:1"} << true << false
            << "--vary: more than 100,000 variants (1000 x 101) are too many for one experiment";
        QTest::newRow("a grammar error") << QStringList{"e.1.retries"} << false << false
                                         << "--vary 'e.1.retries': expected PATH=v1,v2,… or PATH=lo:hi:step";
        QTest::newRow("an unknown node")
            << QStringList{"e.retries=1"} << false << false
            << "--vary 'e.retries=1': e.retries names no node of DIR/solo.team.json (PATH is NODE_ID.FIELD, "
               "backends.NAME.FIELD or defaults.FIELD)";
    }
    void refusals()
    {
        QFETCH(QStringList, vary);
        QFETCH(bool, yes);
        QFETCH(bool, twoDesigns);
        QFETCH(QString, error);
        std::vector<std::string> flags;
        for (const auto& flag : vary)
            flags.push_back(flag.toStdString());
        auto r = request(m_dir, flags);
        r.manyVariants = yes;
        if (twoDesigns)
            r.designFiles.push_back((m_dir / "base.team.json").string());
        const auto setup = ExperimentSetup::build(r, CONCLAVE_RESOURCES);
        QVERIFY(!setup.spec);
        QCOMPARE(setup.errors.size(), size_t(1));
        QCOMPARE(firstError(setup), QString(error).replace("DIR", QString::fromStdString(m_dir.string())));
    }

    void aThousandVariantsRunWithout()
    {
        const auto setup = ExperimentSetup::build(
            request(m_dir, {"e.1.params.temperature=0:0.9:0.1", "e.1.params.max_tokens=1:100:1"}), CONCLAVE_RESOURCES);
        QVERIFY2(setup.spec, qPrintable(firstError(setup)));
        QCOMPARE(setup.spec->designs.size(), size_t(1000));
    }

    void resumeRegeneratesTheVariants()
    {
        const auto setup = ExperimentSetup::build(request(m_dir, {"e.1.retries=0,1", "backends.local.seed=1:2:1"}),
                                                  CONCLAVE_RESOURCES);
        QVERIFY2(setup.spec, qPrintable(firstError(setup)));
        const auto record = recordOf(*setup.spec);
        const auto resumed = ExperimentSetup::resume(record, CONCLAVE_RESOURCES);
        QVERIFY2(resumed.spec, qPrintable(firstError(resumed)));
        QCOMPARE(resumed.spec->id(), record.id);
        QCOMPARE(resumed.spec->designNames(), setup.spec->designNames());
        QCOMPARE(resumed.spec->designs[3].sweep, setup.spec->designs[3].sweep);
        QCOMPARE(resumed.spec->vary, setup.spec->vary);
        QCOMPARE(resumed.spec->designs[3].teamJson, setup.spec->designs[3].teamJson);

        // The swept file changed: a variant regenerates differently, and the resume is refused.
        std::ofstream(m_dir / "solo.team.json")
            << std::string(kTeam).replace(std::string(kTeam).find("local/tiny-1b"), 13, "local/math-13b");
        const auto refused = ExperimentSetup::resume(record, CONCLAVE_RESOURCES);
        QVERIFY(!refused.spec);
        QCOMPARE(refused.errors.size(), size_t(1));
        const auto& was = setup.spec->designs[0];
        auto changed = ExperimentSetup::build(request(m_dir, setup.spec->vary), CONCLAVE_RESOURCES);
        QVERIFY(changed.spec);
        QCOMPARE(firstError(refused),
                 QString::fromStdString("design \"" + was.name + "\": regenerated from " +
                                        (m_dir / "solo.team.json").string() +
                                        " with --vary 'e.1.retries=0,1' --vary 'backends.local.seed=1:2:1', it differs "
                                        "from the variant stored (content hash " +
                                        was.hash + ", now " + changed.spec->designs[0].hash +
                                        "); start a new experiment, or restore the file"));
    }

    void resumeRefusesAFileTheSweepNoLongerFits()
    {
        const auto setup = ExperimentSetup::build(request(m_dir, {"e.1.retries=0,1"}), CONCLAVE_RESOURCES);
        QVERIFY(setup.spec);
        auto team = std::string(kTeam);
        for (auto at = team.find("e.1"); at != std::string::npos; at = team.find("e.1"))
            team.replace(at, 3, "e2");
        std::ofstream(m_dir / "solo.team.json") << team;
        const auto refused = ExperimentSetup::resume(recordOf(*setup.spec), CONCLAVE_RESOURCES);
        QVERIFY(!refused.spec);
        QCOMPARE(firstError(refused), QString::fromStdString("--vary 'e.1.retries=0,1': e.1.retries names no node of " +
                                                             (m_dir / "solo.team.json").string() +
                                                             " (PATH is NODE_ID.FIELD, backends.NAME.FIELD or "
                                                             "defaults.FIELD)"));
    }
};

QTEST_GUILESS_MAIN(TestSweepDesigns)
#include "tst_sweepdesigns.moc"
