// World files of the ground-truth world (GroundTruthWorld, WorldSpec): every
// bundled world loads with its own parameters, and each bad field is said
// where and what, in the house's "FILE: /pointer: message" form.
#include <QtTest>

#include "conclave/bench/GroundTruthWorld.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

using namespace conclave;
using json = nlohmann::json;

namespace {

const std::filesystem::path kResources = CONCLAVE_RESOURCES;

json goodWorld()
{
    return json::parse(R"({
        "format": 1, "name": "tiny", "seed": 3, "task_sets": ["facts"],
        "models": {"alpha": {"slope": 1.5, "abilities": {"facts": 1.0}, "ttft_ms": 200,
                             "output_tokens": 100, "tokens_per_s": 50}}
    })");
}

QString messages(const std::vector<Problem>& problems)
{
    QStringList out;
    for (const auto& p : problems)
        out << QString::fromStdString(formatProblem(p, "lab.json"));
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestGroundTruthWorldFile : public QObject {
    Q_OBJECT

private slots:
    void bundledWorldsLoad_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("models");
        QTest::addColumn<double>("readableShare");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("auroc");
        QTest::addColumn<int>("tasks");
        QTest::newRow("lab-a") << "lab-a" << 3 << 0.5 << 0.3 << 0.72 << 408;
        QTest::newRow("lab-b") << "lab-b" << 3 << 0.9 << 3.0 << 0.62 << 408;
        QTest::newRow("lab-c") << "lab-c" << 3 << 0.1 << 0.05 << 0.85 << 408;
        QTest::newRow("lab-d") << "lab-d" << 4 << 0.3 << 1.0 << 0.55 << 231;
        QTest::newRow("lab-e") << "lab-e" << 3 << 0.7 << 0.6 << 0.78 << 251;
    }
    void bundledWorldsLoad()
    {
        QFETCH(QString, file);
        QFETCH(int, models);
        QFETCH(double, readableShare);
        QFETCH(double, alpha);
        QFETCH(double, auroc);
        QFETCH(int, tasks);
        const auto path = kResources / "bench" / "worlds" / (file.toStdString() + ".json");
        const auto loaded = GroundTruthWorld::load(path, kResources);
        QVERIFY2(loaded.world, qPrintable(messages(loaded.problems)));
        QVERIFY(loaded.problems.empty());
        const auto& spec = loaded.world->spec();
        QCOMPARE(QString::fromStdString(spec.name), file);
        QCOMPARE(int(spec.models.size()), models);
        QCOMPARE(spec.readableShare, readableShare);
        QCOMPARE(spec.wrongAnswerAlpha, alpha);
        QCOMPARE(spec.confidenceAuroc, auroc);
        QCOMPARE(int(loaded.world->tasks().tasks().size()), tasks);
    }

    void defaultsFillWhatAFileLeavesOut()
    {
        const auto loaded = GroundTruthWorld::fromJsonText(goodWorld().dump(), kResources);
        QVERIFY2(loaded.world, qPrintable(messages(loaded.problems)));
        const auto& spec = loaded.world->spec();
        QCOMPARE(spec.readableShare, 0.5);
        QCOMPARE(spec.wrongAnswerAlpha, 1.0);
        QCOMPARE(spec.confidenceAuroc, 0.7);
        QCOMPARE(spec.synthesisSelfAnswer, 0.2);
        const auto& alpha = spec.models.at("alpha");
        QCOMPARE(alpha.latencyShape, 4.0);
        QCOMPARE(alpha.loadSlope, 0.0);
        QCOMPARE(alpha.ability("facts"), 1.0);
        QCOMPARE(alpha.ability("math"), 1.0); // an unlisted domain: the mean of the model's abilities
        QCOMPARE(loaded.world->costOf("alpha", 1000, 1000), 0.0);
        QCOMPARE(loaded.world->costOf("nobody", 1000, 1000), 0.0);
    }

    void badFieldsAreSaidExactly_data()
    {
        QTest::addColumn<QString>("pointer"); // where the edit goes ("" : replace the whole text)
        QTest::addColumn<QString>("value");   // JSON; "-" removes the key
        QTest::addColumn<QString>("expected");
        QTest::newRow("slope zero") << "/models/alpha/slope"
                                    << "0"
                                    << "lab.json: /models/alpha/slope: must be a positive number";
        QTest::newRow("slope a string") << "/models/alpha/slope"
                                        << "\"steep\""
                                        << "lab.json: /models/alpha/slope: must be a positive number";
        QTest::newRow("slope missing") << "/models/alpha/slope"
                                       << "-"
                                       << "lab.json: /models/alpha/slope: missing; must be a positive number";
        QTest::newRow("ability not a number") << "/models/alpha/abilities/facts"
                                              << "\"high\""
                                              << "lab.json: /models/alpha/abilities/facts: must be a number";
        QTest::newRow("no abilities") << "/models/alpha/abilities"
                                      << "{}"
                                      << "lab.json: /models/alpha/abilities: must be an object of numbers by "
                                         "domain, with at least one";
        QTest::newRow("latency shape 1") << "/models/alpha/latency_shape"
                                         << "1"
                                         << "lab.json: /models/alpha/latency_shape: must be a number above 1";
        QTest::newRow("negative load slope") << "/models/alpha/load_slope"
                                             << "-0.1"
                                             << "lab.json: /models/alpha/load_slope: must be a number ≥ 0";
        QTest::newRow("price without output") << "/models/alpha/price_per_mtok"
                                              << "{\"input\": 1}"
                                              << "lab.json: /models/alpha/price_per_mtok/output: missing; must be "
                                                 "a number ≥ 0";
        QTest::newRow("unknown model field") << "/models/alpha/skill"
                                             << "0.5"
                                             << "lab.json: /models/alpha/skill: unknown field";
        QTest::newRow("model not an object") << "/models/alpha"
                                             << "3"
                                             << "lab.json: /models/alpha: must be an object";
        QTest::newRow("no models") << "/models"
                                   << "{}"
                                   << "lab.json: /models: must name at least one model";
        QTest::newRow("readable share above 1") << "/readable_share"
                                                << "1.5"
                                                << "lab.json: /readable_share: must be a number from 0 to 1";
        QTest::newRow("alpha zero") << "/wrong_answer_alpha"
                                    << "0"
                                    << "lab.json: /wrong_answer_alpha: must be a positive number";
        QTest::newRow("auroc below a coin") << "/confidence"
                                            << "{\"auroc\": 0.4}"
                                            << "lab.json: /confidence/auroc: must be a number from 0.5 to below 1";
        QTest::newRow("auroc 1") << "/confidence"
                                 << "{\"auroc\": 1}"
                                 << "lab.json: /confidence/auroc: must be a number from 0.5 to below 1";
        QTest::newRow("ceiling under floor") << "/confidence"
                                             << "{\"floor\": 0.8, \"ceiling\": 0.6}"
                                             << "lab.json: /confidence/ceiling: must be above floor";
        QTest::newRow("self answer above 1") << "/synthesis"
                                             << "{\"self_answer\": 2}"
                                             << "lab.json: /synthesis/self_answer: must be a number from 0 to 1";
        QTest::newRow("synthesis not an object") << "/synthesis"
                                                 << "0.3"
                                                 << "lab.json: /synthesis: expected an object, got 0.3";
        QTest::newRow("newer format") << "/format"
                                      << "2"
                                      << "lab.json: /format: format 2 is newer than this program knows (1)";
        QTest::newRow("no format") << "/format"
                                   << "-"
                                   << "lab.json: /format: missing; expected a whole number";
        QTest::newRow("negative seed") << "/seed"
                                       << "-1"
                                       << "lab.json: /seed: must be a whole number ≥ 0";
        QTest::newRow("unknown task set") << "/task_sets"
                                          << "[\"facts\", \"nope\"]"
                                          << "lab.json: /task_sets/1: no bundled task set \"nope\"";
        QTest::newRow("unknown world field") << "/error_agreement"
                                             << "0.7"
                                             << "lab.json: /error_agreement: unknown field";
        QTest::newRow("empty name") << "/name"
                                    << "\"\""
                                    << "lab.json: /name: must not be empty";
        QTest::newRow("not an object") << ""
                                       << "[1]"
                                       << "lab.json: expected an object";
        QTest::newRow("syntax")
            << ""
            << "{\"format\": 1,,"
            << "lab.json:1:14: syntax error while parsing object key - unexpected ','; expected string literal";
    }
    void badFieldsAreSaidExactly()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        std::string text;
        if (pointer.isEmpty()) {
            text = value.toStdString();
        } else {
            auto doc = goodWorld();
            const json::json_pointer at(pointer.toStdString());
            if (value == QLatin1String("-"))
                doc[at.parent_pointer()].erase(at.back());
            else
                doc[at] = json::parse(value.toStdString());
            text = doc.dump();
        }
        const auto loaded = GroundTruthWorld::fromJsonText(text, kResources);
        QVERIFY(!loaded.world);
        QCOMPARE(messages(loaded.problems), expected);
    }

    void aMissingFileSaysSo()
    {
        const auto loaded = GroundTruthWorld::load("/nonexistent/world.json", kResources);
        QVERIFY(!loaded.world);
        QCOMPARE(loaded.problems.size(), size_t(1));
        QVERIFY(!loaded.problems[0].message.empty());
    }
};

QTEST_GUILESS_MAIN(TestGroundTruthWorldFile)
#include "tst_groundtruthworldfile.moc"
