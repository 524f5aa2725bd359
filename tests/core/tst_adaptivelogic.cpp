// AdaptiveLogic: an adaptive meeting's decision after a round, rule by rule
// and at each rule's boundary, with the exact note it records; the standing
// taken from the votes; the money format of the budget guard's note.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/engine/AdaptiveLogic.h"

using namespace conclave;

namespace {

Vote vote(const std::string& source, const std::string& answer, double confidence, Status status = Status::Ok)
{
    Vote v;
    v.source = source;
    v.result.status = status;
    v.result.answer = answer;
    v.result.confidence = confidence;
    return v;
}

AdaptiveLogic::Standing standing(int agree, int asked, double confidence, bool ok = true)
{
    AdaptiveLogic::Standing s;
    s.agree = agree;
    s.asked = asked;
    s.result.status = ok ? Status::Ok : Status::Failed;
    s.result.confidence = confidence;
    return s;
}

} // namespace

class TestAdaptiveLogic : public QObject {
    Q_OBJECT

private slots:
    void decide_data()
    {
        QTest::addColumn<double>("consensus");
        QTest::addColumn<double>("threshold");
        QTest::addColumn<int>("maxRounds");
        QTest::addColumn<int>("agree");
        QTest::addColumn<int>("asked");
        QTest::addColumn<double>("confidence");
        QTest::addColumn<int>("round");
        QTest::addColumn<QString>("next");   // empty: no member left
        QTest::addColumn<QString>("budget"); // "" | "cost:MAX:SPENT:EXPECTED" | "tokens:MAX:SPENT:EXPECTED" | "out"
        QTest::addColumn<QString>("note");

        QTest::newRow("consensus, all agree") << 1.0 << 0.8 << 3 << 2 << 2 << 0.5 << 1 << "m3"
                                              << ""
                                              << "stop: 2 of 2 agree (consensus 1.00)";
        QTest::newRow("consensus at its boundary: 2 of 3 >= 0.66") << 0.66 << 0.8 << 3 << 2 << 3 << 0.5 << 2 << "m4"
                                                                   << ""
                                                                   << "stop: 2 of 3 agree (consensus 0.66)";
        QTest::newRow("just short of consensus: 2 of 3 < 0.67") << 0.67 << 0.8 << 3 << 2 << 3 << 0.5 << 2 << "m4"
                                                                << ""
                                                                << "ask m4: 2 of 3 agree, confidence 0.50 < 0.80";
        QTest::newRow("one answer is no consensus, however low the bar")
            << 0.1 << 0.8 << 3 << 1 << 1 << 0.5 << 1 << "m2"
            << ""
            << "ask m2: 1 of 1 agree, confidence 0.50 < 0.80";
        QTest::newRow("threshold at its boundary") << 1.0 << 0.8 << 3 << 1 << 2 << 0.8 << 1 << "m3"
                                                   << ""
                                                   << "stop: confidence 0.80 ≥ threshold 0.80";
        QTest::newRow("consensus before threshold") << 1.0 << 0.8 << 3 << 2 << 2 << 0.9 << 1 << "m3"
                                                    << ""
                                                    << "stop: 2 of 2 agree (consensus 1.00)";
        QTest::newRow("no ok answer: no confidence") << 1.0 << 0.0 << 3 << 0 << 2 << 0.9 << 1 << "m3"
                                                     << "failed"
                                                     << "ask m3: 0 of 2 agree, confidence 0.00 < 0.00";
        QTest::newRow("no member left") << 1.0 << 0.8 << 3 << 1 << 2 << 0.4 << 1 << ""
                                        << ""
                                        << "stop: no member left (1 of 2 agree, confidence 0.40 < 0.80)";
        QTest::newRow("no member left before max_rounds")
            << 1.0 << 0.8 << 1 << 1 << 2 << 0.4 << 1 << ""
            << ""
            << "stop: no member left (1 of 2 agree, confidence 0.40 < 0.80)";
        QTest::newRow("max_rounds") << 1.0 << 0.8 << 2 << 2 << 3 << 0.6 << 2 << "m4"
                                    << ""
                                    << "stop: max_rounds 2 reached (2 of 3 agree, confidence 0.60 < 0.80)";
        QTest::newRow("the budget ran out already") << 1.0 << 0.8 << 3 << 1 << 2 << 0.4 << 1 << "m3"
                                                    << "out"
                                                    << "stop: budget exhausted: max_tokens 100 reached";
        QTest::newRow("cost guard: the next call would pass")
            << 1.0 << 0.8 << 3 << 1 << 2 << 0.4 << 1 << "m3"
            << "cost:0.01:0.008:0.0031"
            << "stop: the next call's expected $0.0031 would pass the budget ($0.0100, $0.0080 spent)";
        QTest::newRow("cost guard: landing exactly on the budget is allowed")
            << 1.0 << 0.8 << 3 << 1 << 2 << 0.4 << 1 << "m3"
            << "cost:0.01:0.008:0.002"
            << "ask m3: 1 of 2 agree, confidence 0.40 < 0.80";
        QTest::newRow("token guard: the next call would pass")
            << 1.0 << 0.8 << 3 << 1 << 2 << 0.4 << 1 << "m3"
            << "tokens:1000:800:201"
            << "stop: the next call's expected 201 tokens would pass the budget (1000 tokens, 800 spent)";
        QTest::newRow("token guard: exactly the budget is allowed") << 1.0 << 0.8 << 3 << 1 << 2 << 0.4 << 1 << "m3"
                                                                    << "tokens:1000:800:200"
                                                                    << "ask m3: 1 of 2 agree, confidence 0.40 < 0.80";
    }

