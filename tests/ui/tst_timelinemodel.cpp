// TimelineModel: lanes, bars, segments, marks, flags and critical path of a
// known run exactly; hit-testing; level-of-detail merging with exact counts.
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "timeline/TimelineModel.h"

using namespace conclave;
using conclave::ui::TimelineModel;

namespace {

QStringList laneIds(const TimelineModel& m)
{
    QStringList out;
    for (int i = 0; i < m.laneCount(); ++i)
        out << q(m.lane(i).node.str());
    return out;
}

// Bars as "lane:start-end:spanId" strings, in model order.
QStringList bars(const TimelineModel& m)
{
    QStringList out;
    for (int i = 0; i < int(m.bars().size()); ++i) {
        const auto& b = m.bars()[size_t(i)];
        out << QString("%1:%2-%3:%4").arg(q(m.lane(b.lane).node.str())).arg(b.startUs).arg(b.endUs()).arg(m.span(i).id);
    }
    return out;
}

int barOfSpan(const TimelineModel& m, SpanId id)
{
    for (int i = 0; i < int(m.bars().size()); ++i) {
        if (m.span(i).id == id)
            return i;
    }
    return -1;
}

// One lane ("x") of bars given as (start, end) pairs, with an optional failed bar.
StoredRun oneLane(const std::vector<std::pair<int64_t, int64_t>>& intervals, size_t failed = SIZE_MAX)
{
    StoredRun run;
    SpanId id = 1;
    for (size_t i = 0; i < intervals.size(); ++i) {
        auto s = known_runs::span(id++, 0, "x", SpanKind::Node, intervals[i].first, intervals[i].second);
        if (i == failed)
            s.status = Status::Failed;
        run.spans.push_back(s);
    }
    return run;
}


// A fast path: cascade "fast" asks quick (step 1), then the debate "panel"
// (step 2), a member meeting whose round 1 asks p1.
StoredRun fastPath()
{
    StoredRun run;
    run.teamJson = R"({"conclave": 2, "name": "fast", "nodes": [
        {"id": "in", "kind": "input"},
        {"id": "fast", "kind": "coordinator", "mode": "cascade"},
        {"id": "quick", "kind": "expert", "model": "m"},
        {"id": "panel", "kind": "coordinator", "mode": "debate"},
        {"id": "p1", "kind": "expert", "model": "m"},
        {"id": "out", "kind": "output"}],
      "edges": [{"from": "in", "to": "fast"}, {"from": "fast", "to": "quick", "role": "member"},
        {"from": "fast", "to": "panel", "role": "member"}, {"from": "panel", "to": "p1", "role": "member"},
        {"from": "fast", "to": "out"}]})";
    const auto nested = [](SpanId id, SpanId parent, const char* node, SpanKind kind, int64_t start, int64_t end,
                           int round, const char* name) {
        auto s = known_runs::span(id, parent, node, kind, start, end);
        s.round = round;
        s.name = name;
        return s;
    };
    run.spans = {known_runs::span(1, 0, "in", SpanKind::Node, 0, 100),
                 known_runs::span(2, 0, "fast", SpanKind::Node, 100, 900),
                 nested(3, 2, "fast", SpanKind::Round, 100, 400, 1, "step 1: quick"),
                 nested(4, 3, "quick", SpanKind::Node, 100, 400, 1, "quick"),
                 known_runs::attempt(5, 4, "quick", 100, 400, Status::Ok, 1, 150, 10, 10, 0.001),
                 nested(6, 2, "fast", SpanKind::Round, 400, 900, 2, "step 2: panel"),
                 nested(7, 6, "panel", SpanKind::Node, 400, 900, 2, "panel"),
                 nested(8, 7, "panel", SpanKind::Round, 400, 900, 1, "round 1"),
                 nested(9, 8, "p1", SpanKind::Node, 400, 900, 1, "p1"),
                 known_runs::attempt(10, 9, "p1", 400, 900, Status::Ok, 1, 450, 10, 10, 0.001),
                 known_runs::span(11, 0, "out", SpanKind::Node, 900, 1000)};
    run.summary.wallUs = 1000;
    return run;
}
} // namespace

class TestTimelineModel : public QObject {
    Q_OBJECT

private slots:
    void lanesFollowTheTeam()
    {
        const TimelineModel m(known_runs::review());
        QCOMPARE(laneIds(m), QStringList({"in", "a", "b", "spare", "panel", "m1", "join", "out"}));
        QCOMPARE(q(m.lane(1).label), QString("Expert A"));
        QCOMPARE(q(m.lane(4).kind), QString("coordinator"));
        QCOMPARE(q(m.lane(5).model), QString("local/generalist-7b"));
        QCOMPARE(m.laneOf(NodeId("m1")), 5);
        QCOMPARE(m.laneOf(NodeId("nobody")), -1);
        QCOMPARE(m.endUs(), int64_t(9300));
    }

