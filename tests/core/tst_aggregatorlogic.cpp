// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/engine/AggregatorLogic.h"

#include <optional>
#include <string>
#include <vector>

using namespace conclave;

namespace {

// Votes written compactly, in arrival order: "a=783@0.9" is source a answering
// 783 with confidence 0.9 (text "text a"); "*2" adds a weight; "a!" is a failed input.
std::vector<Vote> makeVotes(const QStringList& specs)
{
    std::vector<Vote> out;
    for (const auto& spec : specs) {
        Vote v;
        if (spec.endsWith(QLatin1Char('!'))) {
            v.source = spec.chopped(1).toStdString();
            v.result.status = Status::Failed;
            v.result.error = "boom";
            out.push_back(v);
            continue;
        }
        const auto eq = spec.indexOf(QLatin1Char('='));
        const auto at = spec.indexOf(QLatin1Char('@'));
        const auto star = spec.indexOf(QLatin1Char('*'));
        v.source = spec.left(eq).toStdString();
        v.result.status = Status::Ok;
        v.result.answer = spec.mid(eq + 1, at - eq - 1).toStdString();
        v.result.confidence = spec.mid(at + 1, star < 0 ? -1 : star - at - 1).toDouble();
        v.result.text = "text " + v.source;
        v.result.tokensIn = 10;
        v.result.tokensOut = 20;
        v.result.costUsd = 0.5;
        if (star >= 0)
            v.weight = spec.mid(star + 1).toDouble();
        out.push_back(v);
    }
    return out;
}

AggregatorStrategy strategyNamed(const QString& name)
{
    return *enumFromString<AggregatorStrategy>(name.toStdString());
}

AggregatorLogic::Rules rules(const QString& strategy, int quorum, double minConfidence)
{
    AggregatorLogic::Rules r;
    r.strategy = strategyNamed(strategy);
    if (quorum > 0)
        r.quorum = quorum;
    if (minConfidence >= 0)
        r.minConfidence = minConfidence;
    return r;
}

} // namespace

class TestAggregatorLogic : public QObject {
    Q_OBJECT

private slots:
    void conclude_data()
    {
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<double>("minConfidence");  // < 0: none
        QTest::addColumn<QStringList>("votes");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<double>("confidence");
        QTest::addColumn<QString>("text");

        const QStringList twoToOne{"a=x@0.8", "b=x@0.6", "c=y@0.9"};
        // Majority confidence: the winner's share of the votes x its voters' mean confidence.
        QTest::newRow("majority") << "majority" << -1.0 << twoToOne << "ok" << "x" << 2.0 / 3.0 * 0.7 << "text a";
        QTest::newRow("majority tie: more confident side")
            << "majority" << -1.0 << QStringList{"a=x@0.5", "b=y@0.9"} << "ok" << "y" << 0.45 << "text b";
        QTest::newRow("majority full tie: earlier arrival")
            << "majority" << -1.0 << QStringList{"a=x@0.5", "b=y@0.5"} << "ok" << "x" << 0.25 << "text a";
        QTest::newRow("majority ignores failed inputs")
            << "majority" << -1.0 << QStringList{"a!", "b=y@0.8"} << "ok" << "y" << 0.8 << "text b";
        QTest::newRow("weighted: heavy vote wins")
            << "weighted" << -1.0 << QStringList{"a=x@0.8*1", "b=x@0.8*1", "c=y@0.6*3"} << "ok" << "y" << 0.6 * 3 / 5
            << "text c";
        QTest::newRow("weighted: light votes add up")
            << "weighted" << -1.0 << QStringList{"a=x@0.5*1.5", "b=x@0.7*1.5", "c=y@0.9*2.5"} << "ok" << "x"
            << 3.0 / 5.5 * 0.6 << "text a";
        QTest::newRow("best_confidence") << "best_confidence" << -1.0 << QStringList{"a=x@0.5", "b=y@0.9", "c=x@0.7"}
                                         << "ok" << "y" << 0.9 << "text b";
        QTest::newRow("best_confidence tie: earlier")
            << "best_confidence" << -1.0 << QStringList{"a=x@0.9", "b=y@0.9"} << "ok" << "x" << 0.9 << "text a";
        QTest::newRow("first: first valid") << "first" << -1.0 << QStringList{"a!", "b=y@0.3", "c=x@0.9"} << "ok"
                                            << "y" << 0.3 << "text b";
        QTest::newRow("concat") << "concat" << -1.0 << QStringList{"a=x@0.8", "b=y@0.4"} << "ok" << "x" << 0.6
                                << "[a]\ntext a\n\n[b]\ntext b";
        QTest::newRow("concat skips failed") << "concat" << -1.0 << QStringList{"a!", "b=y@0.4"} << "ok" << "y" << 0.4
                                             << "[b]\ntext b";
        QTest::newRow("synthesize before its model call: a majority")
            << "synthesize" << -1.0 << twoToOne << "ok" << "x" << 2.0 / 3.0 * 0.7 << "text a";
        QTest::newRow("min_confidence settles it") << "majority" << 0.85 << twoToOne << "ok" << "y" << 0.9 << "text c";
        QTest::newRow("min_confidence: first confident arrival")
            << "best_confidence" << 0.5 << QStringList{"a=x@0.6", "b=y@0.95"} << "ok" << "x" << 0.6 << "text a";
        QTest::newRow("min_confidence not reached") << "majority" << 0.95 << twoToOne << "ok" << "x"
                                                    << 2.0 / 3.0 * 0.7 << "text a";
        QTest::newRow("no input") << "majority" << -1.0 << QStringList{} << "failed" << "" << 0.0 << "";
        QTest::newRow("every input failed") << "first" << -1.0 << QStringList{"a!", "b!"} << "failed" << "" << 0.0
                                            << "";
    }