    void decide()
    {
        QFETCH(double, consensus);
        QFETCH(double, threshold);
        QFETCH(int, maxRounds);
        QFETCH(int, agree);
        QFETCH(int, asked);
        QFETCH(double, confidence);
        QFETCH(int, round);
        QFETCH(QString, next);
        QFETCH(QString, budget);
        QFETCH(QString, note);
        const AdaptiveLogic::Rules rules{consensus, threshold, maxRounds};
        AdaptiveLogic::NextCall call;
        call.member = next.toStdString();
        const auto parts = budget.split(':');
        if (parts[0] == "cost") {
            call.maxCostUsd = parts[1].toDouble();
            call.spentUsd = parts[2].toDouble();
            call.expectedUsd = parts[3].toDouble();
        } else if (parts[0] == "tokens") {
            call.maxTokens = parts[1].toLongLong();
            call.spentTokens = parts[2].toLongLong();
            call.expectedTokens = parts[3].toLongLong();
        } else if (parts[0] == "out") {
            call.exhausted = "budget exhausted: max_tokens 100 reached";
        }
        const auto d =
            AdaptiveLogic::decide(rules, standing(agree, asked, confidence, budget != "failed"), round, call);
        QCOMPARE(q(d.note), note);
        QCOMPARE(d.stop, note.startsWith("stop: "));
    }

    void standingIsTheMajorityOverEveryAnswer()
    {
        // a and c agree; b failed but was asked; a tie is not possible here.
        const auto s = AdaptiveLogic::stand(
            {vote("a", "783", 0.9), vote("b", "", 0, Status::Timeout), vote("c", "783", 0.7), vote("d", "780", 0.95)});
        QCOMPARE(s.asked, 4);
        QCOMPARE(s.agree, 2);
        QCOMPARE(q(s.result.answer), QString("783"));
        // AggregatorLogic's majority: share of the ok votes 2/3 x their mean confidence 0.8.
        QCOMPARE(s.result.confidence, 2.0 / 3.0 * 0.8);
        const auto none = AdaptiveLogic::stand({vote("a", "", 0, Status::Failed)});
        QCOMPARE(none.asked, 1);
        QCOMPARE(none.agree, 0);
        QVERIFY(!none.result.ok());
    }
};

QTEST_GUILESS_MAIN(TestAdaptiveLogic)
#include "tst_adaptivelogic.moc"
