// OpenAiErrors: the error shapes servers send, what may be retried, and the
// waits they ask for.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/http/OpenAiErrors.h"

using namespace conclave;

class TestOpenAiErrors : public QObject {
    Q_OBJECT

private slots:
    void shapes_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("code");
        QTest::newRow("openai") << R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})"
                                << "Rate limit reached" << "requests" << "rate_limit_exceeded";
        QTest::newRow("vllm flat") << R"({"object":"error","message":"model not found","type":"NotFoundError","code":404})"
                                   << "model not found" << "NotFoundError" << "404";
        QTest::newRow("ollama string") << R"({"error":"model 'x' not found"})" << "model 'x' not found" << "" << "";
        QTest::newRow("null code") << R"({"error":{"message":"m","type":"t","code":null}})" << "m" << "t" << "";
        QTest::newRow("not json") << "<html>Bad Gateway</html>" << "-" << "" << "";
        QTest::newRow("json without an error") << R"({"choices":[]})" << "-" << "" << "";
        QTest::newRow("empty error object") << R"({"error":{}})" << "-" << "" << "";
    }
    void shapes()
    {
        QFETCH(QString, body);
        QFETCH(QString, message);
        QFETCH(QString, type);
        QFETCH(QString, code);
        const auto e = OpenAiErrors::fromBody(body.toStdString());
        if (message == QStringLiteral("-")) {
            QVERIFY(!e);
            return;
        }
        QVERIFY(e);
        QCOMPARE(q(e->message), message);
        QCOMPARE(q(e->type), type);
        QCOMPARE(q(e->code), code);
    }

    void retryableStatus_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("retryable");
        for (int s : {408, 409, 429, 500, 502, 503, 504, 599})
            QTest::addRow("%d", s) << s << "" << true;
        for (int s : {400, 401, 403, 404, 413, 422})
            QTest::addRow("%d", s) << s << "" << false;
        QTest::newRow("429 insufficient_quota") << 429 << "insufficient_quota" << false;
    }
    void retryableStatus()
    {
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(bool, retryable);
        std::optional<ServerError> e;
        if (!code.isEmpty())
            e = ServerError{"m", "insufficient_quota", code.toStdString()};
        QCOMPARE(OpenAiErrors::retryableStatus(status, e), retryable);
    }

    void inStream()
    {
        QVERIFY(OpenAiErrors::retryableInStream({"m", "server_error", ""}));
        QVERIFY(OpenAiErrors::retryableInStream({"m", "", "503"}));
        QVERIFY(!OpenAiErrors::retryableInStream({"m", "invalid_request_error", ""}));
        QVERIFY(!OpenAiErrors::retryableInStream({"m", "", "400"}));
        QVERIFY(!OpenAiErrors::retryableInStream({"m", "", "insufficient_quota"}));
    }

    void retryAfter_data()
    {
        QTest::addColumn<QString>("retryAfterMs");  // header values; "-" leaves the header out
        QTest::addColumn<QString>("retryAfter");
        QTest::addColumn<int>("expected");           // -1: none
        QTest::newRow("neither") << "-" << "-" << -1;
        QTest::newRow("seconds") << "-" << "3" << 3000;
        QTest::newRow("fractional seconds") << "-" << "0.25" << 250;
        QTest::newRow("milliseconds") << "1500" << "-" << 1500;
        QTest::newRow("milliseconds win") << "120" << "5" << 120;
        QTest::newRow("bad ms falls back") << "soon" << "2" << 2000;
        QTest::newRow("capped") << "-" << "86400" << 60000;
        QTest::newRow("http date") << "-" << "Thu, 01 Jan 2026 00:00:10 GMT" << 10000;
        QTest::newRow("http date past") << "-" << "Wed, 31 Dec 2025 23:00:00 GMT" << 0;
        QTest::newRow("garbage") << "-" << "tomorrow-ish" << -1;
        QTest::newRow("negative") << "-" << "-5" << -1;
    }
    void retryAfter()
    {
        QFETCH(QString, retryAfterMs);
        QFETCH(QString, retryAfter);
        QFETCH(int, expected);
        std::map<std::string, std::string> headers;
        if (retryAfterMs != QStringLiteral("-"))
            headers["retry-after-ms"] = retryAfterMs.toStdString();
        if (retryAfter != QStringLiteral("-"))
            headers["retry-after"] = retryAfter.toStdString();
        const std::time_t now = 1767225600;  // 2026-01-01T00:00:00Z
        QCOMPARE(OpenAiErrors::retryAfterMs(headers, now).value_or(-1), int64_t(expected));
    }

    void describe()
    {
        QCOMPARE(q(OpenAiErrors::describe(500, ServerError{"boom", "", ""}, "")), QStringLiteral("boom"));
        QCOMPARE(q(OpenAiErrors::describe(502, std::nullopt, "<html>Bad\nGateway</html>")),
                 QStringLiteral("HTTP 502: <html>Bad?Gateway</html>"));
        QCOMPARE(q(OpenAiErrors::describe(503, std::nullopt, "")), QStringLiteral("HTTP 503"));
        QCOMPARE(q(OpenAiErrors::describe(400, ServerError{"", "", "bad_thing"}, "")), QStringLiteral("HTTP 400: bad_thing"));
        QCOMPARE(q(OpenAiErrors::describe(502, std::nullopt, "\xff\xfe")), QStringLiteral("HTTP 502: ??"));
    }

    void redact()
    {
        QCOMPARE(q(OpenAiErrors::redact("key sk-1 and sk-1 again", "sk-1")),
                 QStringLiteral("key [redacted] and [redacted] again"));
        QCOMPARE(q(OpenAiErrors::redact("nothing", "")), QStringLiteral("nothing"));
    }
};

QTEST_GUILESS_MAIN(TestOpenAiErrors)
#include "tst_openaierrors.moc"
