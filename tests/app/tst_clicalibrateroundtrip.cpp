// `conclave calibrate` back to known profiles: the round trip (an
// experiment run by the simulator from known inline profiles, calibrated back
// to them, the file then used through models_file) and --runs-from-serve on
// the calls of served runs alone (the same team served 40 times, seeded).
#include <QtTest>

#include "support/CliProcess.h"
#include "support/Correlation.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "conclave/io/TeamJson.h"
#include "conclave/local/ItemBank.h"
#include "conclave/local/TaskSet.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"

#include <cmath>

namespace {

using conclave::ItemBank;
using conclave::TaskSet;

testsupport::CliResult cli(const QStringList& args)
{
    return testsupport::runConclave(args);
}

QString read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// What the round trip sets: three experts, each on its own inline model.
struct Truth {
    const char* model;
    double math;
    double facts;
    double ttftMedian;
    double speedMedian;
    double failureRate;
    double errorAgreement;
};
constexpr Truth kTruth[] = {
    {"rt/alpha", 0.80, 0.60, 200, 80, 0.05, 0.6},
    {"rt/beta", 0.55, 0.85, 500, 40, 0.10, 0.8},
    {"rt/gamma", 0.35, 0.45, 120, 150, 0.0, 0.4},
};

// The mean chance of a model of this skill over a bundled set's tasks (ItemBank's curve).
double onTheseTasks(const char* taskset, double skill)
{
    const auto loaded = TaskSet::load(*TaskSet::bundled(CONCLAVE_RESOURCES, taskset));
    double sum = 0;
    for (const auto& task : loaded.tasks->tasks())
        sum += ItemBank::pCorrect(skill, ItemBank::difficulty(task));
    return sum / double(loaded.tasks->tasks().size());
}

QByteArray roundTripTeam()
{
    return R"({
  "conclave": 1,
  "name": "Round trip",
  "backends": {
    "local": {
      "kind": "local-moe",
      "models": {
        "rt/alpha": {"skills": {"math": 0.8, "facts": 0.6, "code": 0.5, "writing": 0.5, "reasoning": 0.5},
                     "ttft_ms": {"median": 200, "p95": 400}, "tokens_per_s": {"median": 80, "p95": 50},
                     "output_tokens": {"median": 150, "p95": 300}, "price_per_mtok": {"input": 1, "output": 2},
                     "context_tokens": 8192, "failure_rate": 0.05, "error_agreement": 0.6},
        "rt/beta": {"skills": {"math": 0.55, "facts": 0.85, "code": 0.5, "writing": 0.5, "reasoning": 0.5},
                    "ttft_ms": {"median": 500, "p95": 900}, "tokens_per_s": {"median": 40, "p95": 25},
                    "output_tokens": {"median": 100, "p95": 250}, "price_per_mtok": {"input": 0.5, "output": 1.5},
                    "context_tokens": 8192, "failure_rate": 0.1, "error_agreement": 0.8},
        "rt/gamma": {"skills": {"math": 0.35, "facts": 0.45, "code": 0.5, "writing": 0.5, "reasoning": 0.5},
                     "ttft_ms": {"median": 120, "p95": 200}, "tokens_per_s": {"median": 150, "p95": 100},
                     "output_tokens": {"median": 80, "p95": 160}, "price_per_mtok": {"input": 0.1, "output": 0.2},
                     "context_tokens": 8192, "failure_rate": 0, "error_agreement": 0.4}
      }
    }
  },
  "defaults": {"backend": "local", "retries": 3},
  "nodes": [
    {"id": "in", "kind": "input"},
    {"id": "a", "kind": "expert", "model": "rt/alpha", "prompt": "{{input}}"},
    {"id": "b", "kind": "expert", "model": "rt/beta", "prompt": "{{input}}"},
    {"id": "g", "kind": "expert", "model": "rt/gamma", "prompt": "{{input}}"},
    {"id": "vote", "kind": "aggregator", "strategy": "majority"},
    {"id": "out", "kind": "output"}
  ],
  "edges": [
    {"from": "in", "to": "a"}, {"from": "in", "to": "b"}, {"from": "in", "to": "g"},
    {"from": "a", "to": "vote"}, {"from": "b", "to": "vote"}, {"from": "g", "to": "vote"},
    {"from": "vote", "to": "out"}
  ]
}
)";
}
} // namespace