    void aBarPerNodeSpan()
    {
        const TimelineModel m(known_runs::review());
        QCOMPARE(bars(m), QStringList({"in:0-100:1", "a:100-5100:2", "b:100-3000:5", "panel:100-9100:7",
                                       "m1:100-4000:9", "m1:4100-9000:12", "join:9100-9200:14", "out:9200-9300:15"}));
        QCOMPARE(int(m.barsInLane(3).size()), 0); // spare was skipped
        QCOMPARE(int(m.barsInLane(5).size()), 2);
        QCOMPARE(m.firstBarInLane(5), 4);
    }

    void attemptsAndRoundsAreSegments()
    {
        const TimelineModel m(known_runs::review());
        auto segs = [&](SpanId id) {
            QStringList out;
            for (const auto& s : m.segments(barOfSpan(m, id)))
                out << QString("%1:%2-%3:%4")
                           .arg(q(toString(s.kind)))
                           .arg(s.startUs)
                           .arg(s.startUs + s.durationUs)
                           .arg(q(toString(s.status)));
            return out;
        };
        QCOMPARE(segs(2), QStringList({"attempt:100-2100:failed", "attempt:2100-5100:ok"}));
        QCOMPARE(segs(5), QStringList({"attempt:100-3000:cancelled"}));
        QCOMPARE(segs(7), QStringList({"round:100-4100:ok", "round:4100-9100:ok"}));
        QCOMPARE(segs(9), QStringList({"attempt:100-4000:ok"}));
        QCOMPARE(segs(12), QStringList({"attempt:4100-9000:ok"}));
        QCOMPARE(segs(1), QStringList());
    }

    void aMemberMeetingsRoundsAreOnItsOwnBar()
    {
        const TimelineModel m(fastPath());
        QCOMPARE(bars(m), QStringList({"in:0-100:1", "fast:100-900:2", "quick:100-400:4", "panel:400-900:7",
                                       "p1:400-900:9", "out:900-1000:11"}));
        auto segs = [&](SpanId id) {
            QStringList out;
            for (const auto& s : m.segments(barOfSpan(m, id)))
                out << QString("%1:%2-%3").arg(q(toString(s.kind))).arg(s.startUs).arg(s.startUs + s.durationUs);
            return out;
        };
        // The cascade's steps on its bar; the member meeting's round on the member's bar, not the cascade's.
        QCOMPARE(segs(2), QStringList({"round:100-400", "round:400-900"}));
        QCOMPARE(segs(7), QStringList({"round:400-900"}));
        QCOMPARE(segs(9), QStringList({"attempt:400-900"}));
        QStringList member;
        for (int i = 0; i < int(m.bars().size()); ++i)
            if (m.bars()[size_t(i)].flags & TimelineModel::Member)
                member << QString::number(m.span(i).id);
        QCOMPARE(member, QStringList({"4", "7", "9"}));
    }

    void timeToFirstTokenMarks()
    {
        const TimelineModel m(known_runs::review());
        QStringList marks;
        for (const auto& mark : m.ttftMarks())
            marks << QString("%1@%2").arg(q(m.lane(mark.lane).node.str())).arg(mark.atUs);
        QCOMPARE(marks, QStringList({"a@2500", "b@400", "m1@300", "m1@4600"}));
        QCOMPARE(m.span(int(m.ttftMarks()[0].bar)).id, SpanId(2));
    }

    void flagsAndCriticalPath()
    {
        const TimelineModel m(known_runs::review());
        QStringList critical, cut, member;
        for (int i = 0; i < int(m.bars().size()); ++i) {
            const auto flags = m.bars()[size_t(i)].flags;
            const QString id = QString::number(m.span(i).id);
            if (flags & TimelineModel::Critical)
                critical << id;
            if (flags & TimelineModel::CutShort)
                cut << id;
            if (flags & TimelineModel::Member)
                member << id;
        }
        QCOMPARE(critical, QStringList({"1", "7", "14", "15"}));
        QCOMPARE(cut, QStringList({"5"}));
        QCOMPARE(member, QStringList({"9", "12"}));
        QVERIFY(m.bars()[size_t(barOfSpan(m, 5))].status == Status::Cancelled);
    }

    void openSpansRunToTheEnd()
    {
        auto run = known_runs::review();
        run.spans[6].endUs = -1; // panel never ended
        run.spans[6].status = Status::Running;
        const TimelineModel m(std::move(run));
        const auto& b = m.bars()[size_t(barOfSpan(m, 7))];
        QCOMPARE(b.endUs(), int64_t(9300));
        QVERIFY(b.flags & TimelineModel::Open);
    }

