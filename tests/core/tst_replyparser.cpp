// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/engine/ReplyParser.h"

#include <string>
#include <vector>

using namespace conclave;

class TestReplyParser : public QObject {
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<double>("confidence");

        QTest::newRow("both lines") << "Some reasoning.\nAnswer: 783\nConfidence: 0.83" << "783" << 0.83;
        QTest::newRow("answer normalized") << "Answer:   Paris.  \nConfidence: 0.9" << "paris" << 0.9;
        QTest::newRow("upper case keys") << "ANSWER: Yes\nCONFIDENCE: 0.25" << "yes" << 0.25;
        QTest::newRow("indented lines") << "  Answer: tokyo\n\t Confidence: 0.5" << "tokyo" << 0.5;
        QTest::newRow("percent confidence") << "Answer: 4\nConfidence: 85%" << "4" << 0.85;
        QTest::newRow("confidence above one clamped") << "Answer: 4\nConfidence: 7" << "4" << 1.0;
        QTest::newRow("negative confidence clamped") << "Answer: 4\nConfidence: -0.5" << "4" << 0.0;
        QTest::newRow("confidence not a number") << "Answer: 4\nConfidence: high" << "4" << 0.5;
        QTest::newRow("confidence nan ignored") << "Answer: 4\nConfidence: nan" << "4" << 0.5;
        QTest::newRow("confidence infinity ignored") << "Answer: 4\nConfidence: -inf%" << "4" << 0.5;
        QTest::newRow("no confidence line") << "Answer: 4" << "4" << 0.5;
        QTest::newRow("no answer line: last line") << "I think so.\nThe result is 12." << "the result is 12" << 0.5;
        QTest::newRow("no answer line, trailing blank lines") << "first\nsecond\n\n  \n" << "second" << 0.5;
        QTest::newRow("the last answer line wins") << "Answer: 1\nAnswer: 2\nConfidence: 0.4" << "2" << 0.4;
        QTest::newRow("empty reply") << "" << "" << 0.5;
        QTest::newRow("windows line ends") << "Answer: Paris\r\nConfidence: 0.7\r\n" << "paris" << 0.7;
        QTest::newRow("confidence before answer") << "Confidence: 0.6\nAnswer: no" << "no" << 0.6;
    }

    void parse()
    {
        QFETCH(QString, reply);
        QFETCH(QString, answer);
        QFETCH(double, confidence);
        const auto parsed = ReplyParser::parse(reply.toStdString());
        QCOMPARE(q(parsed.answer), answer);
        QCOMPARE(parsed.confidence, confidence);
    }

    // Past ReplyParser::kMaxReplyBytes (1 MiB) a reply is not read.
    void firstMebibyteOnly_data()
    {
        constexpr size_t kMax = ReplyParser::kMaxReplyBytes;
        QCOMPARE(kMax, size_t(1048576));
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<int>("subtasks");
        QTest::addColumn<QString>("route"); // among math, facts
        const auto bytes = [](const std::string& s) { return QByteArray(s.data(), qsizetype(s.size())); };
        const std::string filler(kMax - 11, 'x'); // then "\n" and 10 bytes reach the limit
        QTest::newRow("an answer line that ends at the limit")
            << bytes(filler + "\nAnswer: 42") << QByteArray("42") << 2 << "";
        QTest::newRow("an answer line the limit cuts")
            << bytes(filler + "\nAnswer: 420") << QByteArray("42") << 2 << "";
        QTest::newRow("a character the limit would split is left out")
            << bytes(filler + "\nAnswer: a\xC3\xA9") << QByteArray("a") << 2 << "";
        QTest::newRow("an answer line past the limit")
            << bytes(std::string(kMax, 'x') + "\nAnswer: 42") << QByteArray(200, 'x') << 1 << "";
        QTest::newRow("a label past the limit") << bytes(std::string(kMax, ' ') + "math") << QByteArray() << 0 << "";
        std::string list;
        for (size_t i = 0; i < 2 * kMax / 8; ++i)
            list += "- abcde\n"; // 8 bytes
        QTest::newRow("2 MiB of subtasks") << bytes(list) << QByteArray("- abcde") << int(kMax / 8) << "";
    }
    void firstMebibyteOnly()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QByteArray, answer);
        QFETCH(int, subtasks);
        QFETCH(QString, route);
        const std::string_view text(reply.constData(), size_t(reply.size()));
        QCOMPARE(QByteArray::fromStdString(ReplyParser::parse(text).answer), answer);
        QCOMPARE(int(ReplyParser::subtasks(text).size()), subtasks);
        QCOMPARE(q(ReplyParser::routeLabel(text, {"math", "facts"})), route);
    }

    void normalizeAnswer_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("normalized");

        QTest::newRow("already normal") << "paris" << "paris";
        QTest::newRow("capitals and trailing period") << "Paris." << "paris";
        QTest::newRow("surrounding space") << "  paris " << "paris";
        QTest::newRow("inner spaces collapsed") << "New   York\tCity" << "new york city";
        QTest::newRow("several trailing marks") << "yes!.!" << "yes";
        QTest::newRow("double quotes") << "\"Tokyo\"" << "tokyo";
        QTest::newRow("single quotes") << "'no'" << "no";
        QTest::newRow("mismatched quotes kept") << "\"no'" << "\"no'";
        QTest::newRow("number with decimal point kept") << "3.5" << "3.5";
        QTest::newRow("empty") << "" << "";
        QTest::newRow("only space") << "   " << "";
        QTest::newRow("only a period") << "." << "";
    }

    void normalizeAnswer()
    {
        QFETCH(QString, raw);
        QFETCH(QString, normalized);
        QCOMPARE(q(ReplyParser::normalizeAnswer(raw.toStdString())), normalized);
    }

    void normalizedAnswersVoteTogether()
    {
        QCOMPARE(q(ReplyParser::normalizeAnswer("Paris.")), q(ReplyParser::normalizeAnswer(" paris")));
    }

    void routeLabel_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QString>("label");

        const QStringList mathFacts{"math", "facts"};
        QTest::newRow("exact") << "facts" << mathFacts << "facts";
        QTest::newRow("exact, other case and period") << "FACTS." << mathFacts << "facts";
        QTest::newRow("mentioned in a sentence") << "The route is math, I think." << mathFacts << "math";
        QTest::newRow("earliest mention wins") << "facts rather than math" << mathFacts << "facts";
        QTest::newRow("earliest mention wins, reversed") << "math rather than facts" << mathFacts << "math";
        QTest::newRow("none") << "I cannot decide" << mathFacts << "";
        QTest::newRow("no labels") << "math" << QStringList{} << "";
        QTest::newRow("label keeps its own spelling") << "compound" << QStringList{"single", "Compound"} << "Compound";
        QTest::newRow("exact beats an earlier substring") << "single" << QStringList{"sing", "single"} << "single";
    }

    void routeLabel()
    {
        QFETCH(QString, reply);
        QFETCH(QStringList, labels);
        QFETCH(QString, label);
        QCOMPARE(q(ReplyParser::routeLabel(reply.toStdString(), toStd(labels))), label);
    }

    void subtasks_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QStringList>("subtasks");

        QTest::newRow("numbered with periods") << "1. a\n2. b" << QStringList{"a", "b"};
        QTest::newRow("numbered with parentheses") << "1) first part\n2) second part\n"
                                                   << QStringList{"first part", "second part"};
        QTest::newRow("two-digit numbers") << "9. i\n10. j" << QStringList{"i", "j"};
        QTest::newRow("dashes") << "- one\n- two" << QStringList{"one", "two"};
        QTest::newRow("unnumbered lines count") << "alpha\n\n  beta  " << QStringList{"alpha", "beta"};
        QTest::newRow("number without a mark is text") << "2024 was a year" << QStringList{"2024 was a year"};
        QTest::newRow("empty items dropped") << "1. \n2. x" << QStringList{"x"};
        QTest::newRow("empty") << "" << QStringList{};
    }

    void subtasks()
    {
        QFETCH(QString, reply);
        QFETCH(QStringList, subtasks);
        QCOMPARE(toQt(ReplyParser::subtasks(reply.toStdString())), subtasks);
    }

    // The first `max` subtasks; the further subtask lines are counted (empty lines are not subtasks).
    void subtasksUpTo_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<int>("max");
        QTest::addColumn<QStringList>("subtasks");
        QTest::addColumn<int>("dropped");

        QTest::newRow("below the limit") << "1. a\n2. b" << 3 << QStringList{"a", "b"} << 0;
        QTest::newRow("at the limit") << "1. a\n2. b\n3. c" << 3 << QStringList{"a", "b", "c"} << 0;
        QTest::newRow("one over") << "1. a\n2. b\n3. c\n4. d" << 3 << QStringList{"a", "b", "c"} << 1;
        QTest::newRow("empty lines and items are not counted")
            << "1. a\n\n2. \n3. b\n  \n4. c\n5. d" << 1 << QStringList{"a"} << 3;
        QTest::newRow("limit 0 keeps nothing") << "a\nb" << 0 << QStringList{} << 2;
        QTest::newRow("empty reply") << "" << 2 << QStringList{} << 0;
    }

    void subtasksUpTo()
    {
        QFETCH(QString, reply);
        QFETCH(int, max);
        QFETCH(QStringList, subtasks);
        QFETCH(int, dropped);
        const auto list = ReplyParser::subtasksUpTo(reply.toStdString(), size_t(max));
        QCOMPARE(toQt(list.subtasks), subtasks);
        QCOMPARE(list.dropped, size_t(dropped));
    }

    void hundredThousandLines()
    {
        // 888,895 bytes: under the 1 MiB a reply is read over, so every line counts.
        std::string reply;
        for (int i = 1; i <= 100000; ++i)
            reply += std::to_string(i) + ". s\n";
        QCOMPARE(reply.size(), size_t(888895));
        const auto list = ReplyParser::subtasksUpTo(reply, 3);
        QCOMPARE(toQt(list.subtasks), (QStringList{"s", "s", "s"}));
        QCOMPARE(list.dropped, size_t(99997));
    }
};

QTEST_GUILESS_MAIN(TestReplyParser)
#include "tst_replyparser.moc"
