// ChatStreamDecoder and ChatRequest: the JSON of a chat completion, streamed
// and not.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/http/ChatRequest.h"
#include "conclave/http/ChatStreamDecoder.h"

#include <nlohmann/json.hpp>

using namespace conclave;
using json = nlohmann::json;

namespace {

SseEvent data(std::string text) { return SseEvent{{}, std::move(text)}; }

std::string delta(const std::string& content)
{
    return json{{"choices", {{{"index", 0}, {"delta", {{"content", content}}}, {"finish_reason", nullptr}}}}}.dump();
}

} // namespace

class TestChatStreamDecoder : public QObject {
    Q_OBJECT

private slots:
    void contentUsageAndDone()
    {
        ChatStreamDecoder d;
        QCOMPARE(q(d.take(data(R"({"choices":[{"index":0,"delta":{"role":"assistant"}}]})"))), QString());
        QCOMPARE(q(d.take(data(delta("Hel")))), QStringLiteral("Hel"));
        QCOMPARE(q(d.take(data(delta("lo")))), QStringLiteral("lo"));
        QVERIFY(!d.finished());
        QCOMPARE(q(d.take(data(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})"))), QString());
        QVERIFY(d.finished());
        QCOMPARE(q(d.take(data(R"({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2}})"))), QString());
        QCOMPARE(d.promptTokens().value_or(-1), int64_t(7));
        QCOMPARE(d.completionTokens().value_or(-1), int64_t(2));
        QVERIFY(!d.done());
        d.take(data("[DONE]"));
        QVERIFY(d.done());
        QVERIFY(!d.error());
        QCOMPARE(d.deltas(), int64_t(2));
        QCOMPARE(q(d.take(data(delta("late")))), QString());  // nothing after [DONE]
    }

    void nullContentAndUsageNull()
    {
        ChatStreamDecoder d;
        QCOMPARE(q(d.take(data(R"({"choices":[{"delta":{"content":null}}],"usage":null})"))), QString());
        QVERIFY(!d.promptTokens());
        QVERIFY(!d.error());
    }

    void errorInsideTheStream_data()
    {
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("chunk");
        QTest::addColumn<QString>("message");
        QTest::newRow("error object") << "" << R"({"error":{"message":"overloaded","type":"server_error"}})"
                                      << "overloaded";
        QTest::newRow("flat") << "" << R"({"object":"error","message":"bad","type":"BadRequestError","code":400})"
                              << "bad";
        QTest::newRow("named event") << "error" << R"({"message":"gone"})" << "gone";
        QTest::newRow("not json") << "" << "{oops" << "the server sent a chunk that is not JSON: {oops";
        // JSON nests at most 256 levels wherever Conclave reads it (parseJsonQuietly).
        QString deep = R"({"choices":)";
        for (int i = 0; i < 256; ++i)
            deep += '[';
        QTest::newRow("nested 257 deep") << "" << deep + QString(256, ']') + '}'
                                         << "the server sent a chunk that is not JSON: " + deep.left(80);
    }
    void errorInsideTheStream()
    {
        QFETCH(QString, event);
        QFETCH(QString, chunk);
        QFETCH(QString, message);
        ChatStreamDecoder d;
        QCOMPARE(q(d.take(data(delta("a")))), QStringLiteral("a"));
        d.take(SseEvent{event.toStdString(), chunk.toStdString()});
        QVERIFY(d.error());
        QCOMPARE(q(d.error()->message), message);
        QCOMPARE(q(d.take(data(delta("b")))), QString());
    }

    void requestBody()
    {
        ModelRequest r;
        r.model = "gpt-x";
        r.system = "sys";
        r.prompt = "hi";
        r.params.temperature = 0.5;
        r.params.maxTokens = 64;
        r.params.stop = std::vector<std::string>{"END"};
        r.params.extra = json{{"seed", 7}, {"model", "not this"}};
        auto j = json::parse(ChatRequest::body(r, true, "max_tokens"));
        QCOMPARE(q(j["model"].get<std::string>()), QStringLiteral("gpt-x"));
        QCOMPARE(j["messages"].size(), size_t(2));
        QCOMPARE(q(j["messages"][0]["role"].get<std::string>()), QStringLiteral("system"));
        QCOMPARE(q(j["messages"][1]["content"].get<std::string>()), QStringLiteral("hi"));
        QCOMPARE(j["max_tokens"].get<int>(), 64);
        QVERIFY(!j.contains("max_completion_tokens"));
        QCOMPARE(j["temperature"].get<double>(), 0.5);
        QCOMPARE(j["seed"].get<int>(), 7);
        QVERIFY(j["stream"].get<bool>());
        QVERIFY(j["stream_options"]["include_usage"].get<bool>());
        QCOMPARE(j["stop"][0].get<std::string>(), std::string("END"));

        r.system.clear();
        j = json::parse(ChatRequest::body(r, false, "max_completion_tokens"));
        QCOMPARE(j["messages"].size(), size_t(1));
        QCOMPARE(j["max_completion_tokens"].get<int>(), 64);
        QVERIFY(!j.contains("max_tokens"));
        QVERIFY(!j["stream"].get<bool>());
        QVERIFY(!j.contains("stream_options"));
    }

    void completion()
    {
        auto c = ChatRequest::parse(
            R"({"choices":[{"message":{"role":"assistant","content":"Paris"}}],"usage":{"prompt_tokens":5,"completion_tokens":1}})");
        QVERIFY(!c.error);
        QCOMPARE(q(c.text), QStringLiteral("Paris"));
        QCOMPARE(c.promptTokens.value_or(-1), int64_t(5));
        c = ChatRequest::parse(R"({"error":{"message":"nope"}})");
        QVERIFY(c.error);
        QCOMPARE(q(c.error->message), QStringLiteral("nope"));
        c = ChatRequest::parse("not json");
        QVERIFY(c.error);
        c = ChatRequest::parse(R"({"choices":[]})");
        QCOMPARE(q(c.error->message), QStringLiteral("the server's answer has no choices"));
    }
};

QTEST_GUILESS_MAIN(TestChatStreamDecoder)
#include "tst_chatstreamdecoder.moc"
