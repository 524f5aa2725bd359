// A meeting as a member of a cascade or adaptive meeting, end to end on the
// simulated clock: TMAS's fast path (one cheap expert, then a debate when it
// is unsure), an adaptive meeting asking a panel as one of its members, three
// levels of nesting, the budget guard pricing a member meeting, and a Stop or
// a spent budget inside the inner meeting. Exact span trees: every node and
// round span under the outer coordinator, with its parent, round number,
// start and end microseconds, status and note.
#include <QtTest>

#include "support/EngineTestKit.h"

using namespace enginetest;

namespace {

// The spans under `root`'s top-level node span (attempts left out), one line
// each, indented by depth: "step 1: cheap 0..150000 ok", "  cheap #1 0..150000 ok".
QStringList tree(const RunResult& r, const std::string& root)
{
    std::map<SpanId, int> depth;
    QStringList out;
    for (const auto& s : r.spans) {
        if (s.kind == SpanKind::Attempt)
            continue;
        int d = -1;
        if (s.parent == 0 && s.node.str() == root)
            d = 0;
        else if (depth.count(s.parent))
            d = depth[s.parent] + 1;
        if (d < 0)
            continue;
        depth[s.id] = d;
        QString line = QString(2 * d, QLatin1Char(' '));
        if (s.kind == SpanKind::Round)
            line += q(s.name);
        else
            line += q(s.node.str()) + (s.parent ? " #" + QString::number(s.round) : QString());
        line += QStringLiteral(" %1..%2 %3").arg(s.startUs).arg(s.endUs).arg(q(toString(s.status)));
        if (!s.note.empty())
            line += " | " + q(s.note);
        out << line;
    }
    if (qEnvironmentVariableIsSet("NESTED_DEBUG"))
        qWarning("%s", qPrintable(out.join('\n')));
    return out;
}

// A debate `id` among p1..pN (prefixed with `id`) on these models, as a member of `parent`.
void addPanel(TeamBuilder& team, const std::string& id, const std::string& parent, const QStringList& models,
              json fields = json::object())
{
    fields["mode"] = "debate";
    team.node(id, "coordinator", fields).member(parent, id);
    for (int i = 0; i < models.size(); ++i) {
        const auto member = id + "-p" + std::to_string(i + 1);
        team.expert(member, models[i].toStdString()).member(id, member);
    }
}

// in -> fast (cascade: cheap, then the debate panel of three) -> out.
TeamBuilder fastPath(const std::string& cheapModel, const QStringList& panelModels, json cascade = json::object())
{
    TeamBuilder team;
    cascade["mode"] = "cascade";
    team.node("fast", "coordinator", cascade).edge("in", "fast");
    team.expert("cheap", cheapModel).member("fast", "cheap");
    addPanel(team, "panel", "fast", panelModels, json{{"max_rounds", 2}});
    team.output("fast");
    return team;
}

// Each call of the kit's models: 30 prompt tokens at $1/Mtok, 100 out at $2/Mtok.
constexpr int64_t kCallTokens = 130;
constexpr double kCallUsd = (30 * 1 + 100 * 2) / 1e6;

} // namespace

class TestNestedMeeting : public QObject {
    Q_OBJECT

