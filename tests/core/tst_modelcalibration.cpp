// ModelCalibration and CalibrationSamples: each formula on its own with exact
// values, then a whole fit of the hand-made store (support/CalibrationStore.h)
// with every fitted number, the thin-data warnings word for word, which calls
// count as answers, --model, and the errors of an unknown experiment or model.
#include <QTemporaryDir>
#include <QtTest>

#include "support/CalibrationStore.h"

#include "conclave/experiment/ModelCalibration.h"
#include "conclave/io/TeamJson.h"
#include "conclave/local/ItemBank.h"
#include "conclave/local/TaskSet.h"
#include "conclave/resources/LocalModelCatalog.h"

#include <cmath>

using namespace conclave;

namespace {

using Call = CalibrationSamples::Call;
using Answer = CalibrationSamples::Answer;

Call okCall(int64_t in, int64_t out, double cost)
{
    Call c;
    c.model = "m";
    c.ok = true;
    c.tokensIn = in;
    c.tokensOut = out;
    c.costUsd = cost;
    return c;
}

ModelsFile::Profiles catalog()
{
    const auto loaded = LocalModelCatalog::load(CONCLAVE_RESOURCES "/models/local-models.json");
    return loaded.catalog ? loaded.catalog->models() : ModelsFile::Profiles{};
}

QString profileText(const ModelProfile& p)
{
    return QString::fromStdString(profileToJson(p).dump());
}

// Every field of each call, one line per call.
QStringList callLines(const std::vector<Call>& calls)
{
    QStringList lines;
    for (const auto& c : calls)
        lines << QStringLiteral("%1 ok %2 timeout %3 %4 ms ttft %5 in %6 out %7 $%8 inflight %9 attempt %10 after %11")
                     .arg(QString::fromStdString(c.model))
                     .arg(c.ok)
                     .arg(c.timedOut)
                     .arg(c.durationMs)
                     .arg(c.ttftMs)
                     .arg(c.tokensIn)
                     .arg(c.tokensOut)
                     .arg(c.costUsd)
                     .arg(c.inflight)
                     .arg(c.attempt)
                     .arg(c.afterTimeout);
    return lines;
}

} // namespace

Q_DECLARE_METATYPE(std::vector<CalibrationSamples::Call>)

