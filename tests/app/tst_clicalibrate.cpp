// `conclave calibrate`: the help, usage and input errors, the exact file,
// summary and warnings of a hand-made store, --model, and --runs-from-serve
// pooled with an experiment's (the hand-made runs served again). The round
// trip to known profiles and served runs alone: tst_clicalibrateroundtrip.
#include <QtTest>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/CalibrationStore.h"
#include "support/CliProcess.h"

#include "conclave/resources/LocalModelCatalog.h"

#include <cmath>

namespace {

using Result = testsupport::CliResult;

Result cli(const QStringList& args)
{
    return testsupport::runConclave(args);
}

QString read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
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

};

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_clicalibrate.moc"
