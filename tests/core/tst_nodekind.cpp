#include "conclave/model/NodeKind.h"

#include <QtTest>

using namespace conclave;

class TestNodeKind : public QObject {
    Q_OBJECT

private:
    template <class Enum>
    void roundTrips(size_t expectedCount)
    {
        QCOMPARE(allValues<Enum>().size(), expectedCount);
        for (const Enum value : allValues<Enum>()) {
            const auto name = toString(value);
            QVERIFY(enumFromString<Enum>(name) == value);
        }
        QVERIFY(!enumFromString<Enum>("nonsense").has_value());
        QVERIFY(!enumFromString<Enum>("").has_value());
    }

private slots:
    void namesRoundTrip()
    {
        roundTrips<NodeKind>(6);
        roundTrips<RouterStrategy>(5);
        roundTrips<AggregatorStrategy>(6);
        roundTrips<CoordinatorMode>(5);
        roundTrips<BackendKind>(3);
    }

    void spellingsMatchTheFileFormat()
    {
        QCOMPARE(QString::fromUtf8(toString(RouterStrategy::MoeGate)), QString("moe_gate"));
        QCOMPARE(QString::fromUtf8(toString(AggregatorStrategy::BestConfidence)), QString("best_confidence"));
        QCOMPARE(QString::fromUtf8(toString(CoordinatorMode::RoundRobin)), QString("round_robin"));
        QCOMPARE(QString::fromUtf8(toString(BackendKind::LocalMoe)), QString("local-moe"));
        QCOMPARE(QString::fromUtf8(toString(BackendKind::Recorded)), QString("recorded"));
        QVERIFY(!enumFromString<NodeKind>("Expert").has_value()); // names are case-sensitive
    }

    void articles()
    {
        QCOMPARE(QString::fromStdString(kindWithArticle(NodeKind::Expert)), QString("an expert"));
        QCOMPARE(QString::fromStdString(kindWithArticle(NodeKind::Router)), QString("a router"));
        QCOMPARE(QString::fromStdString(kindWithArticle(NodeKind::Aggregator)), QString("an aggregator"));
        QCOMPARE(QString::fromStdString(kindWithArticle(NodeKind::Coordinator)), QString("a coordinator"));
    }
};

QTEST_GUILESS_MAIN(TestNodeKind)
#include "tst_nodekind.moc"
