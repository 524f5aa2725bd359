// `conclave eval DESIGN --vary …`: a sweep of the cascade example's threshold
// on four math tasks — the variants' names, their parameters stored and shown
// as columns (table, JSON, CSV, Markdown), --store summaries, a resume that
// regenerates the variants and refuses a changed file, and the 1,000-variant
// confirmation.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "support/CliProcess.h"

#undef emit

#include "conclave/store/SqliteDb.h"

#include <nlohmann/json.hpp>

namespace {

using Result = testsupport::CliResult;

const QString kExamples = QStringLiteral(CONCLAVE_RESOURCES "/examples/");
const QString kName = QStringLiteral("Cascade: tiny, mid, frontier");

Result cli(const QStringList& args)
{
    return testsupport::runConclave(args);
}

QString read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString onlyExperiment(const QString& db)
{
    const auto list = QJsonDocument::fromJson(cli({"experiments", "list", "--json", "--db", db}).out.toUtf8()).array();
    return list.size() == 1 ? list[0].toObject()["experiment_id"].toString() : QString();
}

// One statement on the store, as another process would leave it.
void exec(const QString& db, const std::string& sql)
{
    conclave::SqliteDb sqlite;
    QVERIFY(!sqlite.open(db.toStdString(), conclave::SqliteDb::Mode::ReadWrite));
    QVERIFY(!sqlite.exec(sql));
}

QString storedSpec(const QString& db)
{
    conclave::SqliteDb sqlite;
    if (sqlite.open(db.toStdString(), conclave::SqliteDb::Mode::ReadOnly))
        return {};
    auto s = sqlite.prepare("SELECT spec_json FROM experiments");
    return s.valid() && s.step() ? QString::fromStdString(s.text(0)) : QString();
}

} // namespace