class TestModelCalibration : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;
    std::string m_experiment;

    std::optional<CalibrationSamples> readHandStore(std::string& error)
    {
        auto reader = m_store->reader(error);
        return reader ? CalibrationSamples::read(*reader, {m_experiment}, CONCLAVE_RESOURCES, error) : std::nullopt;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto opened = RunStore::open(m_dir.filePath("hand.sqlite").toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        m_store = std::move(opened.store);
        m_experiment = calibration_store::fill(*m_store, m_dir.path().toStdString());
        QVERIFY(!m_experiment.empty());
    }

    void distribution_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<bool>("higherIsSlower");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("p95");
        QTest::newRow("one value") << QList<double>{7} << true << 7.0 << 7.0;
        QTest::newRow("latency") << QList<double>{100, 20, 20, 20, 40, 60, 80, 20} << true << 30.0 << 93.0;
        // The slow tail of a speed is its 0.05 quantile.
        QTest::newRow("speed") << QList<double>{50, 100, 100, 150, 200, 200, 300, 400} << false << 175.0 << 67.5;
        QTest::newRow("two") << QList<double>{10, 20} << true << 15.0 << 19.5;
    }

    void distribution()
    {
        QFETCH(QList<double>, values);
        QFETCH(bool, higherIsSlower);
        QFETCH(double, median);
        QFETCH(double, p95);
        const auto d =
            ModelCalibration::distribution(std::vector<double>(values.begin(), values.end()), higherIsSlower);
        QCOMPARE(d.median, median);
        QCOMPARE(d.p95, p95);
    }

    void price_data()
    {
        QTest::addColumn<std::vector<Call>>("calls");
        QTest::addColumn<double>("input");
        QTest::addColumn<double>("output");
        const auto priced = [](int64_t in, int64_t out, double pin, double pout) {
            return okCall(in, out, (double(in) * pin + double(out) * pout) / 1e6);
        };
        QTest::newRow("exact") << std::vector<Call>{priced(100, 50, 2, 10), priced(300, 20, 2, 10),
                                                    priced(10, 400, 2, 10)}
                               << 2.0 << 10.0;
        QTest::newRow("free") << std::vector<Call>{okCall(100, 50, 0), okCall(3, 4, 0)} << 0.0 << 0.0;
        // Every call with one in:out ratio: one price for both.
        QTest::newRow("singular") << std::vector<Call>{okCall(100, 100, 0.0004), okCall(50, 50, 0.0002)} << 2.0 << 2.0;
        // The least-squares input price would be negative: 0, and output alone.
        QTest::newRow("negative input") << std::vector<Call>{okCall(100, 10, 0), okCall(10, 100, 0.001)} << 0.0
                                        << 9.90099;
    }

    void price()
    {
        QFETCH(std::vector<Call>, calls);
        QFETCH(double, input);
        QFETCH(double, output);
        const auto p = ModelCalibration::price(calls);
        QCOMPARE(p.input, input);
        QCOMPARE(p.output, output);
    }

    void addContext_data()
    {
        QTest::addColumn<QStringList>("texts");
        QTest::addColumn<QString>("error"); // empty: every text is taken
        QTest::addColumn<QString>("windows");
        QTest::newRow("one") << QStringList{"m=4096"} << ""
                             << "m=4096";
        QTest::newRow("several") << QStringList{"b=1", "a/x-7b=131072"} << ""
                                 << "a/x-7b=131072 b=1";
        QTest::newRow("the last = splits") << QStringList{"odd=name=32"} << ""
                                           << "odd=name=32";
        QTest::newRow("the same twice") << QStringList{"m=64", "m=64"} << ""
                                        << "m=64";
        QTest::newRow("no =") << QStringList{"m"}
                              << "expected MODEL=TOKENS (a model's name and its context window in tokens), got \"m\""
                              << "";
        QTest::newRow("no model") << QStringList{"=4096"}
                                  << "expected MODEL=TOKENS (a model's name and its context window in tokens), got "
                                     "\"=4096\""
                                  << "";
        QTest::newRow("no tokens") << QStringList{"m="}
                                   << "the context window of m must be a positive integer of tokens, got \"\""
                                   << "";
        QTest::newRow("a word") << QStringList{"m=big"}
                                << "the context window of m must be a positive integer of tokens, got \"big\""
                                << "";
        QTest::newRow("zero") << QStringList{"m=0"}
                              << "the context window of m must be a positive integer of tokens, got \"0\""
                              << "";
        QTest::newRow("negative") << QStringList{"m=-8"}
                                  << "the context window of m must be a positive integer of tokens, got \"-8\""
                                  << "";
        QTest::newRow("a fraction") << QStringList{"m=1.5"}
                                    << "the context window of m must be a positive integer of tokens, got \"1.5\""
                                    << "";
        QTest::newRow("a unit") << QStringList{"m=32k"}
                                << "the context window of m must be a positive integer of tokens, got \"32k\""
                                << "";
        QTest::newRow("too large") << QStringList{"m=99999999999999999999"}
                                   << "the context window of m must be a positive integer of tokens, got "
                                      "\"99999999999999999999\""
                                   << "";
        QTest::newRow("two windows") << QStringList{"m=64", "m=128"} << "m was already given a context window of 64"
                                     << "m=64";
    }

    // Every text is read in turn until one is refused.
    void addContext()
    {
        QFETCH(QStringList, texts);
        QFETCH(QString, error);
        QFETCH(QString, windows);
        ModelCalibration::Options options;
        std::string got;
        for (const auto& text : texts) {
            if (!ModelCalibration::addContext(text.toStdString(), options, got))
                break;
        }
        QCOMPARE(QString::fromStdString(got), error);
        QStringList read;
        for (const auto& [model, tokens] : options.contextTokens)
            read << QString::fromStdString(model + "=" + std::to_string(tokens));
        QCOMPARE(read.join(' '), windows);
    }

    // Every call attempt counts for timing; only lone experts' answers count as answers.
    void samplesOfTheHandStore()
    {
        std::string error;
        const auto samples = readHandStore(error);
        QVERIFY2(samples, error.c_str());
        QCOMPARE(samples->trials, int64_t(4));
        QCOMPARE(samples->experiments, std::vector<std::string>{m_experiment});
        QCOMPARE(samples->calls.size(), size_t(18));
        QStringList answers;
        for (const auto& a : samples->answers)
            answers << QString::fromStdString(a.model + " " + a.domain + " " + a.answer + (a.correct ? " +" : " -") +
                                              (a.hasChoices ? " choices" : ""));
        QCOMPARE(answers,
                 (QStringList{"hand/a facts paris + choices", "local/tiny-1b facts lyon - choices",
                              "hand/a facts lyon - choices", "local/tiny-1b facts nice - choices", "hand/a math 42 +",
                              "local/tiny-1b math 41 -", "hand/a math 42 +", "local/tiny-1b math 42 +"}));
    }

    void fitOfTheHandStore()
    {
        std::string error;
        const auto samples = readHandStore(error);
        QVERIFY2(samples, error.c_str());
        const auto fitted = ModelCalibration::fit(*samples, catalog(), {});
        QCOMPARE(QString::fromStdString(fitted.error), QString());
        QCOMPARE(fitted.models.size(), size_t(3));
        const QString from = QString(R"("calibrated_from":[{"experiment":"%1","answers":%2}]})").arg(m_experiment.c_str());
        const QString measured = R"("fitted":["skills","ttft_ms","tokens_per_s","output_tokens","price_per_mtok",)"
                                 R"("failure_rate","error_agreement"],)";
        QCOMPARE(profileText(fitted.models.at("hand/a")),
                 QStringLiteral(R"({"skills":{"facts":0.5,"math":1},"ttft_ms":{"median":30,"p95":93},)"
                                R"("tokens_per_s":{"median":175,"p95":67.5},"output_tokens":{"median":33,"p95":182.5},)"
                                R"("price_per_mtok":{"input":2,"output":10},"failure_rate":0,)"
                                R"("error_agreement":1,"skills_ci":{"facts":[0.236,0.7641],"math":[0.412,1]},)"
                                R"("trials":{"facts":2,"math":2},)") +
                     measured + from.arg(4));
        // Skills from the joint fit, each task's difficulty integrated out
        // (two models, too few shared answers to fit their weights: 0.7):
        // hand/a right on q1 once in two, so 0.5 on the typical task; right
        // on q2 every time, so 1. Its wrong answer pairs with tiny-1b's two
        // (lyon with lyon, lyon with nice): half agree, which q = 1 and 0.5
        // give (1·0.5 + 0·0.5/2). A model the catalog knows keeps its context window.
        QCOMPARE(fitted.difficulties.size(), size_t(2));
        QCOMPARE(profileText(fitted.models.at("local/tiny-1b")),
                 QStringLiteral(R"({"skills":{"facts":0,"math":0.5},"ttft_ms":{"median":250,"p95":300},)"
                                R"("tokens_per_s":{"median":100,"p95":100},"output_tokens":{"median":100,"p95":100},)"
                                R"("price_per_mtok":{"input":0,"output":0},"context_tokens":8192,)"
                                R"("failure_rate":0.3333,"error_agreement":0.5,)"
                                R"("skills_ci":{"facts":[0,0.588],"math":[0.2359,0.764]},)"
                                R"("trials":{"facts":2,"math":2},)") +
                     measured + from.arg(4));
        // A debate member's answers are not its own: no skills. Neither the
        // catalog nor --context knows its window: none (no limit).
        QCOMPARE(profileText(fitted.models.at("hand/c")),
                 QStringLiteral(R"({"ttft_ms":{"median":10,"p95":10},"tokens_per_s":{"median":100,"p95":100},)"
                                R"("output_tokens":{"median":10,"p95":10},"price_per_mtok":{"input":0,"output":0},)"
                                R"("failure_rate":0,"fitted":["ttft_ms","tokens_per_s","output_tokens",)"
                                R"("price_per_mtok","failure_rate"],)") +
                     from.arg(0));
        QCOMPARE(fitted.warnings,
                 (std::vector<std::string>{
                     "hand/a: only 8 successful calls (fewer than 30); its latency, speed and length are uncertain",
                     "hand/a: context window not measured; no limit set (give --context hand/a=TOKENS)",
                     "hand/a: only 2 scored answers in facts (fewer than 30); its skill there is uncertain",
                     "hand/a: only 2 scored answers in math (fewer than 30); its skill there is uncertain",
                     "hand/a: only 2 pairs of wrong answers with another model on tasks with choices (fewer than 30); "
                     "its error_agreement is uncertain",
                     "hand/c: only 4 successful calls (fewer than 30); its latency, speed and length are uncertain",
                     "hand/c: context window not measured; no limit set (give --context hand/c=TOKENS)",
                     "hand/c: no scored answers; its skills are not fitted",
                     "local/tiny-1b: only 4 successful calls (fewer than 30); its latency, speed and length are "
                     "uncertain",
                     "local/tiny-1b: only 2 scored answers in facts (fewer than 30); its skill there is uncertain",
                     "local/tiny-1b: only 2 scored answers in math (fewer than 30); its skill there is uncertain",
                     "local/tiny-1b: only 2 pairs of wrong answers with another model on tasks with choices (fewer "
                     "than 30); its error_agreement is uncertain"}));
    }

    // Served runs (RunOrigin serve) give their calls, read as a trial's are,
    // and nothing else: no answers, so no skills; a run of another source, or
    // served before `since`, is not read. With an experiment, the calls pool.
    void servedRunsGiveTheirCallsOnly()
    {
        auto opened = RunStore::open(m_dir.filePath("served.sqlite").toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        auto& store = *opened.store;
        const auto experiment = calibration_store::fill(store, m_dir.path().toStdString());
        QVERIFY(!experiment.empty());
        QVERIFY(calibration_store::storeServed(store));
        QVERIFY(!calibration_store::storeRun(store, RunOrigin{}, 0).str().empty()); // `conclave run`'s: not read
        std::string error;
        auto reader = store.reader(error);
        QVERIFY2(reader, error.c_str());
        const auto trials = CalibrationSamples::read(*reader, {experiment}, CONCLAVE_RESOURCES, error);
        QVERIFY2(trials, error.c_str());

        CalibrationSamples served;
        QVERIFY2(served.readServed(*reader, 0, error), error.c_str());
        QCOMPARE(served.servedRuns, int64_t(4));
        QCOMPARE(served.trials, int64_t(0));
        QCOMPARE(served.experiments, std::vector<std::string>{});
        QCOMPARE(served.answers.size(), size_t(0));
        QCOMPARE(served.syntheses.size(), size_t(0));
        QCOMPARE(served.meetingTurns.size(), size_t(0));
        QCOMPARE(callLines(served.calls), callLines(trials->calls));
        QCOMPARE(served.calls.size(), size_t(18));

        // The trials' figures of each model's calls; no skills, no source of answers.
        const auto fitted = ModelCalibration::fit(served, catalog(), {});
        QCOMPARE(QString::fromStdString(fitted.error), QString());
        QCOMPARE(profileText(fitted.models.at("hand/a")),
                 QStringLiteral(R"({"ttft_ms":{"median":30,"p95":93},"tokens_per_s":{"median":175,"p95":67.5},)"
                                R"("output_tokens":{"median":33,"p95":182.5},"price_per_mtok":{"input":2,"output":10},)"
                                R"("failure_rate":0,"fitted":["ttft_ms","tokens_per_s","output_tokens",)"
                                R"("price_per_mtok","failure_rate"]})"));
        QCOMPARE(profileText(fitted.models.at("local/tiny-1b")),
                 QStringLiteral(R"({"ttft_ms":{"median":250,"p95":300},"tokens_per_s":{"median":100,"p95":100},)"
                                R"("output_tokens":{"median":100,"p95":100},"price_per_mtok":{"input":0,"output":0},)"
                                R"("context_tokens":8192,"failure_rate":0.3333,"fitted":["ttft_ms","tokens_per_s",)"
                                R"("output_tokens","price_per_mtok","failure_rate"]})"));
        ModelCalibration::Options unknown;
        unknown.models = {"hand/z"};
        QCOMPARE(QString::fromStdString(ModelCalibration::fit(served, catalog(), unknown).error),
                 QStringLiteral("--model hand/z: no call of this model in the served runs (they called hand/a, "
                                "hand/c, local/tiny-1b)"));

        // Served runs that started before `since` are not read.
        CalibrationSamples later;
        QVERIFY2(later.readServed(*reader, int64_t(4102444800000), error), error.c_str()); // 2100-01-01
        QCOMPARE(later.servedRuns, int64_t(0));
        QCOMPARE(later.calls.size(), size_t(0));

        // Both: the experiment's answers and every call. hand/a's eight times
        // to first token, twice each, {20 ×8, 40, 40, 60, 60, 80, 80, 100, 100}:
        // median 30, and Q(0.95) at h = 15 · 0.95 = 14.25 falls between two
        // 100s. tiny-1b failed 2 of 6 attempts in each half: 4 of 12.
        auto both = *trials;
        QVERIFY2(both.readServed(*reader, 0, error), error.c_str());
        QCOMPARE(both.calls.size(), size_t(36));
        QCOMPARE(both.answers.size(), size_t(8));
        const auto pooled = ModelCalibration::fit(both, catalog(), {});
        const auto& a = pooled.models.at("hand/a");
        QCOMPARE(a.skills, ModelCalibration::fit(*trials, catalog(), {}).models.at("hand/a").skills);
        QCOMPARE(a.ttftMs->median, 30.0);
        QCOMPARE(a.ttftMs->p95, 100.0);
        QCOMPARE(*pooled.models.at("local/tiny-1b").failureRate, 0.3333);
        // Only the experiment answered: it alone is a source.
        QCOMPARE(a.calibratedFrom, (std::optional<std::vector<CalibrationSource>>{{{experiment, 4}}}));
    }

    void enoughDataWarnsOfNothing()
    {
        std::string error;
        const auto samples = readHandStore(error);
        QVERIFY(samples);
        ModelCalibration::Options options;
        options.minCount = 2;
        options.models = {"hand/a"};
        options.contextTokens = {{"hand/a", 128000}};
        const auto fitted = ModelCalibration::fit(*samples, catalog(), options);
        QCOMPARE(fitted.models.size(), size_t(1));
        QVERIFY(fitted.models.contains("hand/a"));
        QCOMPARE(fitted.warnings, std::vector<std::string>{});
    }

    void unknownModel()
    {
        std::string error;
        const auto samples = readHandStore(error);
        QVERIFY(samples);
        ModelCalibration::Options options;
        options.models = {"hand/a", "hand/z"};
        const auto fitted = ModelCalibration::fit(*samples, catalog(), options);
        QCOMPARE(QString::fromStdString(fitted.error),
                 QStringLiteral("--model hand/z: no call of this model in the experiments (they called hand/a, "
                                "hand/c, local/tiny-1b)"));
        QVERIFY(fitted.models.empty());
    }

    // --context over the catalog, and instead of the warning.
    void contextWindowsGiven()
    {
        std::string error;
        const auto samples = readHandStore(error);
        QVERIFY(samples);
        ModelCalibration::Options options;
        options.contextTokens = {{"hand/a", 128000}, {"local/tiny-1b", 2048}};
        const auto fitted = ModelCalibration::fit(*samples, catalog(), options);
        QCOMPARE(fitted.models.at("hand/a").contextTokens, std::optional<int64_t>(128000));
        QCOMPARE(fitted.models.at("local/tiny-1b").contextTokens, std::optional<int64_t>(2048));
        QCOMPARE(fitted.models.at("hand/c").contextTokens, std::optional<int64_t>());
        QStringList context;
        for (const auto& w : fitted.warnings)
            if (w.find("context") != std::string::npos)
                context << QString::fromStdString(w);
        QCOMPARE(context,
                 QStringList{"hand/c: context window not measured; no limit set (give --context hand/c=TOKENS)"});

        options.contextTokens = {{"hand/z", 4096}};
        const auto unknown = ModelCalibration::fit(*samples, catalog(), options);
        QCOMPARE(QString::fromStdString(unknown.error),
                 QStringLiteral("--context hand/z=4096: no call of this model in the experiments (they called "
                                "hand/a, hand/c, local/tiny-1b)"));
        QVERIFY(unknown.models.empty());
    }

    void unknownExperiment()
    {
        std::string error;
        auto reader = m_store->reader(error);
        QVERIFY(reader);
        QVERIFY(!CalibrationSamples::read(*reader, {m_experiment, "e-nope"}, CONCLAVE_RESOURCES, error));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("no experiment \"e-nope\""));
    }

    // An id two pooled sets both hold is written SET/ID; tasks keep their fields, with the fitted difficulty.
    void measuredTasksOfPooledSets()
    {
        CalibrationSamples samples;
        samples.tasks["math\nt1"] = {"math", Task{.id = "t1", .domain = "math", .prompt = "1 + 1?", .answer = "2"}};
        samples.tasks["/data/hard.jsonl\nt1"] = {"/data/hard.jsonl",
                                                 Task{.id = "t1", .domain = "math", .prompt = "2 + 2?", .answer = "4"}};
        samples.tasks["math\nt2"] = {"math", Task{.id = "t2", .domain = "math", .prompt = "3 + 3?", .answer = "6",
                                                  .difficulty = 2.0}};
        ModelCalibration::Result fitted;
        fitted.difficulties = {{"math\nt1", -0.123456}, {"/data/hard.jsonl\nt1", 1.5}, {"math\nt2", 0.25}};
        const auto tasks = ModelCalibration::measuredTasks(samples, fitted);
        QCOMPARE(tasks.size(), size_t(3));
        QCOMPARE(tasks[0].id, std::string("hard/t1"));
        QCOMPARE(*tasks[0].difficulty, 1.5);
        QCOMPARE(tasks[1].id, std::string("math/t1"));
        QCOMPARE(*tasks[1].difficulty, -0.1235);
        QCOMPARE(tasks[1].prompt, std::string("1 + 1?"));
        QCOMPARE(tasks[2].id, std::string("t2"));
        QCOMPARE(*tasks[2].difficulty, 0.25);
    }

    // Answers are scored against the tasks as they were run, or not at all.
    void changedTasksAreRefused()
    {
        const auto file = m_dir.filePath("hand-tasks.jsonl").toStdString();
        std::string changed = calibration_store::kTasks;
        changed.replace(changed.find("\"42\""), 4, "\"43\"");
        QVERIFY(!writeFileAtomically(file, changed));
        std::string error;
        const auto samples = readHandStore(error);
        QVERIFY(!writeFileAtomically(file, calibration_store::kTasks));
        QVERIFY(!samples);
        QVERIFY2(QString::fromStdString(error).startsWith(
                     QString::fromStdString("experiment " + m_experiment + ": the task set " + file +
                                            " changed since the experiment started (content hash of its tasks ")),
                 error.c_str());
        QVERIFY(readHandStore(error));
    }
};

QTEST_GUILESS_MAIN(TestModelCalibration)
#include "tst_modelcalibration.moc"
