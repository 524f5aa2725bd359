// SpaceProposal: the --vary flags a design search of a team starts from. The
// exact flags of bundled examples (models thinned from the catalog's
// skill-price front, the fields each kind and strategy reads, counts bounded
// by routes, inputs and members), a scorer's cascade kept to the scorer's
// models, and every proposal of every example a valid SearchSpace.
#include <QtTest>

#include "conclave/io/TeamFile.h"
#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/search/SearchSpace.h"
#include "conclave/search/SpaceProposal.h"

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

using namespace conclave;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

const fs::path kExamples = fs::path(CONCLAVE_RESOURCES) / "examples";

const std::map<std::string, ModelProfile>& catalog()
{
    static const auto loaded = LocalModelCatalog::load(fs::path(CONCLAVE_RESOURCES) / "models" / "local-models.json");
    static const std::map<std::string, ModelProfile> models =
        loaded.catalog ? loaded.catalog->models() : std::map<std::string, ModelProfile>{};
    return models;
}

Team example(const std::string& name)
{
    auto loaded = loadTeamFile(kExamples / (name + ".team.json"));
    if (!loaded.team)
        qFatal("example %s does not load", name.c_str());
    return std::move(*loaded.team);
}

QStringList qlist(const std::vector<std::string>& flags)
{
    QStringList out;
    for (const auto& f : flags)
        out << QString::fromStdString(f);
    return out;
}

} // namespace

class TestSpaceProposal : public QObject {
    Q_OBJECT

private slots:
    void catalogLoads() { QCOMPARE(catalog().size(), size_t(8)); }

    void exactFlags_data()
    {
        QTest::addColumn<std::string>("name");
        QTest::addColumn<QStringList>("flags");
        // The catalog's front over (price, mean skill): tiny, generalist, code-13b, reasoner, frontier; a
        // model off it joins and code-13b (0.01 over generalist) makes room.
        QTest::newRow("triage") << std::string("triage")
                                << QStringList{
                                       "intake.model=local/tiny-1b,local/generalist-7b,local/code-13b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                       "gate.top_k=1:4:1",
                                       "gate.min_weight=0:0.3:0.05",
                                       "math.model=local/tiny-1b,local/generalist-7b,local/math-13b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                       "code.model=local/tiny-1b,local/generalist-7b,local/code-13b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                       "facts.model=local/tiny-1b,local/generalist-7b,local/facts-7b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                       "writing.model=local/tiny-1b,local/generalist-7b,local/writer-7b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                       "best.min_confidence=0.5:0.95:0.05",
                                       "planner.max_subtasks=1:3:1",
                                       "planner.model=local/tiny-1b,local/generalist-7b,local/code-13b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                       "sub_math.model=local/tiny-1b,local/generalist-7b,local/math-13b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                       "sub_facts.model=local/tiny-1b,local/generalist-7b,local/facts-7b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                       "sub_general.model=local/tiny-1b,local/generalist-7b,local/code-13b,"
                                       "local/reasoner-34b,local/frontier-70b",
                                   };
        const QString front = "local/tiny-1b,local/generalist-7b,local/code-13b,local/reasoner-34b,local/frontier-70b";
        // A weighted vote: its quorum up to its 3 inputs, and the weights of the experts feeding it; a concat
        // and a round_robin's fields.
        QTest::newRow("review-board") << std::string("review-board")
                                      << QStringList{"p_reasoner.model=" + front,
                                                     "p_reasoner.weight=0.5:2:0.5",
                                                     "p_general.model=" + front,
                                                     "p_general.weight=0.5:2:0.5",
                                                     "p_tiny.model=" + front,
                                                     "p_tiny.weight=0.5:2:0.5",
                                                     "vote.quorum=1:3:1",
                                                     "vote.min_confidence=0.5:0.95:0.05",
                                                     "editors.max_rounds=1:4:1",
                                                     "editors.consensus=0.5:1:0.1",
                                                     "drafter.model=local/tiny-1b,local/generalist-7b,"
                                                     "local/writer-7b,local/reasoner-34b,local/frontier-70b",
                                                     "checker.model=" + front};
        // A synthesize that skips already: its agree_fraction too; a broadcast router has nothing to vary.
        QTest::newRow("mosaic") << std::string("mosaic")
                                << QStringList{"math.model=local/tiny-1b,local/generalist-7b,local/math-13b,"
                                               "local/reasoner-34b,local/frontier-70b",
                                               "facts.model=local/tiny-1b,local/generalist-7b,local/facts-7b,"
                                               "local/reasoner-34b,local/frontier-70b",
                                               "reasoner.model=" + front,
                                               "synth.min_confidence=0.5:0.95:0.05",
                                               "synth.skip_when_agree=true,false",
                                               "synth.agree_fraction=0.5:1:0.1",
                                               "synth.model=" + front};
        // Adaptive: rounds and first round bounded by its 5 members.
        QTest::newRow("adaptive-panel")
            << std::string("adaptive-panel")
            << QStringList{"panel.max_rounds=1:5:1",
                           "panel.consensus=0.5:1:0.1",
                           "panel.threshold=0.5:0.95:0.05",
                           "panel.initial=1:5:1",
                           "generalist.model=" + front,
                           "facts.model=local/tiny-1b,local/generalist-7b,local/facts-7b,local/reasoner-34b,"
                           "local/frontier-70b",
                           "math.model=local/tiny-1b,local/generalist-7b,local/math-13b,local/reasoner-34b,"
                           "local/frontier-70b",
                           "code.model=" + front,
                           "reasoner.model=" + front};
    }

