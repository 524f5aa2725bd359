// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/engine/RouterLogic.h"

#include <string>
#include <vector>

using namespace conclave;

Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(std::vector<size_t>)

namespace {

// Every regex keyword is written "/.../"; the 4096-byte bound is RouterLogic's.
const RouteTable kRoutes{
    {"math", {"calculate", "/[0-9]+ \\+ [0-9]+/"}},
    {"facts", {"capital"}},
    {"code", {"/print\\(.*\\)/"}},
};

} // namespace

class TestRouterLogic : public QObject {
    Q_OBJECT

private slots:
    void keywordLabels_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("fallback");  // empty: none
        QTest::addColumn<QStringList>("labels");

        QTest::newRow("substring") << "Calculate 323 + 460." << "" << QStringList{"math"};
        QTest::newRow("case-insensitive substring") << "the CAPITAL of France" << "" << QStringList{"facts"};
        QTest::newRow("regex") << "what is 2 + 2" << "" << QStringList{"math"};
        QTest::newRow("regex with escapes") << "x = 1\nprint(x)" << "" << QStringList{"code"};
        QTest::newRow("several labels, table order") << "calculate the capital, then print(it)" << ""
                                                     << QStringList{"code", "facts", "math"};
        QTest::newRow("no match") << "hello there" << "" << QStringList{};
        QTest::newRow("no match: the default") << "hello there" << "facts" << QStringList{"facts"};
        QTest::newRow("a match: no default added") << "calculate" << "facts" << QStringList{"math"};
        QTest::newRow("empty text: the default") << "" << "code" << QStringList{"code"};
    }

    void keywordLabels()
    {
        QFETCH(QString, text);
        QFETCH(QString, fallback);
        QFETCH(QStringList, labels);
        const std::optional<std::string> def =
            fallback.isEmpty() ? std::nullopt : std::optional<std::string>(fallback.toStdString());
        QCOMPARE(toQt(RouterLogic::keywordLabels(kRoutes, def, text.toStdString())), labels);
    }

    void keywordMatches_data()
    {
        QTest::addColumn<QString>("keyword");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("matches");

        QTest::newRow("substring") << "sum of" << "the SUM OF two" << true;
        QTest::newRow("substring absent") << "sum of" << "the sum if two" << false;
        QTest::newRow("empty keyword") << "" << "anything" << false;
        QTest::newRow("one slash is a plain keyword") << "/" << "a/b" << true;
        QTest::newRow("regex") << "/^what/" << "What is it" << true;
        QTest::newRow("regex anchored, no match") << "/^what/" << "so what" << false;
        QTest::newRow("regex case-insensitive") << "/PARIS/" << "paris" << true;
        QTest::newRow("regex alternatives") << "/cat|dog/" << "hotdog" << true;
        QTest::newRow("invalid regex never matches") << "/([a-/" << "([a-" << false;
        QTest::newRow("slashes inside a plain keyword") << "a/b" << "xa/by" << true;
    }

    void keywordMatches()
    {
        QFETCH(QString, keyword);
        QFETCH(QString, text);
        QFETCH(bool, matches);
        QCOMPARE(RouterLogic::keywordMatches(keyword.toStdString(), text.toStdString()), matches);
    }

    void regexSeesABoundedText()
    {
        // std::regex recurses per character, so a regex only sees the first 4096 bytes;
        // a plain keyword sees everything.
        const std::string text = std::string(5000, 'a') + "needle";
        QVERIFY(!RouterLogic::keywordMatches("/needle/", text));
        QVERIFY(RouterLogic::keywordMatches("needle", text));
        QVERIFY(RouterLogic::keywordMatches("/needle/", std::string(4000, 'a') + "needle"));
    }

    void topTargets_data()
    {
        QTest::addColumn<std::vector<double>>("scores");
        QTest::addColumn<int>("topK");
        QTest::addColumn<double>("minWeight");
        QTest::addColumn<std::vector<size_t>>("chosen");

        const std::vector<double> three{0.1, 0.7, 0.2};
        QTest::newRow("top 1") << three << 1 << 0.0 << std::vector<size_t>{1};
        QTest::newRow("top 2, in target order") << three << 2 << 0.0 << std::vector<size_t>{1, 2};
        QTest::newRow("top 3, min_weight drops the smallest") << three << 3 << 0.15 << std::vector<size_t>{1, 2};
        QTest::newRow("top 2, min_weight drops the second") << three << 2 << 0.25 << std::vector<size_t>{1};
        QTest::newRow("the best always stays") << std::vector<double>{0.3, 0.3, 0.4} << 1 << 0.9
                                               << std::vector<size_t>{2};
        QTest::newRow("ties go to the earlier target") << std::vector<double>{0.5, 0.5, 0.5} << 2 << 0.0
                                                       << std::vector<size_t>{0, 1};
        QTest::newRow("top_k 0 means 1") << std::vector<double>{0.2, 0.8} << 0 << 0.0 << std::vector<size_t>{1};
        QTest::newRow("top_k beyond the targets") << std::vector<double>{0.2, 0.8} << 5 << 0.0
                                                  << std::vector<size_t>{0, 1};
        QTest::newRow("stops at the first one below min_weight")
            << std::vector<double>{0.5, 0.3, 0.2} << 3 << 0.25 << std::vector<size_t>{0, 1};
        QTest::newRow("all zero: min_weight cannot apply") << std::vector<double>{0, 0, 0} << 2 << 0.5
                                                           << std::vector<size_t>{0, 1};
        QTest::newRow("no targets") << std::vector<double>{} << 2 << 0.0 << std::vector<size_t>{};
    }

    void topTargets()
    {
        QFETCH(std::vector<double>, scores);
        QFETCH(int, topK);
        QFETCH(double, minWeight);
        QFETCH(std::vector<size_t>, chosen);
        const auto actual = RouterLogic::topTargets(scores, size_t(topK), minWeight);
        QVERIFY2(actual == chosen, qPrintable(QStringLiteral("got %1 targets").arg(actual.size())));
    }
};

QTEST_GUILESS_MAIN(TestRouterLogic)
#include "tst_routerlogic.moc"
