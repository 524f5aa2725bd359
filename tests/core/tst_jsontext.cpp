#include "conclave/io/CanonicalJson.h"
#include "conclave/io/JsonText.h"

#include <QtTest>

using namespace conclave;

namespace {

QString firstProblem(std::string_view text, const JsonLimits& limits = {})
{
    const auto parsed = parseJsonText(text, limits);
    if (parsed.problems.empty())
        return {};
    return QString::fromStdString(formatProblem(parsed.problems.front(), "f.json"));
}

} // namespace

class TestJsonText : public QObject {
    Q_OBJECT

private slots:
    void problems_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray("") << "f.json:1:1: the file is empty; expected a JSON object";
        QTest::newRow("blank") << QByteArray(" \n\t\n") << "f.json:1:1: the file is empty; expected a JSON object";
        QTest::newRow("truncated") << QByteArray("{\"a\": [1,\n")
                                   << "f.json:2:1: syntax error while parsing value - unexpected end of input; "
                                      "expected '[', '{', or a literal";
        QTest::newRow("bad utf8") << QByteArray("{\"a\":\n \"x\xC3\x28\"}")
                                  << "f.json:2:5: syntax error while parsing value - invalid string: ill-formed "
                                     "UTF-8 byte; last read: '\"x\\xC3('";
        QTest::newRow("string token points at its start")
            << QByteArray("{\"a\": 1 \"b\": 2}")
            << "f.json:1:9: syntax error while parsing object - unexpected string literal; expected '}'";
        QTest::newRow("comment") << QByteArray("{/* no */}")
                                 << "f.json:1:2: syntax error while parsing object key - invalid literal; last read: "
                                    "'{/'; expected string literal";
        QTest::newRow("bom") << QByteArray("\xEF\xBB\xBF{}")
                             << "f.json:1:1: warning: the file starts with a UTF-8 byte order mark; it is dropped "
                                "on save";
        QTest::newRow("too deep") << QByteArray(300, '[') << "f.json:1:257: nesting is deeper than 256 levels";
        QTest::newRow("256 levels") << QByteArray(256, '[') + QByteArray(256, ']') << "";
        QTest::newRow("257 levels, objects and arrays")
            << QByteArray("{\"a\":\n") + QByteArray(255, '[') + "{}" + QByteArray(255, ']') + "}"
            << "f.json:2:256: nesting is deeper than 256 levels";
        QTest::newRow("brackets in strings do not count")
            << QByteArray("{\"a\": \"" + QByteArray(300, '[') + "\"}") << "";
    }

    void problems()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QCOMPARE(firstProblem(std::string_view(text.constData(), size_t(text.size()))), expected);
    }

    void limits()
    {
        JsonLimits small;
        small.maxBytes = 10;
        QCOMPARE(firstProblem("{\"a\": \"0123456789\"}", small), QString("f.json: the file is 19 bytes; the limit is 10"));
        JsonLimits strings;
        strings.maxStringBytes = 4;
        QCOMPARE(firstProblem("{\"n\": [\"ok\", \"too long\"]}", strings),
                 QString("f.json: /n/1: string is 8 bytes long; the limit is 4"));
        const auto parsed = parseJsonText("{\"n\": \"too long\"}", strings);
        QVERIFY(!parsed.value);
    }

    // The quiet parsers (server replies, the run store's columns): the same
    // nesting limit, malformed or too deep text as a discarded value.
    void quietly_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("dump"); // empty: discarded
        QTest::newRow("an object, keys in file order") << QByteArray("{\"b\": 1, \"a\": [2]}") << "{\"b\":1,\"a\":[2]}";
        QTest::newRow("256 levels") << QByteArray(256, '[') + QByteArray(256, ']')
                                    << QString(256, '[') + QString(256, ']');
        QTest::newRow("257 levels") << QByteArray(257, '[') + QByteArray(257, ']') << "";
        QTest::newRow("1,000,000 levels") << QByteArray(1000000, '[') + QByteArray(1000000, ']') << "";
        QTest::newRow("malformed") << QByteArray("{\"a\": ") << "";
        QTest::newRow("a number too large") << QByteArray("1e999") << "";
        QTest::newRow("empty") << QByteArray() << "";
    }
    void quietly()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, dump);
        const std::string_view view(text.constData(), size_t(text.size()));
        const auto ordered = parseOrderedJsonQuietly(view);
        QCOMPARE(ordered.is_discarded() ? QString() : QString::fromStdString(ordered.dump()), dump);
        const auto sorted = parseJsonQuietly(view);
        QCOMPARE(sorted.is_discarded(), dump.isEmpty());
    }

    void lineColumn()
    {
        QCOMPARE(lineColumnAt("ab\ncd\n", 0), std::make_pair(1, 1));
        QCOMPARE(lineColumnAt("ab\ncd\n", 4), std::make_pair(2, 2));
        QCOMPARE(lineColumnAt("ab", 99), std::make_pair(1, 3));
    }

    void describe()
    {
        QCOMPARE(QString::fromStdString(describeJsonValue("abc")), QString("\"abc\""));
        QCOMPARE(QString::fromStdString(describeJsonValue(nlohmann::json::array())), QString("an array"));
        QCOMPARE(QString::fromStdString(describeJsonValue(nlohmann::json::object())), QString("an object"));
        QCOMPARE(QString::fromStdString(describeJsonValue(nullptr)), QString("null"));
        QCOMPARE(QString::fromStdString(describeJsonValue(2.5)), QString("2.5"));
        QCOMPARE(QString::fromStdString(describeJsonValue(std::string(50, 'x'))),
                 QString("\"" + QString(40, 'x') + "...\" (50 bytes)"));
    }

    void canonicalLayout()
    {
        nlohmann::ordered_json v = nlohmann::ordered_json::object();
        v["pos"] = {1, 2.5};
        v["empty"] = nlohmann::ordered_json::object();
        v["list"] = nlohmann::ordered_json::array();
        v["nested"] = {{"a", {{"b", 1}}}};
        v["long"] = std::vector<std::string>(8, "abcdefghij");
        const std::string expected = "{\n"
                                     "  \"pos\": [1, 2.5],\n"
                                     "  \"empty\": {},\n"
                                     "  \"list\": [],\n"
                                     "  \"nested\": {\n"
                                     "    \"a\": {\n"
                                     "      \"b\": 1\n"
                                     "    }\n"
                                     "  },\n"
                                     "  \"long\": [\n" +
                                     [] {
                                         std::string s;
                                         for (int i = 0; i < 8; ++i)
                                             s += std::string("    \"abcdefghij\"") + (i < 7 ? ",\n" : "\n");
                                         return s;
                                     }() +
                                     "  ]\n"
                                     "}\n";
        QCOMPARE(QString::fromStdString(canonicalJsonText(v)), QString::fromStdString(expected));
        QCOMPARE(nlohmann::ordered_json::parse(canonicalJsonText(v)), v);
    }
};

QTEST_GUILESS_MAIN(TestJsonText)
#include "tst_jsontext.moc"