    void exactFlags()
    {
        QFETCH(std::string, name);
        QFETCH(QStringList, flags);
        QCOMPARE(qlist(SpaceProposal::flags(example(name), kExamples, catalog())), flags);
    }

    // A scored cascade's members answer only with models its scorer knows; the learned router's experts
    // only with its router file's.
    void trainedFilesKeepTheirModels_data()
    {
        QTest::addColumn<std::string>("name");
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("scored-cascade") << std::string("scored-cascade")
                                        << QStringList{
                                               "cascade.threshold=0.5:0.95:0.05",
                                               "tiny.model=local/tiny-1b,local/generalist-7b,local/frontier-70b",
                                               "generalist.model=local/tiny-1b,local/generalist-7b,"
                                               "local/frontier-70b",
                                               "frontier.model=local/tiny-1b,local/generalist-7b,"
                                               "local/frontier-70b"};
        QTest::newRow("learned-router") << std::string("learned-router")
                                        << QStringList{"route.threshold=0.1:0.9:0.1",
                                                       "generalist.model=local/generalist-7b,local/frontier-70b",
                                                       "frontier.model=local/generalist-7b,local/frontier-70b"};
    }

    void trainedFilesKeepTheirModels()
    {
        QFETCH(std::string, name);
        QFETCH(QStringList, flags);
        QCOMPARE(qlist(SpaceProposal::flags(example(name), kExamples, catalog())), flags);
    }

    // Without its files' folder, a learned router's experts have no model to choose from.
    void unreadableFileProposesNoModel()
    {
        const auto flags = SpaceProposal::flags(example("learned-router"), fs::path("/nonexistent"), catalog());
        QCOMPARE(qlist(flags), QStringList{"route.threshold=0.1:0.9:0.1"});
    }

    // A backend's models_file (what conclave calibrate writes) adds its models to the catalog's: one cheaper and
    // more skilled than all leaves only itself beside each node's own.
    void aModelsFileJoinsTheCatalog()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path folder = dir.path().toStdString();
        {
            std::ofstream file(folder / "calibrated.json");
            file << R"({"models": {"lab/cheap-strong": {"skills": {"math": 0.95, "code": 0.95, "facts": 0.95,)"
                 << R"( "reasoning": 0.95, "writing": 0.95}, "price_per_mtok": {"input": 0.02, "output": 0.03}}}})";
        }
        Team team = example("cascade");
        team.backends.begin()->second.modelsFile = "calibrated.json";
        const QString cheap = "lab/cheap-strong,";
        QCOMPARE(qlist(SpaceProposal::flags(team, folder, catalog())),
                 (QStringList{"cascade.threshold=0.5:0.95:0.05", "tiny.model=" + cheap + "local/tiny-1b",
                              "mid.model=" + cheap + "local/reasoner-34b",
                              "frontier.model=" + cheap + "local/frontier-70b"}));
        std::string error;
        QVERIFY2(SearchSpace::fromFlags(SpaceProposal::flags(team, folder, catalog()),
                                        {SearchBase{"", (folder / "cascade.team.json").string(), team}}, error),
                 error.c_str());
    }

    void everyExampleBuildsItsSpace()
    {
        int examples = 0;
        for (const auto& entry : fs::directory_iterator(kExamples)) {
            const auto path = entry.path();
            if (!path.string().ends_with(".team.json"))
                continue;
            ++examples;
            auto loaded = loadTeamFile(path);
            QVERIFY2(loaded.team, path.c_str());
            const auto flags = SpaceProposal::flags(*loaded.team, kExamples, catalog());
            QVERIFY2(!flags.empty(), path.c_str());
            std::string error;
            const auto space = SearchSpace::fromFlags(
                flags, {SearchBase{path.string(), path.string(), std::move(*loaded.team)}}, error);
            QVERIFY2(space, (path.string() + ": " + error).c_str());
            QCOMPARE(space->parameters().size(), flags.size());
            for (const auto& p : space->parameters())
                QVERIFY2(p.axis.values.size() >= 2, p.axis.flag.c_str());
        }
        QCOMPARE(examples, 11);
    }
};

QTEST_GUILESS_MAIN(TestSpaceProposal)
#include "tst_spaceproposal.moc"
