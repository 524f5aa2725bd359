// `conclave calibrate`: the help, usage and input errors, the exact file,
// summary and warnings of a hand-made store, --model, and the round trip: an
// experiment run by the simulator from known inline profiles, calibrated back
// to them, the file then used through models_file. --runs-from-serve: the
// calls of served runs, alone (a seeded simulated team served 40 times) and
// pooled with an experiment's (the hand-made runs served again).
#include <QtTest>

#include "support/Correlation.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/CalibrationStore.h"
#include "support/CliProcess.h"

#include "conclave/io/TeamJson.h"
#include "conclave/local/ItemBank.h"
#include "conclave/local/TaskSet.h"
#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/session/Engine.h"

#include <cmath>

namespace {

using Result = testsupport::CliResult;
using conclave::ItemBank;
using conclave::TaskSet;

Result cli(const QStringList& args)
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

class TestCliCalibrate : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_handDb;
    QString m_handExperiment;

    QString path(const QString& name) const { return m_dir.path() + "/" + name; }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_handDb = path("hand.sqlite");
        auto opened = conclave::RunStore::open(m_handDb.toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        m_handExperiment = QString::fromStdString(calibration_store::fill(*opened.store, m_dir.path().toStdString()));
        QVERIFY(!m_handExperiment.isEmpty());
    }

    void help()
    {
        const auto r = cli({"calibrate", "--help"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        for (const char* word : {"Usage: conclave calibrate [OPTIONS] [experiments...]", "--model", "--context", "--db",
                                 "-o,--output", "--runs-from-serve SINCE", "docs/calibration.md"})
            QVERIFY2(r.out.contains(QLatin1String(word)), qPrintable(QLatin1String(word) + " not in:\n" + r.out));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mention");
        QTest::newRow("nothing to read")
            << QStringList{"calibrate", "-o", "x.json"}
            << "calibrate: nothing to read: give experiment ids, --runs-from-serve SINCE, or both\n";
        QTest::newRow("not a date") << QStringList{"calibrate", "--runs-from-serve", "yesterday", "-o", "x.json"}
                                    << "calibrate: --runs-from-serve: expected a UTC date YYYY-MM-DD or "
                                       "YYYY-MM-DDTHH:MM:SSZ, got \"yesterday\"\n";
        QTest::newRow("no Z") << QStringList{"calibrate", "e-1", "--runs-from-serve", "2024-05-01T00:00", "-o", "x"}
                              << "calibrate: --runs-from-serve: expected a UTC date YYYY-MM-DD or "
                                 "YYYY-MM-DDTHH:MM:SSZ, got \"2024-05-01T00:00\"\n";
        QTest::newRow("no output") << QStringList{"calibrate", "e-1"} << "--output is required";
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mention);
        const auto r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        QVERIFY2(r.err.contains(mention), qPrintable(r.err));
    }

    // The measured tasks as a task set, each with the difficulty the joint fit gave it. Here each
    // task is alone in its domain, so its difficulty cannot be told from the models' abilities
    // there: both stay at the prior's mode, 0, to the fit's convergence (±0.0001).
    void tasksOut()
    {
        const auto tasks = path("measured.jsonl");
        const auto r = cli({"calibrate", m_handExperiment, "--db", m_handDb, "-o", path("m.json"), "--tasks-out", tasks});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.endsWith("wrote " + tasks + ": 2 tasks with fitted difficulties\n"), qPrintable(r.out));
        QCOMPARE(read(tasks),
                 QStringLiteral("{\"id\":\"q1\",\"domain\":\"facts\",\"prompt\":\"Capital of France?\",\"answer\":"
                                "\"paris\",\"choices\":[\"paris\",\"lyon\",\"nice\",\"lille\"],\"difficulty\":0.0001}\n"
                                "{\"id\":\"q2\",\"domain\":\"math\",\"prompt\":\"Calculate 40 + 2.\",\"answer\":\"42\","
                                "\"difficulty\":-0.0001}\n"));
    }

