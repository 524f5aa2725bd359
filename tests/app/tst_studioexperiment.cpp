// conclave-studio --experiment: an experiment evaluated by the CLI and stored,
// then rendered by the studio to PNG files in both themes; an unknown id gives
// one clear line on stderr and exit code 2.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace {

struct Result {
    int code = -1;
    QByteArray out, err;
};

Result exec(const QString& binary, const QStringList& args)
{
    QProcess process;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    process.setProcessEnvironment(env);
    process.start(binary, args);
    process.waitForFinished(120000);
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

const QString kCli = QStringLiteral(CONCLAVE_BIN_DIR "/conclave");
const QString kStudio = QStringLiteral(CONCLAVE_BIN_DIR "/conclave-studio");

bool isPng(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) && f.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8) && f.size() > 20000;
}

} // namespace

class TestStudioExperiment : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_db;
    QString m_id;

private slots:
    void initTestCase()
    {
        m_db = m_dir.filePath("runs.sqlite");
        const auto r = exec(kCli, {"eval", CONCLAVE_RESOURCES "/examples/cascade.team.json",
                                   CONCLAVE_RESOURCES "/examples/triage.team.json", "--taskset", "mixed-small",
                                   "--seeds", "2", "--db", m_db, "--json"});
        QCOMPARE(r.code, 0);
        m_id = QJsonDocument::fromJson(r.out).object().value("experiment_id").toString();
        QVERIFY(m_id.startsWith("e-"));
    }

    void rendersTheView_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::newRow("light") << "light";
        QTest::newRow("dark") << "dark";
    }

    void rendersTheView()
    {
        QFETCH(QString, theme);
        const QString out = m_dir.filePath(theme + ".png");
        const auto r = exec(kStudio, {"--experiment", m_id, "--db", m_db, "--theme", theme, "--screenshot", out});
        QCOMPARE(r.code, 0);
        QVERIFY(isPng(out));
    }

    void anUnknownIdIsAnError()
    {
        const QString out = m_dir.filePath("nope.png");
        const auto r = exec(kStudio, {"--experiment", "e-000000000000", "--db", m_db, "--screenshot", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("conclave-studio: no experiment \"e-000000000000\"\n"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestStudioExperiment)
#include "tst_studioexperiment.moc"