    void conclude()
    {
        QFETCH(QString, strategy);
        QFETCH(double, minConfidence);
        QFETCH(QStringList, votes);
        QFETCH(QString, status);
        QFETCH(QString, answer);
        QFETCH(double, confidence);
        QFETCH(QString, text);
        const auto result = AggregatorLogic::conclude(rules(strategy, 0, minConfidence), makeVotes(votes));
        QCOMPARE(q(toString(result.status)), status);
        QCOMPARE(q(result.answer), answer);
        QVERIFY2(qAbs(result.confidence - confidence) < 1e-12,
                 qPrintable(QStringLiteral("%1 != %2").arg(result.confidence).arg(confidence)));
        QCOMPARE(q(result.text), text);
        // The aggregator's own usage is counted by its calls, not copied from its inputs.
        QCOMPARE(result.tokensIn, int64_t(0));
        QCOMPARE(result.tokensOut, int64_t(0));
        QCOMPARE(result.costUsd, 0.0);
    }

    void failureMessages()
    {
        const AggregatorLogic::Rules majority;
        QCOMPARE(q(AggregatorLogic::conclude(majority, {}).error), QStringLiteral("no input arrived"));
        QCOMPARE(q(AggregatorLogic::conclude(majority, makeVotes({"a!"})).error), QStringLiteral("every input failed"));
        auto cancelled = makeVotes({"a=x@0.9"});
        cancelled[0].result.status = Status::Cancelled;
        QCOMPARE(q(AggregatorLogic::conclude(majority, cancelled).error), QStringLiteral("every input failed"));
    }