    // Every number of the hand-made store, the summary and the warnings, word for word.
    void handMadeStore()
    {
        const auto out = path("hand-models.json");
        const auto r = cli({"calibrate", m_handExperiment, "--db", m_handDb, "-o", out});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, "wrote " + out +
                            ": 3 models from 4 trials of 1 experiment\n"
                            "  hand/a: ttft 30 ms, 175 tokens/s, failure rate 0, skills facts 0.5 (2) math 1 (2), error agreement 1\n"
                            "    not measured — built-in default used: difficulty_weight, confidence, synthesis, load_slope, retry_repeat, conformity, repeat_agreement\n"
                            "  hand/c: ttft 10 ms, 100 tokens/s, failure rate 0, no skills\n"
                            "    not measured — built-in default used: skills, error_agreement, difficulty_weight, confidence, synthesis, load_slope, retry_repeat, conformity, repeat_agreement\n"
                            "  local/tiny-1b: ttft 250 ms, 100 tokens/s, failure rate 0.3333, skills facts 0 (2) math 0.5 (2), error agreement 0.5\n"
                            "    not measured — built-in default used: difficulty_weight, confidence, synthesis, load_slope, retry_repeat, conformity, repeat_agreement\n");
        QCOMPARE(r.err,
                 QStringLiteral(
                     "warning: hand/a: only 8 successful calls (fewer than 30); its latency, speed and length are "
                     "uncertain\n"
                     "warning: hand/a: context window not measured; no limit set (give --context hand/a=TOKENS)\n"
                     "warning: hand/a: only 2 scored answers in facts (fewer than 30); its skill there is uncertain\n"
                     "warning: hand/a: only 2 scored answers in math (fewer than 30); its skill there is uncertain\n"
                     "warning: hand/a: only 2 pairs of wrong answers with another model on tasks with choices "
                     "(fewer than 30); its error_agreement is uncertain\n"
                     "warning: hand/c: only 4 successful calls (fewer than 30); its latency, speed and length are "
                     "uncertain\n"
                     "warning: hand/c: context window not measured; no limit set (give --context hand/c=TOKENS)\n"
                     "warning: hand/c: no scored answers; its skills are not fitted\n"
                     "warning: local/tiny-1b: only 4 successful calls (fewer than 30); its latency, speed and length "
                     "are uncertain\n"
                     "warning: local/tiny-1b: only 2 scored answers in facts (fewer than 30); its skill there is "
                     "uncertain\n"
                     "warning: local/tiny-1b: only 2 scored answers in math (fewer than 30); its skill there is "
                     "uncertain\n"
                     "warning: local/tiny-1b: only 2 pairs of wrong answers with another model on tasks with "
                     "choices (fewer than 30); its error_agreement is uncertain\n"));
        QCOMPARE(read(out), QStringLiteral(R"({
  "format": 2,
  "models": {
    "hand/a": {
      "skills": {
        "facts": 0.5,
        "math": 1
      },
      "ttft_ms": {
        "median": 30,
        "p95": 93
      },
      "tokens_per_s": {
        "median": 175,
        "p95": 67.5
      },
      "output_tokens": {
        "median": 33,
        "p95": 182.5
      },
      "price_per_mtok": {
        "input": 2,
        "output": 10
      },
      "failure_rate": 0,
      "error_agreement": 1,
      "skills_ci": {
        "facts": [0.236, 0.7641],
        "math": [0.412, 1]
      },
      "trials": {
        "facts": 2,
        "math": 2
      },
      "fitted": [
        "skills",
        "ttft_ms",
        "tokens_per_s",
        "output_tokens",
        "price_per_mtok",
        "failure_rate",
        "error_agreement"
      ],
      "calibrated_from": [
        {
          "experiment": "%1",
          "answers": 4
        }
      ]
    },
    "hand/c": {
      "ttft_ms": {
        "median": 10,
        "p95": 10
      },
      "tokens_per_s": {
        "median": 100,
        "p95": 100
      },
      "output_tokens": {
        "median": 10,
        "p95": 10
      },
      "price_per_mtok": {
        "input": 0,
        "output": 0
      },
      "failure_rate": 0,
      "fitted": [
        "ttft_ms",
        "tokens_per_s",
        "output_tokens",
        "price_per_mtok",
        "failure_rate"
      ],
      "calibrated_from": [
        {
          "experiment": "%1",
          "answers": 0
        }
      ]
    },
    "local/tiny-1b": {
      "skills": {
        "facts": 0,
        "math": 0.5
      },
      "ttft_ms": {
        "median": 250,
        "p95": 300
      },
      "tokens_per_s": {
        "median": 100,
        "p95": 100
      },
      "output_tokens": {
        "median": 100,
        "p95": 100
      },
      "price_per_mtok": {
        "input": 0,
        "output": 0
      },
      "context_tokens": 8192,
      "failure_rate": 0.3333,
      "error_agreement": 0.5,
      "skills_ci": {
        "facts": [0, 0.588],
        "math": [0.2359, 0.764]
      },
      "trials": {
        "facts": 2,
        "math": 2
      },
      "fitted": [
        "skills",
        "ttft_ms",
        "tokens_per_s",
        "output_tokens",
        "price_per_mtok",
        "failure_rate",
        "error_agreement"
      ],
      "calibrated_from": [
        {
          "experiment": "%1",
          "answers": 4
        }
      ]
    }
  }
}
)").arg(m_handExperiment));
        // The catalog reader takes it as it is.
        const auto catalog = conclave::LocalModelCatalog::load(out.toStdString());
        QVERIFY(catalog.catalog);
        QCOMPARE(catalog.catalog->models().size(), size_t(3));
    }

    void onlyTheModelsAsked()
    {
        const auto out = path("only-a.json");
        const auto r = cli({"calibrate", m_handExperiment.left(6), "--model", "hand/a", "--db", m_handDb, "-o", out,
                            m_handExperiment});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("wrote " + out + ": 1 model from 4 trials of 1 experiment\n  hand/a: "),
                 qPrintable(r.out));
        QVERIFY(!r.err.contains("tiny-1b"));
        const auto models = QJsonDocument::fromJson(read(out).toUtf8()).object()["models"].toObject();
        QCOMPARE(models.keys(), QStringList{"hand/a"});
    }

    // A measured window goes into the file, over the catalog's; no warning for it.
    void contextWindows()
    {
        const auto out = path("context-models.json");
        const auto r = cli({"calibrate", m_handExperiment, "--db", m_handDb, "-o", out, "--context", "hand/a=128000",
                            "--context", "local/tiny-1b=4096"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.err.contains("hand/a: context"), qPrintable(r.err));
        QVERIFY2(r.err.contains("warning: hand/c: context window not measured; no limit set (give --context "
                                "hand/c=TOKENS)\n"),
                 qPrintable(r.err));
        const auto models = QJsonDocument::fromJson(read(out).toUtf8()).object()["models"].toObject();
        QCOMPARE(models["hand/a"].toObject()["context_tokens"].toInteger(), qint64(128000));
        QCOMPARE(models["local/tiny-1b"].toObject()["context_tokens"].toInteger(), qint64(4096));
        QVERIFY(!models["hand/c"].toObject().contains("context_tokens"));
    }

    void inputErrors_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown experiment") << QStringList{"e-nope"} << "calibrate: no experiment \"e-nope\"\n";
        QTest::newRow("unknown model") << QStringList{"--model", "hand/z"}
                                       << "calibrate: --model hand/z: no call of this model in the experiments "
                                          "(they called hand/a, hand/c, local/tiny-1b)\n";
        QTest::newRow("--context without =")
            << QStringList{"--context", "hand/a"}
            << "calibrate: --context hand/a: expected MODEL=TOKENS (a model's name and its context window in "
               "tokens), got \"hand/a\"\n";
        QTest::newRow("--context not a count")
            << QStringList{"--context", "hand/a=32k"}
            << "calibrate: --context hand/a=32k: the context window of hand/a must be a positive integer of tokens, "
               "got \"32k\"\n";
        QTest::newRow("--context 0") << QStringList{"--context", "hand/a=0"}
                                     << "calibrate: --context hand/a=0: the context window of hand/a must be a "
                                        "positive integer of tokens, got \"0\"\n";
        QTest::newRow("--context twice")
            << QStringList{"--context", "hand/a=4096", "--context", "hand/a=8192"}
            << "calibrate: --context hand/a=8192: hand/a was already given a context window of 4096\n";
        QTest::newRow("--context of a model not called")
            << QStringList{"--context", "hand/z=4096"}
            << "calibrate: --context hand/z=4096: no call of this model in the experiments (they called hand/a, "
               "hand/c, local/tiny-1b)\n";
    }

    // Exit 2, nothing on stdout, no file written.
    void inputErrors()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, error);
        const auto out = path("never.json");
        const auto r = cli(QStringList{"calibrate", m_handExperiment, "--db", m_handDb, "-o", out} + extra);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        QCOMPARE(r.err, error);
        QVERIFY(!QFile::exists(out));
    }

    // calibrate only reads the store: a missing one is an error, and stays missing.
    void missingStore()
    {
        const auto missing = path("missing/runs.sqlite");
        const auto out = path("never.json");
        const auto r = cli({"calibrate", "e-1", "--db", missing, "-o", out});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        QCOMPARE(r.err, "calibrate: " + missing + ": no such run store\n");
        QVERIFY(!QFile::exists(path("missing")));
        QVERIFY(!QFile::exists(out));
    }

    void unwritableOutput()
    {
        const auto out = path("no/such/folder/models.json");
        const auto r = cli({"calibrate", m_handExperiment, "--db", m_handDb, "-o", out});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        QVERIFY2(r.err.endsWith("calibrate: " + out + ": cannot create a temporary file in " + path("no/such/folder") +
                                ": No such file or directory\n"),
                 qPrintable(r.err));
    }

    // Known profiles in, an experiment by the simulator, the profiles back out
    // within sampling error; then the fitted file drives a team through models_file.
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

    // An experiment and served runs pooled: the hand-made store with its four
    // runs served again. Skills and answers are the experiment's; every call
    // counts (the medians the summary shows stay, the tails move: hand/a's
    // time to first token, twice each of {20, 20, 20, 20, 40, 60, 80, 100},
    // has Q(0.95) at h = 15 · 0.95 = 14.25, between two 100s).
    void servedRunsWithAnExperiment()
    {
        const auto db = path("hand-served.sqlite");
        QString experiment;
        {
            auto opened = conclave::RunStore::open(db.toStdString());
            QVERIFY2(opened.store, opened.error.c_str());
            experiment = QString::fromStdString(calibration_store::fill(*opened.store, m_dir.path().toStdString()));
            QVERIFY(!experiment.isEmpty());
            QVERIFY(calibration_store::storeServed(*opened.store));
        }
        const auto out = path("hand-served.json");
        const auto r =
            cli({"calibrate", experiment, "--runs-from-serve", "2000-01-01T00:00:00Z", "--db", db, "-o", out});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, "wrote " + out +
                            ": 3 models from 4 trials of 1 experiment and 4 served runs since 2000-01-01T00:00:00Z\n"
                            "  hand/a: ttft 30 ms, 175 tokens/s, failure rate 0, skills facts 0.5 (2) math 1 (2), "
                            "error agreement 1\n"
                            "    not measured — built-in default used: difficulty_weight, confidence, synthesis, "
                            "load_slope, retry_repeat, conformity, repeat_agreement\n"
                            "  hand/c: ttft 10 ms, 100 tokens/s, failure rate 0, no skills\n"
                            "    not measured — built-in default used: skills, error_agreement, difficulty_weight, "
                            "confidence, synthesis, load_slope, retry_repeat, conformity, repeat_agreement\n"
                            "  local/tiny-1b: ttft 250 ms, 100 tokens/s, failure rate 0.3333, skills facts 0 (2) math "
                            "0.5 (2), error agreement 0.5\n"
                            "    not measured — built-in default used: difficulty_weight, confidence, synthesis, "
                            "load_slope, retry_repeat, conformity, repeat_agreement\n"
                            "skills and confidence come from experiments only: served runs have no known answers\n");
        const auto models = QJsonDocument::fromJson(read(out).toUtf8()).object()["models"].toObject();
        const auto a = models["hand/a"].toObject();
        QCOMPARE(a["ttft_ms"].toObject()["median"].toDouble(), 30.0);
        QCOMPARE(a["ttft_ms"].toObject()["p95"].toDouble(), 100.0);
        // The experiment alone is a source of answers.
        QCOMPARE(QJsonDocument(a["calibrated_from"].toArray()).toJson(QJsonDocument::Compact),
                 QString(R"([{"answers":4,"experiment":"%1"}])").arg(experiment).toUtf8());
    }

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

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_clicalibrate.moc"