class TestCliSweep : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.path() + "/" + name; }

    QStringList sweep(const QString& team, const QString& db) const
    {
        return {"eval", team,   "--taskset", "math",   "--sample",
                "4",    "--db", db,          "--vary", "cascade.threshold=0.5:0.9:0.2"};
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void variantsAreNamedStoredAndShownAsColumns()
    {
        const auto db = path("sweep.sqlite");
        const auto r = cli(sweep(kExamples + "cascade.team.json", db) << "-o" << path("sweep.csv"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto id = onlyExperiment(db);
        QVERIFY2(r.out.startsWith("experiment " + id + ": " + kName +
                                  " swept over cascade.threshold on math (12 of 12 trials, finished)\n"),
                 qPrintable(r.out));
        const auto lines = r.out.split('\n');
        QVERIFY2(lines[1].startsWith("design ") && lines[1].contains("  cascade.threshold  accuracy  "),
                 qPrintable(lines[1]));
        for (int i = 0; i < 3; ++i) {
            const auto value = QString::number(0.5 + 0.2 * i, 'f', 1);
            QVERIFY2(QRegularExpression("^" + QRegularExpression::escape(kName + " [cascade.threshold=" + value + "]") +
                                        " +" + value + "  ")
                         .match(lines[2 + i])
                         .hasMatch(),
                     qPrintable(lines[2 + i]));
        }

        // The report's JSON, from the store: each design's parameters, typed.
        const auto shown = cli({"experiments", "export", id, "--format", "json", "--db", db});
        QCOMPARE(shown.exitCode, 0);
        const auto j = QJsonDocument::fromJson(shown.out.toUtf8()).object();
        QCOMPARE(j["vary"].toArray(), (QJsonArray{"cascade.threshold=0.5:0.9:0.2"}));
        const auto designs = j["designs"].toArray();
        QCOMPARE(designs.size(), 3);
        QCOMPARE(designs[1].toObject()["name"].toString(), kName + " [cascade.threshold=0.7]");
        QCOMPARE(designs[1].toObject()["parameters"].toObject(), (QJsonObject{{"cascade.threshold", 0.7}}));
        QCOMPARE(designs[1].toObject()["trials"].toInt(), 4);

        // The spec as stored: the flags, and each variant's fields with its team as run.
        const auto spec = nlohmann::json::parse(storedSpec(db).toStdString());
        QCOMPARE(spec["vary"], nlohmann::json({"cascade.threshold=0.5:0.9:0.2"}));
        QCOMPARE(spec["designs"][2]["sweep"],
                 nlohmann::json::parse(R"([{"path": "cascade.threshold", "value": 0.9, "text": "0.9"}])"));
        QCOMPARE(spec["designs"][2]["team"]["nodes"][1]["threshold"], nlohmann::json(0.9));

        // CSV and Markdown carry the column too.
        QVERIFY(read(path("sweep.csv")).startsWith("design,cascade.threshold,task,domain,seed,"));
        QVERIFY(read(path("sweep.csv")).contains("\"" + kName + " [cascade.threshold=0.5]\",0.5,"));
        const auto md = cli({"experiments", "export", id, "--format", "md", "--db", db}).out;
        QVERIFY2(md.contains("| design | cascade.threshold | provenance |"), qPrintable(md));
        QVERIFY2(md.contains("| " + kName + " [cascade.threshold=0.9] | 0.9 | simulated |"), qPrintable(md));
    }

    void summariesOnlyStoreNoRuns()
    {
        const auto db = path("summaries.sqlite");
        const auto r = cli(sweep(kExamples + "cascade.team.json", db) << "--store"
                                                                      << "summaries"
                                                                      << "--json");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object()["designs"].toArray().size(), 3);
        QCOMPARE(cli({"runs", "list", "--json", "--experiments", "--db", db}).out.trimmed(), QStringLiteral("[]"));
    }

    void resumeRegeneratesAndRefusesAChangedFile()
    {
        const auto team = path("cascade.team.json");
        QVERIFY(QFile::copy(kExamples + "cascade.team.json", team));
        const auto db = path("resume.sqlite");
        QCOMPARE(cli(sweep(team, db)).exitCode, 0);
        const auto id = onlyExperiment(db);
        exec(db, "UPDATE experiments SET status = 'interrupted'; DELETE FROM trials WHERE design = 1");

        // The file as it was: the variants regenerate as stored, and the missing trials run.
        const auto resumed = cli({"eval", "--resume", id, "--db", db});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.out.contains("(12 of 12 trials, finished)"), qPrintable(resumed.out));

        // A changed file: the variant differs from what is stored, and nothing runs.
        exec(db, "UPDATE experiments SET status = 'interrupted'; DELETE FROM trials WHERE design = 2");
        QFile file(team);
        QVERIFY(file.open(QIODevice::ReadWrite));
        const auto text = QString::fromUtf8(file.readAll()).replace("\"max_tokens\": 256", "\"max_tokens\": 300");
        file.resize(0);
        file.write(text.toUtf8());
        file.close();
        const auto storedHash =
            QString::fromStdString(nlohmann::json::parse(storedSpec(db).toStdString())["designs"][0]["hash"]);
        const auto refused = cli({"eval", "--resume", id, "--db", db});
        QCOMPARE(refused.exitCode, 2);
        const QRegularExpression expected(
            "^design \"" + QRegularExpression::escape(kName + " [cascade.threshold=0.5]") + "\": regenerated from " +
            QRegularExpression::escape(team) +
            " with --vary 'cascade.threshold=0.5:0.9:0.2', it differs from the variant stored \\(content hash " +
            storedHash + ", now [0-9a-f]{16,}\\); start a new experiment, or restore the file\n$");
        QVERIFY2(expected.match(refused.err).hasMatch(), qPrintable(refused.err));
        QVERIFY(!storedHash.isEmpty());

        // --vary belongs to a new experiment; a resume takes the stored one.
        const auto both = cli({"eval", "--resume", id, "--db", db, "--vary", "cascade.threshold=0.1"});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains("--resume excludes --vary"), qPrintable(both.err));
    }

    void moreThanAThousandVariantsNeedYes()
    {
        const auto db = path("many.sqlite");
        const auto r = cli({"eval", kExamples + "cascade.team.json", "--taskset", "math", "--sample", "1", "--db", db,
                            "--vary", "cascade.threshold=0.5,0.6,0.7,0.8,0.9,1", "--vary", "tiny.retries=0:166:1"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QStringLiteral("--vary: 1,002 variants (6 x 167) are more than 1,000; give --yes to run them "
                                       "all\n"));
        QCOMPARE(r.out, QString());
        QCOMPARE(onlyExperiment(db), QString());

        const auto unknown = cli({"eval", kExamples + "cascade.team.json", "--taskset", "math", "--db", db, "--vary",
                                  "cascade.treshold=0.5,0.6", "--vary", "cascade.params.temperature=0.1"});
        QCOMPARE(unknown.exitCode, 2);
        QCOMPARE(unknown.err, "--vary: variant \"" + kName +
                                  " [cascade.treshold=0.5, cascade.params.temperature=0.1]\": /nodes/1/treshold: "
                                  "warning: unknown key for a coordinator node; it is kept as is; a sweep varies only "
                                  "fields the team reads\n");
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_clisweep.moc"
