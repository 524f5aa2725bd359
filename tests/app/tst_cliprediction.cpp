// `conclave eval` of a calibrated design (a local-moe profile carrying
// calibrated_from): its accuracy CI carries the fitted skills' uncertainty
// (200 resamples), the report says what it was predicted from and which tasks
// have no measured difficulty; --no-calibration-uncertainty gives the
// simulated draws alone; an uncalibrated design gets no such line.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/CliProcess.h"

namespace {

using Result = testsupport::CliResult;
using testsupport::lineStarting;

Result cli(const QStringList& args)
{
    return testsupport::runConclave(args);
}

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// One model whose facts skill was fitted from 120 answers of one experiment.
QByteArray modelsFile(const char* ci)
{
    return QByteArray("{\"format\": 2, \"models\": {\"cal/m\": {\"skills\": {\"facts\": 0.7}, \"skills_ci\": {\"facts\": ") +
           ci + "}, \"trials\": {\"facts\": 120}, \"fitted\": [\"skills\"], "
                "\"calibrated_from\": [{\"experiment\": \"e-aaaaaaaaaaaa\", \"answers\": 120}]}}}";
}

QByteArray team(const char* name, const char* backendExtra)
{
    return QByteArray("{\"conclave\": 3, \"name\": \"") + name +
           "\", \"backends\": {\"local\": {\"kind\": \"local-moe\"" + backendExtra +
           "}}, \"defaults\": {\"backend\": \"local\"}, \"nodes\": [{\"id\": \"in\", \"kind\": \"input\"}, "
           "{\"id\": \"e\", \"kind\": \"expert\", \"model\": \"cal/m\", \"prompt\": \"{{input}}\"}, "
           "{\"id\": \"out\", \"kind\": \"output\"}], \"edges\": [{\"from\": \"in\", \"to\": \"e\"}, "
           "{\"from\": \"e\", \"to\": \"out\"}]}";
}

} // namespace

class TestCliPrediction : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const char* name) const { return m_dir.filePath(name); }

    QStringList eval(const char* teamFile, const QStringList& extra = {}) const
    {
        return QStringList{"eval", path(teamFile), "--taskset", "facts", "--seeds", "2", "--db", path("runs.sqlite")} +
               extra;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        write(path("narrow.models.json"), modelsFile("[0.67, 0.73]"));
        write(path("wide.models.json"), modelsFile("[0.62, 0.78]"));
        write(path("narrow.team.json"), team("Narrow", ", \"models_file\": \"narrow.models.json\""));
        write(path("wide.team.json"), team("Wide", ", \"models_file\": \"wide.models.json\""));
        write(path("plain.team.json"),
              team("Plain", ", \"models\": {\"cal/m\": {\"skills\": {\"facts\": 0.7}, \"skills_ci\": "
                            "{\"facts\": [0.5, 0.85]}}}"));
    }

    void carriesTheFittedSkillsUncertainty()
    {
        const auto r = cli(eval("wide.team.json"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(lineStarting(r.out, "Wide  "),
                 QString("Wide       71.0%  [57.8, 84.3]     baseline      -    2.43 s    7.50 s          $0    1.0       "
                         "0  virtual   simulated"));
        QCOMPARE(lineStarting(r.out, "Wide:"),
                 QString("Wide: predicted from calibration of experiment e-aaaaaaaaaaaa (120 answers); calibration "
                         "uncertainty: 200 resamples (simulation noise alone [63.2, 78.8]); 88 of 88 tasks have no "
                         "measured difficulty"));
    }

    void aNarrowerFitWidensLess()
    {
        const auto narrow = cli(eval("narrow.team.json", {"--json"}));
        QCOMPARE(narrow.exitCode, 0);
        const auto design = QJsonDocument::fromJson(narrow.out.toUtf8()).object()["designs"].toArray()[0].toObject();
        const auto prediction = design["prediction"].toObject();
        QCOMPARE(prediction["resamples"].toInt(), 200);
        QCOMPARE(prediction["tasks"].toInt(), 88);
        QCOMPARE(prediction["unmeasured_tasks"].toInt(), 88);
        QCOMPARE(prediction["models"].toArray(), QJsonArray{"cal/m"});
        QCOMPARE(prediction["calibrated_from"].toArray()[0].toObject()["answers"].toInt(), 120);
        const auto sim = prediction["simulation_ci"].toArray();
        const auto both = prediction["ci"].toArray();
        QCOMPARE(design["accuracy_ci"].toArray(), both);
        // Both widen the simulated interval on both sides; the narrower skill interval widens it less.
        QVERIFY(both[0].toDouble() < sim[0].toDouble());
        QVERIFY(both[1].toDouble() > sim[1].toDouble());
        const auto wide = cli(eval("wide.team.json", {"--json"}));
        const auto widePrediction = QJsonDocument::fromJson(wide.out.toUtf8())
                                        .object()["designs"]
                                        .toArray()[0]
                                        .toObject()["prediction"]
                                        .toObject();
        QVERIFY(widePrediction["resample_sd"].toDouble() > 1.5 * prediction["resample_sd"].toDouble());
        QVERIFY(prediction["resample_sd"].toDouble() > 0.005);
    }

    void simulationNoiseOnlyWhenAsked()
    {
        const auto r = cli(eval("wide.team.json", {"--no-calibration-uncertainty"}));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(lineStarting(r.out, "Wide  ").contains("71.0%  [63.2, 78.8]"));
        QCOMPARE(lineStarting(r.out, "Wide:"),
                 QString("Wide: predicted from calibration of experiment e-aaaaaaaaaaaa (120 answers); CI: simulation "
                         "noise only; 88 of 88 tasks have no measured difficulty"));
    }

    void anUncalibratedDesignIsNotAPrediction()
    {
        const auto r = cli(eval("plain.team.json"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(lineStarting(r.out, "Plain:"), QString());
        QVERIFY(!r.out.contains("calibration"));
    }
};

QTEST_GUILESS_MAIN(TestCliPrediction)
#include "tst_cliprediction.moc"