    void canStopEarly_data()
    {
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<int>("quorum");            // 0: none
        QTest::addColumn<double>("minConfidence");  // < 0: none
        QTest::addColumn<QStringList>("votes");
        QTest::addColumn<bool>("stop");

        QTest::newRow("first, one valid") << "first" << 0 << -1.0 << QStringList{"a=x@0.1"} << true;
        QTest::newRow("first, only failures") << "first" << 0 << -1.0 << QStringList{"a!", "b!"} << false;
        QTest::newRow("first, nothing yet") << "first" << 0 << -1.0 << QStringList{} << false;
        QTest::newRow("majority without rules") << "majority" << 0 << -1.0 << QStringList{"a=x@1", "b=x@1"} << false;
        QTest::newRow("quorum not reached") << "majority" << 2 << -1.0 << QStringList{"a=x@0.9", "b=y@0.9"} << false;
        QTest::newRow("quorum reached") << "majority" << 2 << -1.0 << QStringList{"a=x@0.9", "b=y@0.9", "c=x@0.1"}
                                        << true;
        QTest::newRow("quorum counts only valid votes")
            << "majority" << 2 << -1.0 << QStringList{"a=x@0.9", "b!", "c!"} << false;
        QTest::newRow("quorum counts votes, not weights")
            << "weighted" << 2 << -1.0 << QStringList{"a=x@0.9*5"} << false;
        QTest::newRow("quorum 1") << "concat" << 1 << -1.0 << QStringList{"a=x@0.2"} << true;
        QTest::newRow("min_confidence below") << "majority" << 0 << 0.8 << QStringList{"a=x@0.79"} << false;
        QTest::newRow("min_confidence equal") << "majority" << 0 << 0.8 << QStringList{"a=x@0.79", "b=y@0.8"}
                                              << true;
        QTest::newRow("min_confidence ignores failed") << "majority" << 0 << 0.0 << QStringList{"a!"} << false;
    }

    void canStopEarly()
    {
        QFETCH(QString, strategy);
        QFETCH(int, quorum);
        QFETCH(double, minConfidence);
        QFETCH(QStringList, votes);
        QFETCH(bool, stop);
        QCOMPARE(AggregatorLogic::canStopEarly(rules(strategy, quorum, minConfidence), makeVotes(votes)), stop);
    }

    // skip_when_agree's decision: "answer [agreeing vote indices] agreeing/ok mean" or "none".
    void agreement_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<double>("minConfidence"); // < 0: none
        QTest::addColumn<QStringList>("votes");
        QTest::addColumn<QString>("expected");

