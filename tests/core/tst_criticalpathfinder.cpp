// CriticalPathFinder: the path back from the output through the input each
// node waited for, and its length, from hand-made spans of the known review
// team (in -> a, b, spare, panel -> join -> out).
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "conclave/analysis/CriticalPathFinder.h"
#include "conclave/io/TeamJson.h"

using namespace conclave;

namespace {

// "node start end status; …": top-level node spans, ids in order.
std::vector<Span> spansOf(const QString& text)
{
    std::vector<Span> spans;
    for (const auto& item : text.split(';', Qt::SkipEmptyParts)) {
        const auto f = item.split(' ', Qt::SkipEmptyParts);
        Span s;
        s.id = SpanId(spans.size() + 1);
        s.node = NodeId(f[0].toStdString());
        s.kind = SpanKind::Node;
        s.startUs = f[1].toLongLong();
        s.endUs = f[2].toLongLong();
        s.status = *statusFromString(f[3].toStdString());
        spans.push_back(s);
    }
    return spans;
}

} // namespace

class TestCriticalPathFinder : public QObject {
    Q_OBJECT

private slots:
    void paths_data()
    {
        QTest::addColumn<QString>("spans");
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<qint64>("lengthUs");
        const QString head = "in 0 10 ok; a 10 100 ok; panel 10 90 ok;";
        const QString tail = "join 200 210 ok; out 210 211 ok";
        // An aggregator that stops early cancels its stragglers right as it starts, so a
        // straggler's span can end in the very microsecond the aggregator's begins. The
        // aggregator did not wait for it: the path goes through the input that decided.
        QTest::newRow("straggler cancelled as the aggregator starts")
            << head + "b 10 200 cancelled;" + tail << QStringList{"in", "a", "join", "out"} << qint64(10 + 90 + 10 + 1);
        QTest::newRow("straggler cancelled after")
            << head + "b 10 201 cancelled;" + tail << QStringList{"in", "a", "join", "out"} << qint64(10 + 90 + 10 + 1);
        QTest::newRow("the input that finished last")
            << head + "b 10 150 ok;" + tail << QStringList{"in", "b", "join", "out"} << qint64(10 + 140 + 10 + 1);
        QTest::newRow("a skipped input has no span")
            << head + tail << QStringList{"in", "a", "join", "out"} << qint64(10 + 90 + 10 + 1);
        QTest::newRow("through the coordinator")
            << "in 0 10 ok; a 10 100 ok; panel 10 180 ok;" + tail << QStringList{"in", "panel", "join", "out"}
            << qint64(10 + 170 + 10 + 1);
        QTest::newRow("no output span, no path") << head + "join 200 210 ok" << QStringList{} << qint64(0);
    }

    void paths()
    {
        QFETCH(QString, spans);
        QFETCH(QStringList, path);
        QFETCH(qint64, lengthUs);
        const auto loaded = teamFromJsonText(known_runs::kTeam);
        QVERIFY(loaded.team);
        const auto found = CriticalPathFinder::find(*loaded.team, spansOf(spans));
        QStringList nodes;
        for (const auto& id : found.nodes)
            nodes << q(id.str());
        QCOMPARE(nodes, path);
        QCOMPARE(found.lengthUs, lengthUs);
    }
};

QTEST_GUILESS_MAIN(TestCriticalPathFinder)
#include "tst_criticalpathfinder.moc"