    void hitTesting_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<qint64>("time");
        QTest::addColumn<qint64>("tolerance");
        QTest::addColumn<int>("span");
        QTest::newRow("inside a") << "a" << qint64(3000) << qint64(0) << 2;
        QTest::newRow("a's start") << "a" << qint64(100) << qint64(0) << 2;
        QTest::newRow("before a") << "a" << qint64(50) << qint64(0) << 0;
        QTest::newRow("between rounds") << "m1" << qint64(4050) << qint64(0) << 0;
        QTest::newRow("near both: the later") << "m1" << qint64(4050) << qint64(60) << 12;
        QTest::newRow("first round") << "m1" << qint64(3999) << qint64(0) << 9;
        QTest::newRow("skipped lane") << "spare" << qint64(500) << qint64(0) << 0;
    }

    void hitTesting()
    {
        QFETCH(QString, node);
        QFETCH(qint64, time);
        QFETCH(qint64, tolerance);
        QFETCH(int, span);
        const TimelineModel m(known_runs::review());
        const int bar = m.barAt(m.laneOf(NodeId(node.toStdString())), time, tolerance);
        QCOMPARE(bar < 0 ? 0 : int(m.span(bar).id), span);
        QCOMPARE(m.barAt(-1, time), -1);
        QCOMPARE(m.barAt(99, time), -1);
    }

    void levelOfDetail_data()
    {
        QTest::addColumn<double>("usPerPixel");
        QTest::addColumn<QStringList>("items");
        // Bars: [0,5) [8,12)F [30,34) [36,100) [100,103) [105,108) [109,110)
        QTest::newRow("1 us/px: all") << 1.0
                                      << QStringList({"0-5x1", "8-12x1F", "30-34x1", "36-100x1", "100-103x1",
                                                      "105-108x1", "109-110x1"});
        QTest::newRow("10 us/px") << 10.0 << QStringList({"0-12x2F", "30-34x1", "36-100x1", "100-110x3"});
        QTest::newRow("1000 us/px: one") << 1000.0 << QStringList({"0-110x7F"});
    }

    void levelOfDetail()
    {
        QFETCH(double, usPerPixel);
        QFETCH(QStringList, items);
        const TimelineModel m(oneLane({{0, 5}, {8, 12}, {30, 34}, {36, 100}, {100, 103}, {105, 108}, {109, 110}}, 1));
        QStringList got;
        for (const auto& it : m.levelOfDetail(0, 0, 200, usPerPixel))
            got << QString("%1-%2x%3%4")
                       .arg(it.startUs)
                       .arg(it.endUs)
                       .arg(it.count)
                       .arg(it.status == Status::Failed ? "F" : "");
        QCOMPARE(got, items);
    }

    void levelOfDetailOnlyTheVisibleRange()
    {
        const TimelineModel m(oneLane({{0, 5}, {8, 12}, {30, 34}, {36, 100}, {100, 103}, {105, 108}, {109, 110}}));
        const auto items = m.levelOfDetail(0, 35, 101, 1.0);
        QCOMPARE(int(items.size()), 2);
        QCOMPARE(items[0].startUs, int64_t(36));
        QCOMPARE(items[1].startUs, int64_t(100));
    }

    void levelOfDetailAtScale()
    {
        // 100,000 bars of 10 µs, 10 µs apart, with a 1 ms gap after every 10th.
        std::vector<std::pair<int64_t, int64_t>> intervals;
        int64_t t = 0;
        for (int i = 0; i < 100000; ++i) {
            intervals.emplace_back(t, t + 10);
            t += (i % 10 == 9) ? 1010 : 20;
        }
        const TimelineModel m(oneLane(intervals));
        QCOMPARE(int(m.bars().size()), 100000);
        QCOMPARE(int(m.levelOfDetail(0, 0, t, 5.0).size()), 100000);
        const auto groups = m.levelOfDetail(0, 0, t, 100.0);
        QCOMPARE(int(groups.size()), 10000);
        QCOMPARE(groups[0].count, 10);
        QCOMPARE(groups[0].endUs, int64_t(190));
        const auto all = m.levelOfDetail(0, 0, t, 2000.0);
        QCOMPARE(int(all.size()), 1);
        QCOMPARE(all[0].count, 100000);
    }

    void barsOfANode()
    {
        const TimelineModel m(known_runs::review());
        const auto bars = m.barsOfNode(NodeId("m1"));
        QCOMPARE(int(bars.size()), 2);
        QCOMPARE(m.span(bars[1]).id, SpanId(12));
        QVERIFY(m.barsOfNode(NodeId("spare")).empty());
    }
};

QTEST_GUILESS_MAIN(TestTimelineModel)
#include "tst_timelinemodel.moc"
