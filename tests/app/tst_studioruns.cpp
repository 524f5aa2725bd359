// conclave-studio --run / --replay / --compare: a team run through the engine
// by the CLI and stored, then rendered by the studio to PNG files; bad ids
// and a missing store give one clear line and exit code 2.
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

class TestStudioRuns : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_db;
    QString m_a, m_b;

private slots:
    void initTestCase()
    {
        m_db = m_dir.filePath("runs.sqlite");
        for (const char* seed : {"1", "2"}) {
            const auto r = exec(kCli, {"run", CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", "--input",
                                       "Calculate 323 + 460.", "--db", m_db, "--json", "--seed", seed});
            QCOMPARE(r.code, 0);
            const auto id = QJsonDocument::fromJson(r.out).object().value("run_id").toString();
            QVERIFY(!id.isEmpty());
            (m_a.isEmpty() ? m_a : m_b) = id;
        }
    }

    void rendersTheViews_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("run") << QStringList({"--run", "A"});
        QTest::newRow("replay") << QStringList({"--replay", "A", "--at", "5"});
        QTest::newRow("compare") << QStringList({"--compare", "A", "B"});
    }

    void rendersTheViews()
    {
        QFETCH(QStringList, args);
        args.replaceInStrings(QRegularExpression("^A$"), m_a);
        args.replaceInStrings(QRegularExpression("^B$"), m_b);
        const QString out = m_dir.filePath(QString(QTest::currentDataTag()) + ".png");
        const auto r = exec(kStudio, args + QStringList({"--db", m_db, "--screenshot", out}));
        QCOMPARE(r.code, 0);
        QVERIFY(isPng(out));
    }

    void badInput()
    {
        auto r = exec(kStudio, {"--run", "nope", "--db", m_db, "--screenshot", m_dir.filePath("x.png")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("conclave-studio: "));
        QVERIFY(!QFile::exists(m_dir.filePath("x.png")));
        r = exec(kStudio, {"--run", m_a, "--db", m_dir.filePath("missing.sqlite")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("missing.sqlite: no run store there"));
        QVERIFY(!QFile::exists(m_dir.filePath("missing.sqlite")));
        r = exec(kStudio, {"--compare", m_a, "--db", m_db});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--compare needs two run ids"));
    }
};

QTEST_GUILESS_MAIN(TestStudioRuns)
#include "tst_studioruns.moc"