        QTest::newRow("2 of 2 agree") << 1.0 << -1.0 << QStringList{"a=x@0.9", "b=x@0.7"} << "x [0,1] 2/2 0.8";
        QTest::newRow("one input only") << 1.0 << -1.0 << QStringList{"a=x@0.9"} << "none";
        QTest::newRow("one ok input and a failed one") << 1.0 << -1.0 << QStringList{"a=x@0.9", "b!"} << "none";
        QTest::newRow("nothing") << 1.0 << -1.0 << QStringList{} << "none";
        QTest::newRow("a failed input does not count")
            << 1.0 << -1.0 << QStringList{"a=x@0.9", "b!", "c=x@0.7"} << "x [0,2] 2/2 0.8";
        QTest::newRow("2 of 2 disagree") << 1.0 << -1.0 << QStringList{"a=x@0.9", "b=y@0.7"} << "none";
        QTest::newRow("2 of 3 at 0.6") << 0.6 << -1.0 << QStringList{"a=x@0.9", "b=y@0.5", "c=x@0.7"}
                                       << "x [0,2] 2/3 0.8";
        QTest::newRow("2 of 3 at 0.7") << 0.7 << -1.0 << QStringList{"a=x@0.9", "b=y@0.5", "c=x@0.7"} << "none";
        QTest::newRow("2 of 3 at exactly 2/3")
            << 2.0 / 3.0 << -1.0 << QStringList{"a=x@0.9", "b=y@0.5", "c=x@0.7"} << "x [0,2] 2/3 0.8";
        QTest::newRow("2 of 3 at 0.6666666667, within 1e-9")
            << 0.6666666667 << -1.0 << QStringList{"a=x@0.9", "b=y@0.5", "c=x@0.7"} << "x [0,2] 2/3 0.8";
        QTest::newRow("2 of 3 at 0.666668, beyond 1e-9")
            << 0.666668 << -1.0 << QStringList{"a=x@0.9", "b=y@0.5", "c=x@0.7"} << "none";
        QTest::newRow("one voice is no agreement, whatever the fraction")
            << 0.3 << -1.0 << QStringList{"a=x@0.9", "b=y@0.5", "c=z@0.7"} << "none";
        QTest::newRow("1 of 2 at 0.5") << 0.5 << -1.0 << QStringList{"a=x@0.9", "b=y@0.5"} << "none";
        QTest::newRow("half and half: the surer side")
            << 0.5 << -1.0 << QStringList{"a=x@0.5", "b=y@0.9", "c=x@0.5", "d=y@0.7"} << "y [1,3] 2/4 0.8";
        QTest::newRow("min_confidence: mean below") << 1.0 << 0.6 << QStringList{"a=x@0.5", "b=x@0.5"} << "none";
        QTest::newRow("min_confidence: the mean, not the surest input")
            << 1.0 << 0.65 << QStringList{"a=x@0.9", "b=x@0.3"} << "none";
        QTest::newRow("min_confidence: mean equal")
            << 1.0 << 0.75 << QStringList{"a=x@0.5", "b=x@1"} << "x [0,1] 2/2 0.75";
        QTest::newRow("min_confidence of the agreeing group only")
            << 0.6 << 0.8 << QStringList{"a=x@0.9", "b=y@0.1", "c=x@0.7"} << "x [0,2] 2/3 0.8";
    }

    void agreement()
    {
        QFETCH(double, fraction);
        QFETCH(double, minConfidence);
        QFETCH(QStringList, votes);
        QFETCH(QString, expected);
        const auto a = AggregatorLogic::agreement(
            fraction, minConfidence < 0 ? std::nullopt : std::optional(minConfidence), makeVotes(votes));
        QString actual = QStringLiteral("none");
        if (a) {
            QStringList indices;
            for (const size_t i : a->votes)
                indices << QString::number(i);
            actual = QStringLiteral("%1 [%2] %3/%4 %5")
                         .arg(q(a->answer), indices.join(QLatin1Char(',')))
                         .arg(a->votes.size())
                         .arg(a->okVotes)
                         .arg(a->confidence);
        }
        QCOMPARE(actual, expected);
    }

    void tally_data()
    {
        QTest::addColumn<bool>("weighted");
        QTest::addColumn<QStringList>("votes");
        QTest::addColumn<QStringList>("expected");  // "answer score count confidence firstIndex"

        QTest::newRow("count") << false << QStringList{"a=x@0.8", "b=y@0.9", "c=x@0.6", "d!"}
                               << QStringList{"x 2 2 1.4 0", "y 1 1 0.9 1"};
        QTest::newRow("weight") << true << QStringList{"a=x@0.8*0.5", "b=y@0.9*2", "c=x@0.6*1"}
                                << QStringList{"y 2 1 0.9 1", "x 1.5 2 1.4 0"};
        QTest::newRow("tie broken by confidence") << false << QStringList{"a=x@0.2", "b=y@0.3"}
                                                  << QStringList{"y 1 1 0.3 1", "x 1 1 0.2 0"};
        QTest::newRow("full tie broken by arrival") << false << QStringList{"a=y@0.5", "b=x@0.5"}
                                                    << QStringList{"y 1 1 0.5 0", "x 1 1 0.5 1"};
        QTest::newRow("failed first vote shifts index") << false << QStringList{"a!", "b=z@0.5"}
                                                        << QStringList{"z 1 1 0.5 1"};
        QTest::newRow("empty") << false << QStringList{} << QStringList{};
    }

    void tally()
    {
        QFETCH(bool, weighted);
        QFETCH(QStringList, votes);
        QFETCH(QStringList, expected);
        QStringList actual;
        for (const auto& t : AggregatorLogic::tally(makeVotes(votes), weighted))
            actual << QStringLiteral("%1 %2 %3 %4 %5")
                          .arg(q(t.answer))
                          .arg(t.score)
                          .arg(t.count)
                          .arg(t.confidence)
                          .arg(t.firstIndex);
        QCOMPARE(actual, expected);
    }
};

QTEST_GUILESS_MAIN(TestAggregatorLogic)
#include "tst_aggregatorlogic.moc"
