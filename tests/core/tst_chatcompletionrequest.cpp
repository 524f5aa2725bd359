// ChatCompletionRequest: what a served team reads of a chat completion body,
// the exact 400 body for each mistake, the fields it ignores, and the two
// renderings of a conversation as a run's input.
#include <QtTest>

#include "conclave/serve/ChatCompletionRequest.h"

using namespace conclave;

namespace {

const char* kConversation = R"({"model": "triage", "messages": [)"
                             R"({"role": "system", "content": "Be brief."},)"
                             R"({"role": "user", "content": "What is 2+2?"},)"
                             R"({"role": "assistant", "content": "4"},)"
                             R"({"role": "user", "content": [{"type": "text", "text": "And 3+3?"},)"
                             R"({"type": "text", "text": "Only the number."}]}]})";

} // namespace

class TestChatCompletionRequest : public QObject {
    Q_OBJECT

private slots:
    void readsARequest()
    {
        const auto parsed = ChatCompletionRequest::parse(
            R"({"model": "triage", "messages": [{"role": "user", "content": "hi"}], "stream": true,)"
            R"("stream_options": {"include_usage": true}, "seed": 7, "n": 1, "temperature": 0.2,)"
            R"("max_tokens": 50, "top_p": 1, "tools": [], "user": "u1"})");
        const auto* r = std::get_if<ChatCompletionRequest>(&parsed);
        QVERIFY(r);
        QCOMPARE(r->model, std::string("triage"));
        QCOMPARE(r->messages.size(), size_t(1));
        QVERIFY(r->stream);
        QVERIFY(r->includeUsage);
        QCOMPARE(*r->seed, uint64_t(7));
        QCOMPARE(r->ignored, (std::vector<std::string>{"max_tokens", "temperature", "top_p", "user"}));
    }

    void rendersTheInput()
    {
        const auto parsed = ChatCompletionRequest::parse(kConversation);
        const auto& r = std::get<ChatCompletionRequest>(parsed);
        QCOMPARE(std::get<std::string>(r.input(ServeInput::LastUser)), std::string("And 3+3?\nOnly the number."));
        QCOMPARE(std::get<std::string>(r.input(ServeInput::Transcript)),
                 std::string("System: Be brief.\n\nUser: What is 2+2?\n\nAssistant: 4\n\n"
                             "User: And 3+3?\nOnly the number."));
        const auto noUser =
            std::get<ChatCompletionRequest>(ChatCompletionRequest::parse(
                R"({"model": "m", "messages": [{"role": "system", "content": "x"}]})"));
        const auto error = std::get<ServeError>(noUser.input(ServeInput::LastUser));
        QCOMPARE(error.body(), std::string("{\"error\":{\"message\":\"messages: no message has the role \\\"user\\\"\","
                                           R"("type":"invalid_request_error","param":"messages","code":null}})"
                                           "\n"));
        QCOMPARE(std::get<std::string>(noUser.input(ServeInput::Transcript)), std::string("System: x"));
    }

    void refusesMistakes_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("code");
        const QString msgs = R"("messages": [{"role": "user", "content": "hi"}])";
        QTest::newRow("truncated") << R"({"model": "triage", "messages": [)"
                                   << "the body is not valid JSON: parse error at line 1, column 34: syntax error "
                                      "while parsing value - unexpected end of input; expected '[', '{', or a literal"
                                   << "" << "";
        QTest::newRow("array") << "[]" << "the body must be a JSON object" << "" << "";
        QTest::newRow("no model") << "{" + msgs + "}" << "model: required" << "model" << "";
        QTest::newRow("model type") << R"({"model": 3, )" + msgs + "}" << "model: expected a string" << "model" << "";
        QTest::newRow("no messages") << R"({"model": "m", "messages": []})"
                                     << "messages: expected a non-empty array of messages" << "messages" << "";
        QTest::newRow("role") << R"({"model": "m", "messages": [{"role": "robot", "content": "x"}]})"
                              << "messages[0].role: expected system, developer, user, assistant or tool, got \"robot\""
                              << "messages[0].role" << "";
        QTest::newRow("content") << R"({"model": "m", "messages": [{"role": "user", "content": 5}]})"
                                 << "messages[0].content: expected a string or an array of text parts"
                                 << "messages[0].content" << "";
        QTest::newRow("image") << R"({"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]})"
                               << "unsupported: messages[0].content[0]: parts of type \"image_url\" (a served team "
                                  "reads text)"
                               << "messages[0].content[0]" << "unsupported";
        QTest::newRow("stream") << R"({"model": "m", "stream": "yes", )" + msgs + "}"
                                << "stream: expected true or false" << "stream" << "";
        QTest::newRow("seed") << R"({"model": "m", "seed": 1.5, )" + msgs + "}" << "seed: expected an integer"
                              << "seed" << "";
        QTest::newRow("n zero") << R"({"model": "m", "n": 0, )" + msgs + "}"
                                << "n: expected a whole number of at least 1" << "n" << "";
        QTest::newRow("n two") << R"({"model": "m", "n": 2, )" + msgs + "}"
                               << "unsupported: n > 1 (a team gives one answer a request)" << "n" << "unsupported";
        QTest::newRow("tools") << R"({"model": "m", "tools": [{"type": "function"}], )" + msgs + "}"
                               << "unsupported: tools (a served team calls no tools of the client's)" << "tools"
                               << "unsupported";
    }
    void refusesMistakes()
    {
        QFETCH(QString, body);
        QFETCH(QString, message);
        QFETCH(QString, param);
        QFETCH(QString, code);
        const auto parsed = ChatCompletionRequest::parse(body.toStdString());
        const auto* error = std::get_if<ServeError>(&parsed);
        QVERIFY(error);
        QCOMPARE(error->status, 400);
        QCOMPARE(QString::fromStdString(error->message), message);
        QCOMPARE(QString::fromStdString(error->param), param);
        QCOMPARE(QString::fromStdString(error->code), code);
        QCOMPARE(error->type, std::string("invalid_request_error"));
    }
};

QTEST_GUILESS_MAIN(TestChatCompletionRequest)
#include "tst_chatcompletionrequest.moc"
