// `conclave backends check TEAM`: each backend's status and latency, against
// the fake OpenAI-compatible server on 127.0.0.1.
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "conclave/bench/ChatTestServer.h"
#include "support/FakeOpenAiServer.h"
#include "support/QtStrings.h"

#include <nlohmann/json.hpp>

#include <fstream>

using json = nlohmann::json;

namespace {

const QString kBinary = QStringLiteral(CONCLAVE_BIN_DIR "/conclave");

struct Result {
    int exitCode = -1;
    QStringList lines;
    QString err;
};

Result check(const QString& team, const QProcessEnvironment& env, const QStringList& more = {})
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(kBinary, QStringList{QStringLiteral("backends"), QStringLiteral("check"), team} + more);
    process.waitForFinished(60000);
    Result r;
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    const auto out = QString::fromUtf8(process.readAllStandardOutput());
    r.lines = out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    r.err = QString::fromUtf8(process.readAllStandardError());
    return r;
}

// "name kind status N ms detail" with the latency replaced by "N".
QString normalized(QString line)
{
    line.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    line.replace(QRegularExpression(QStringLiteral(" \\d+ ms ")), QStringLiteral(" N ms "));
    return line;
}

} // namespace

class TestCliBackends : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeOpenAiServer> m_server;
    QTemporaryDir m_dir;

    QString writeTeam(const json& backends, const json& nodes)
    {
        json doc{{"conclave", 1}, {"name", "check"}, {"backends", backends}, {"defaults", {{"backend", "local"}}}};
        doc["nodes"] = json::array({json{{"id", "in"}, {"kind", "input"}}});
        doc["edges"] = json::array();
        for (const auto& n : nodes) {
            doc["nodes"].push_back(n);
            doc["edges"].push_back(json{{"from", "in"}, {"to", n["id"]}});
            doc["edges"].push_back(json{{"from", n["id"]}, {"to", "agg"}});
        }
        doc["nodes"].push_back(json{{"id", "agg"}, {"kind", "aggregator"}, {"strategy", "concat"}});
        doc["nodes"].push_back(json{{"id", "out"}, {"kind", "output"}});
        doc["edges"].push_back(json{{"from", "agg"}, {"to", "out"}});
        const auto path = m_dir.filePath(QStringLiteral("check.team.json"));
        std::ofstream(path.toStdString()) << doc.dump(2);
        return path;
    }

    std::string url(const std::string& path) const
    {
        return std::string("http:") + "//127.0.0.1:" + std::to_string(m_server->port()) + path;
    }

private slots:
    void initTestCase()
    {
        m_server = std::make_unique<FakeOpenAiServer>();
        QVERIFY2(m_server->ok(), "the fake server did not start (python3?)");
        QVERIFY(m_dir.isValid());
    }

    void everyBackendAnswers()
    {
        const auto team = writeTeam(
            json{{"local", {{"kind", "local-moe"}}},
                 {"listed", {{"kind", "openai"}, {"base_url", url("/v1")}}},
                 {"nolist", {{"kind", "openai"}, {"base_url", url("/nolist/v1")}}}},
            json::array({json{{"id", "a"}, {"kind", "expert"}, {"backend", "listed"}, {"model", "fake-model"}},
                         json{{"id", "b"}, {"kind", "expert"}, {"backend", "nolist"}, {"model", "fake:chunks=1"}},
                         json{{"id", "c"}, {"kind", "expert"}, {"model", "local/tiny-1b"}}}));
        const auto r = check(team, QProcessEnvironment::systemEnvironment());
        QCOMPARE(r.exitCode, 0);
        QStringList got;
        for (const auto& line : r.lines)
            got << normalized(line);
        const auto base = q(url(""));
        QCOMPARE(got, (QStringList{
                          "listed openai ok N ms " + base + "/v1: 1 model, fake-model among them",
                          "local local-moe ok N ms the built-in simulator (no network)",
                          "nolist openai ok N ms " + base + "/nolist/v1: a one-token completion of fake:chunks=1 answered",
                      }));
    }

    void failuresSayWhy()
    {
        const auto team = writeTeam(
            json{{"local", {{"kind", "local-moe"}}},
                 {"down", {{"kind", "openai"}, {"base_url", std::string("http:") + "//127.0.0.1:1/v1"}}},
                 {"keyed", {{"kind", "openai"}, {"base_url", url("/v1")}, {"api_key_env", "CONCLAVE_TEST_NO_SUCH_KEY"}}}},
            json::array({json{{"id", "c"}, {"kind", "expert"}, {"model", "local/tiny-1b"}}}));
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("CONCLAVE_TEST_NO_SUCH_KEY"));
        const auto r = check(team, env);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.lines.size(), 3);
        QVERIFY2(normalized(r.lines[0]).startsWith(QStringLiteral("down openai FAILED N ms http:")), qPrintable(r.lines[0]));
        QCOMPARE(normalized(r.lines[1]),
                 QStringLiteral("keyed openai FAILED N ms backend \"keyed\" reads its API key from the environment "
                                "variable CONCLAVE_TEST_NO_SUCH_KEY, which is not set"));
        QVERIFY(r.lines[2].startsWith(QStringLiteral("local ")));
    }

    // --load N: N calls at once; the peak in flight the client reached, per shape.
    void loadShowsThePeakInFlight_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("limit");
        QTest::addColumn<int>("peak");
        QTest::newRow("late-headers, limit 16") << "late-headers" << 16 << 8;
        QTest::newRow("http1.0, limit 16") << "http1.0" << 16 << 8;
        QTest::newRow("chunked, limit 3") << "chunked" << 3 << 3;
    }
    void loadShowsThePeakInFlight()
    {
        QFETCH(QString, shape);
        QFETCH(int, limit);
        QFETCH(int, peak);
        conclave::ChatTestServerOptions options;
        options.shape = *conclave::serverShapeFromString(shape.toStdString());
        options.replyMs = 100;
        std::string error;
        auto server = conclave::ChatTestServer::start(options, error);
        QVERIFY2(server, error.c_str());
        const auto team = writeTeam(
            json{{"local", {{"kind", "local-moe"}}},
                 {"lab", {{"kind", "openai"}, {"base_url", server->baseUrl()}, {"max_concurrency", limit}}}},
            json::array({json{{"id", "a"}, {"kind", "expert"}, {"backend", "lab"}, {"model", "bench"}}}));
        const auto r = check(team, QProcessEnvironment::systemEnvironment(), {QStringLiteral("--load"), QStringLiteral("8")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.lines.size(), 3);
        QCOMPARE(normalized(r.lines[2]).replace(QRegularExpression(QStringLiteral(" in \\d+ ms$")), QStringLiteral(" in N ms")),
                 QStringLiteral("lab load 8 calls of bench: peak in flight %1 (max_concurrency %2), 8 answered, 0 failed, in N ms")
                     .arg(peak)
                     .arg(limit));
        QCOMPARE(server->stats().requests, int64_t(8));  // the check's GET /models is not a completion
        QCOMPARE(server->stats().peakInFlight, peak);
    }

    void badTeamIsBadInput()
    {
        const auto path = m_dir.filePath(QStringLiteral("broken.team.json"));
        std::ofstream(path.toStdString()) << "{ \"conclave\": 1, ";
        const auto r = check(path, QProcessEnvironment::systemEnvironment());
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.lines.isEmpty());
        QVERIFY(r.err.contains(path));
    }
};

QTEST_GUILESS_MAIN(TestCliBackends)
#include "tst_clibackends.moc"