class TestCliCalibrateRoundTrip : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.path() + "/" + name; }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The served runs alone: a team of three experts on known inline models,
    // served 40 times on the simulator (seeds 1 to 40, the virtual clock),
    // recorded as `conclave serve` records them. Their calls give each
    // model's latency, speed, length, failures and price; no skills.
    void servedRunsAlone()
    {
        const auto db = path("served.sqlite");
        {
            auto opened = conclave::RunStore::open(db.toStdString());
            QVERIFY2(opened.store, opened.error.c_str());
            std::vector<std::string> errors;
            conclave::Engine engine(conclave::EngineResources::load(CONCLAVE_RESOURCES, errors));
            QVERIFY(errors.empty());
            const auto team = conclave::teamFromJsonText(roundTripTeam().toStdString());
            QVERIFY(team.team);
            for (uint64_t seed = 1; seed <= 40; ++seed) {
                std::string error;
                auto recorder = opened.store->record(
                    *team.team, error, conclave::RunOrigin{conclave::RunSource::Serve, {}, "alice", false});
                QVERIFY2(recorder, error.c_str());
                conclave::Engine::StartOptions options;
                options.seed = seed;
                options.observers = {recorder.get()};
                options.clock = conclave::ClockRequest::Virtual;
                auto started = engine.start(*team.team, "Calculate " + std::to_string(seed) + " + 2.", options);
                QVERIFY2(started.run, started.error.c_str());
                started.run->wait();
                QCOMPARE(QString::fromStdString(recorder->waitUntilStored()), QString());
            }
        }
        const auto out = path("served-models.json");
        const auto r = cli({"calibrate", "--runs-from-serve", "2000-01-01", "--db", db, "-o", out, "--context",
                            "rt/alpha=8192", "--context", "rt/beta=8192", "--context", "rt/gamma=8192"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out,
                 "wrote " + out +
                     ": 3 models from 40 served runs since 2000-01-01\n"
                     "  rt/alpha: ttft 209.4 ms, 74.8 tokens/s, failure rate 0.0244, no skills, load slope 0\n"
                     "    not measured — built-in default used: skills, error_agreement, difficulty_weight, "
                     "confidence, synthesis, retry_repeat, conformity, repeat_agreement\n"
                     "  rt/beta: ttft 445.4 ms, 43.6 tokens/s, failure rate 0.1489, no skills, load slope 0.0622\n"
                     "    not measured — built-in default used: skills, error_agreement, difficulty_weight, "
                     "confidence, synthesis, retry_repeat, conformity, repeat_agreement\n"
                     "  rt/gamma: ttft 111.1 ms, 154.9 tokens/s, failure rate 0, no skills\n"
                     "    not measured — built-in default used: skills, error_agreement, difficulty_weight, "
                     "confidence, synthesis, load_slope, retry_repeat, conformity, repeat_agreement\n"
                     "skills and confidence come from experiments only: served runs have no known answers\n");
        QCOMPARE(r.err, QStringLiteral("warning: rt/alpha: no scored answers; its skills are not fitted\n"
                                       "warning: rt/beta: no scored answers; its skills are not fitted\n"
                                       "warning: rt/gamma: no scored answers; its skills are not fitted\n"));
        const auto models = QJsonDocument::fromJson(read(out).toUtf8()).object()["models"].toObject();
        for (const auto& truth : kTruth) {
            const auto m = models[truth.model].toObject();
            QVERIFY(!m.contains("skills"));
            QVERIFY(!m.contains("confidence"));
            QVERIFY(!m.contains("calibrated_from"));
        }
        // Each call's cost is linear in its tokens: the prices come back exactly.
        const auto price = [&](const char* model, const char* side) {
            return models[model].toObject()["price_per_mtok"].toObject()[side].toDouble();
        };
        QCOMPARE(price("rt/alpha", "input"), 1.0);
        QCOMPARE(price("rt/alpha", "output"), 2.0);
        QCOMPARE(price("rt/beta", "input"), 0.5);
        QCOMPARE(price("rt/beta", "output"), 1.5);
        QCOMPARE(price("rt/gamma", "input"), 0.1);
        QCOMPARE(price("rt/gamma", "output"), 0.2);
        // A window that holds no served run reads none: nothing to fit.
        const auto later =
            cli({"calibrate", "--runs-from-serve", "2100-01-01T00:00:00Z", "--db", db, "-o", path("never.json")});
        QCOMPARE(later.exitCode, 2);
        QCOMPARE(later.out, QString());
        QCOMPARE(later.err, QStringLiteral("calibrate: the served runs made no finished model calls; there is nothing "
                                           "to fit\n"));
        QVERIFY(!QFile::exists(path("never.json")));
    }


    // Known profiles in, an experiment by the simulator, the profiles back out
    // within sampling error; then the fitted file drives a team through models_file.
    void roundTrip()
    {
        const auto team = path("rt.team.json");
        write(team, roundTripTeam());
        const auto db = path("rt.sqlite");
        QStringList ids;
        for (const char* taskset : {"math", "facts"}) {
            const auto r = cli({"eval", team, "--taskset", taskset, "--seeds", "24", "--db", db, "--json"});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            ids << QJsonDocument::fromJson(r.out.toUtf8()).object()["experiment_id"].toString();
        }
        const auto fitted = path("fitted.json");
        const auto r = cli(QStringList{"calibrate"} + ids +
                           QStringList{"--db", db, "-o", fitted, "--context", "rt/alpha=8192", "--context",
                                       "rt/beta=8192", "--context", "rt/gamma=8192", "--tasks-out",
                                       path("rt-tasks.jsonl")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.err, QString()); // 24 seeds: no thin data; every window given
        const auto models = QJsonDocument::fromJson(read(fitted).toUtf8()).object()["models"].toObject();
        QCOMPARE(models.keys(), (QStringList{"rt/alpha", "rt/beta", "rt/gamma"}));
        for (const auto& truth : kTruth) {
            const auto m = models[truth.model].toObject();
            const auto skills = m["skills"].toObject();
            const auto trials = m["trials"].toObject();
            const double ttft = m["ttft_ms"].toObject()["median"].toDouble();
            const double speed = m["tokens_per_s"].toObject()["median"].toDouble();
            const double failures = m["failure_rate"].toDouble();
            qInfo("%s: math %.4f (%d answers, set %.2f, %.4f on these tasks), facts %.4f (%d, set %.2f, %.4f), "
                  "ttft median %.1f ms (set %.0f), "
                  "tokens/s median %.1f (set %.0f), failure rate %.4f (set %.2f), error agreement %.4f (set %.1f)",
                  truth.model, skills["math"].toDouble(), trials["math"].toInt(), truth.math,
                  onTheseTasks("math", truth.math), skills["facts"].toDouble(), trials["facts"].toInt(), truth.facts,
                  onTheseTasks("facts", truth.facts), ttft, truth.ttftMedian, speed,
                  truth.speedMedian, failures, truth.failureRate, m["error_agreement"].toDouble(),
                  truth.errorAgreement);
            QCOMPARE(m["context_tokens"].toInteger(), qint64(8192));
            QVERIFY(trials["math"].toInt() >= 300);
            QVERIFY(trials["facts"].toInt() >= 300);
            // The fit knows no task's difficulty beforehand: the measured tasks
            // are its typical ones (z ~ N(0, 1)), so a skill comes back as the
            // accuracy these tasks give the set skill, the curve's mean over them.
            QVERIFY(std::fabs(skills["math"].toDouble() - onTheseTasks("math", truth.math)) <= 0.03);
            QVERIFY(std::fabs(skills["facts"].toDouble() - onTheseTasks("facts", truth.facts)) <= 0.03);
            QVERIFY(std::fabs(ttft / truth.ttftMedian - 1) <= 0.10);
            QVERIFY(std::fabs(speed / truth.speedMedian - 1) <= 0.10);
            QVERIFY(std::fabs(failures - truth.failureRate) <= 0.02);
            // Pairs of different models' wrong answers (PairwiseAgreement): the old
            // estimator, which counted a model's own answer toward the shared one, needed 0.10.
            QVERIFY(std::fabs(m["error_agreement"].toDouble() - truth.errorAgreement) <= 0.02);
            // The joint fields: the simulator's default weight (0.7) and stated confidence
            // (right N(0.86, 0.10), wrong N(0.78, 0.12), clamped to [0.05, 0.99]: means 0.852 and
            // 0.771 once clamped) come back.
            const double weight = m["difficulty_weight"].toDouble();
            const auto confidence = m["confidence"].toObject();
            const double right = confidence["right"].toObject()["mean"].toDouble();
            const double wrong = confidence["wrong"].toObject()["mean"].toDouble();
            qInfo("%s: difficulty weight %.4f (set 0.7), confidence right %.4f (0.852), wrong %.4f (0.771)", truth.model,
                  weight, right, wrong);
            QVERIFY(std::fabs(weight - 0.7) <= 0.1);
            QVERIFY(std::fabs(right - 0.852) <= 0.01);
            QVERIFY(std::fabs(wrong - 0.771) <= 0.015);
        }
        // Each task's fitted difficulty follows the one the simulator drew for it (from its id).
        const auto measured = TaskSet::load(path("rt-tasks.jsonl").toStdString());
        QVERIFY(measured.tasks);
        QCOMPARE(measured.tasks->tasks().size(), size_t(82 + 88));
        std::vector<double> fittedZ, drawnZ;
        for (const auto& task : measured.tasks->tasks()) {
            fittedZ.push_back(*task.difficulty);
            drawnZ.push_back(ItemBank::difficulty(conclave::Task{.id = task.id}));
        }
        const double rz = testsupport::correlation(fittedZ, drawnZ);
        qInfo("fitted against drawn task difficulty: r = %.3f over %zu tasks", rz, fittedZ.size());
        QVERIFY(rz >= 0.8);
        // Prices come back exactly: each call's cost is linear in its tokens.
        QCOMPARE(models["rt/beta"].toObject()["price_per_mtok"].toObject()["input"].toDouble(), 0.5);
        QCOMPARE(models["rt/beta"].toObject()["price_per_mtok"].toObject()["output"].toDouble(), 1.5);

        // The same team with its profiles from the file, by reference.
        auto json = QJsonDocument::fromJson(roundTripTeam()).object();
        auto backends = json["backends"].toObject();
        auto local = backends["local"].toObject();
        local.remove("models");
        local["models_file"] = "fitted.json";
        backends["local"] = local;
        json["backends"] = backends;
        const auto fromFile = path("from-file.team.json");
        write(fromFile, QJsonDocument(json).toJson());
        const auto valid = cli({"validate", fromFile});
        QCOMPARE(valid.out, fromFile + ": valid (0 warnings)\n");
        const auto run = cli({"run", fromFile, "--input", "Calculate 323 + 460.", "--db", path("runs.sqlite")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestCliCalibrateRoundTrip)
#include "tst_clicalibrateroundtrip.moc"