    EngineHarness m_h;

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }
    void cleanupTestCase() { m_h.reset(); }

    void theFastPathAnswersAloneWhenTheCheapExpertIsSure()
    {
        const auto r = m_h.runVirtual(fastPath("right", {"right", "right", "right"}), kMath);
        QCOMPARE(q(toString(r.status)), QString("ok"));
        QCOMPARE(q(r.output.answer), QString("783"));
        QVERIFY(resultOf(r, "cheap").confidence >= 0.7);
        QCOMPARE(tree(r, "fast"), (QStringList{
                                      "fast 0..150000 ok",
                                      "  step 1: cheap 0..150000 ok",
                                      "    cheap #1 0..150000 ok",
                                  }));
        // The meeting is never convened: it and its members are skipped, with no span at all.
        QCOMPARE(statuses(r, {"cheap", "panel", "panel-p1", "panel-p2", "panel-p3"}),
                 QString("cheap=ok panel=skipped panel-p1=skipped panel-p2=skipped panel-p3=skipped"));
        QCOMPARE(spansOf(r, "panel", SpanKind::Node).size(), size_t(0));
        QCOMPARE(spansOf(r, "panel", SpanKind::Round).size(), size_t(0));
        QCOMPARE(r.costUsd, kCallUsd);
        QCOMPARE(r.tokensIn + r.tokensOut, kCallTokens);
    }

    void theFastPathEscalatesToTheMeeting()
    {
        // A wrong cheap expert under a threshold it cannot reach: the debate decides.
        const auto r = m_h.runVirtual(fastPath("wrong", {"right", "right", "right"}, json{{"threshold", 0.99}}), kMath);
        QCOMPARE(q(toString(r.status)), QString("ok"));
        QCOMPARE(q(r.output.answer), QString("783"));
        QCOMPARE(tree(r, "fast"), (QStringList{
                                      "fast 0..300000 ok",
                                      "  step 1: cheap 0..150000 ok",
                                      "    cheap #1 0..150000 ok",
                                      "  step 2: panel 150000..300000 ok",
                                      "    panel #2 150000..300000 ok",
                                      "      round 1 150000..300000 ok",
                                      "        panel-p1 #1 150000..300000 ok",
                                      "        panel-p2 #1 150000..300000 ok",
                                      "        panel-p3 #1 150000..300000 ok",
                                  }));
        QCOMPARE(statuses(r, {"cheap", "panel", "panel-p1", "panel-p2", "panel-p3", "out"}),
                 QString("cheap=ok panel=ok panel-p1=ok panel-p2=ok panel-p3=ok out=ok"));
        // The panel's result is its meeting's: its members' calls; the cascade's holds all four.
        const auto panel = resultOf(r, "panel");
        QCOMPARE(q(panel.answer), QString("783"));
        QCOMPARE(panel.tokensIn + panel.tokensOut, 3 * kCallTokens);
        QCOMPARE(panel.costUsd, 3 * kCallUsd);
        const auto panelSpan = spansOf(r, "panel", SpanKind::Node);
        QCOMPARE(panelSpan.size(), size_t(1));
        QCOMPARE(panelSpan[0].tokensIn + panelSpan[0].tokensOut, 3 * kCallTokens);
        const auto fast = resultOf(r, "fast");
        QCOMPARE(fast.tokensIn + fast.tokensOut, 4 * kCallTokens);
        QCOMPARE(fast.confidence, panel.confidence);
        QCOMPARE(r.costUsd, 4 * kCallUsd);
        QCOMPARE(spansOfKind(r, SpanKind::Attempt).size(), size_t(4));
        // The debate's transcript is the answer's text.
        QVERIFY2(fast.text.find("panel-p3 (round 1)") != std::string::npos, fast.text.c_str());
    }

    void aFailedMeetingLeavesTheEarlierAnswer()
    {
        // The panel's members all fail: the cascade answers with the cheap expert's answer.
        const auto r = m_h.runVirtual(fastPath("right", {"flaky", "flaky", "flaky"}, json{{"threshold", 0.99}}), kMath);
        QCOMPARE(statuses(r, {"cheap", "panel", "fast"}), QString("cheap=ok panel=failed fast=ok"));
        QCOMPARE(q(r.output.answer), QString("783"));
        QCOMPARE(resultOf(r, "fast").confidence, resultOf(r, "cheap").confidence);
    }

    void anAdaptiveMeetingAsksAPanelAsOneMember()
    {
        // Members in edge order m1 (right), m2 (wrong), panel (right x3). The local
        // gate scores the panel by its best member, as high as m1: round 1 asks
        // m1 and the panel together, and they agree.
        TeamBuilder team;
        team.node("meet", "coordinator", json{{"mode", "adaptive"}}).edge("in", "meet");
        team.expert("m1", "right").member("meet", "m1");
        team.expert("m2", "wrong").member("meet", "m2");
        addPanel(team, "panel", "meet", {"right", "right", "right"});
        team.output("meet");
        const auto r = m_h.runVirtual(team, kMath);
        QCOMPARE(q(r.output.answer), QString("783"));
        QCOMPARE(tree(r, "meet"), (QStringList{
                                      "meet 0..150000 ok",
                                      "  round 1 0..150000 ok | stop: 2 of 2 agree (consensus 1.00)",
                                      "    m1 #1 0..150000 ok",
                                      "    panel #1 0..150000 ok",
                                      "      round 1 0..150000 ok",
                                      "        panel-p1 #1 0..150000 ok",
                                      "        panel-p2 #1 0..150000 ok",
                                      "        panel-p3 #1 0..150000 ok",
                                  }));
        QCOMPARE(statuses(r, {"m1", "m2", "panel"}), QString("m1=ok m2=skipped panel=ok"));
        QCOMPARE(r.costUsd, 4 * kCallUsd);
    }

    void theBudgetGuardPricesAMeetingAtOneCallPerExpert_data()
    {
        QTest::addColumn<double>("maxCostUsd");
        QTest::addColumn<bool>("asksPanel");
        // After m1 alone: $0.00023 spent; the panel would cost at least 3 x $0.00023.
        QTest::newRow("$0.0008: room for one more call, not three") << 0.0008 << false;
        QTest::newRow("$0.01: room for the panel") << 0.01 << true;
    }

    void theBudgetGuardPricesAMeetingAtOneCallPerExpert()
    {
        QFETCH(double, maxCostUsd);
        QFETCH(bool, asksPanel);
        TeamBuilder team;
        team.node("meet", "coordinator", json{{"mode", "adaptive"}, {"initial", 1}, {"threshold", 0.99}})
            .edge("in", "meet");
        team.expert("m1", "right").member("meet", "m1");
        addPanel(team, "panel", "meet", {"right", "right", "right"});
        team.output("meet");
        team.doc()["budget"] = json{{"max_cost_usd", maxCostUsd}};
        const auto r = m_h.runVirtual(team, kMath);
        QCOMPARE(q(toString(r.status)), QString("ok"));
        const auto rounds = spansOf(r, "meet", SpanKind::Round);
        const QString confidence = QString::number(resultOf(r, "m1").confidence, 'f', 2);
        if (!asksPanel) {
            QCOMPARE(rounds.size(), size_t(1));
            QCOMPARE(q(rounds[0].note), QStringLiteral("stop: the next call's expected $%1 would pass the budget "
                                                       "($0.00080, $%2 spent)")
                                            .arg(3 * kCallUsd, 0, 'f', 5)
                                            .arg(kCallUsd, 0, 'f', 5));
            QCOMPARE(statuses(r, {"m1", "panel", "panel-p1"}), QString("m1=ok panel=skipped panel-p1=skipped"));
            QCOMPARE(r.costUsd, kCallUsd);
            return;
        }
        QCOMPARE(rounds.size(), size_t(2));
        QCOMPARE(q(rounds[0].note), "ask panel: 1 of 1 agree, confidence " + confidence + " < 0.99");
        QCOMPARE(q(rounds[1].note), QString("stop: 2 of 2 agree (consensus 1.00)"));
        QCOMPARE(r.costUsd, 4 * kCallUsd);
    }

    void threeLevelsDeep()
    {
        // outer cascade: a wrong expert, then an inner cascade: another wrong
        // expert, then the debate. Every step is one after the other.
        TeamBuilder team;
        team.node("outer", "coordinator", json{{"mode", "cascade"}, {"threshold", 0.99}}).edge("in", "outer");
        team.expert("w1", "wrong").member("outer", "w1");
        team.node("inner", "coordinator", json{{"mode", "cascade"}, {"threshold", 0.99}}).member("outer", "inner");
        team.expert("w2", "wrong").member("inner", "w2");
        addPanel(team, "panel", "inner", {"right", "right"});
        team.output("outer");
        const auto r = m_h.runVirtual(team, kMath);
        QCOMPARE(q(r.output.answer), QString("783"));
        QCOMPARE(tree(r, "outer"), (QStringList{
                                       "outer 0..450000 ok",
                                       "  step 1: w1 0..150000 ok",
                                       "    w1 #1 0..150000 ok",
                                       "  step 2: inner 150000..450000 ok",
                                       "    inner #2 150000..450000 ok",
                                       "      step 1: w2 150000..300000 ok",
                                       "        w2 #1 150000..300000 ok",
                                       "      step 2: panel 300000..450000 ok",
                                       "        panel #2 300000..450000 ok",
                                       "          round 1 300000..450000 ok",
                                       "            panel-p1 #1 300000..450000 ok",
                                       "            panel-p2 #1 300000..450000 ok",
                                   }));
        QCOMPARE(r.costUsd, 4 * kCallUsd);
        QCOMPARE(resultOf(r, "inner").costUsd, 3 * kCallUsd);
    }

    void aStopInsideTheMeetingEndsEveryLevel()
    {
        // The debate's members take a second; Stop comes at 200 ms, mid-debate.
        const auto r = m_h.runVirtual(
            fastPath("wrong", {"right-1000", "right-1000", "right-1000"}, json{{"threshold", 0.99}}), kMath, 42, 200.0);
        QCOMPARE(q(toString(r.status)), QString("cancelled"));
        QCOMPARE(tree(r, "fast"), (QStringList{
                                      "fast 0..200000 cancelled",
                                      "  step 1: cheap 0..150000 ok",
                                      "    cheap #1 0..150000 ok",
                                      "  step 2: panel 150000..200000 cancelled",
                                      "    panel #2 150000..200000 cancelled",
                                      "      round 1 150000..200000 cancelled",
                                      "        panel-p1 #1 150000..200000 cancelled",
                                      "        panel-p2 #1 150000..200000 cancelled",
                                      "        panel-p3 #1 150000..200000 cancelled",
                                  }));
        QCOMPARE(statuses(r, {"cheap", "panel", "panel-p1", "fast", "out"}),
                 QString("cheap=ok panel=cancelled panel-p1=cancelled fast=cancelled out=cancelled"));
        QCOMPARE(r.wallUs, int64_t(200000));
    }

    void aBudgetRunningOutInsideTheMeetingEndsTheRun()
    {
        auto team = fastPath("wrong", {"right-1000", "right-1000", "right-1000"}, json{{"threshold", 0.99}});
        team.doc()["budget"] = json{{"max_wall_ms", 200}};
        const auto r = m_h.runVirtual(team, kMath);
        QCOMPARE(q(toString(r.status)), QString("budget_exhausted"));
        const auto lines = tree(r, "fast");
        QCOMPARE(lines.first().section(' ', 0, 1), QString("fast 0..200000"));
        for (const auto& line : lines)
            QVERIFY2(!line.contains("..-1"), qPrintable(line)); // every span closed
        QCOMPARE(statusOf(r, "panel-p1"), QString("budget_exhausted"));
        QCOMPARE(r.wallUs, int64_t(200000));
    }

    void theSameSeedGivesTheSameNestedRun()
    {
        const auto team = fastPath("wrong", {"right", "wrong", "right"}, json{{"threshold", 0.99}});
        const auto a = m_h.runVirtual(team, kMath, 7);
        const auto b = m_h.runVirtual(team, kMath, 7);
        QCOMPARE(tree(a, "fast"), tree(b, "fast"));
        QCOMPARE(a.output.text, b.output.text);
        QCOMPARE(a.costUsd, b.costUsd);
    }
};

QTEST_GUILESS_MAIN(TestNestedMeeting)
#include "tst_nestedmeeting.moc"
