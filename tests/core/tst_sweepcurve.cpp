// A sweep of one router or cascade field judged on its quality–cost curve
// (experiment/SweepCurve, SweepCurveText): which designs make a curve, which
// are its references, which tasks are held out, the strong share read from
// the agents that ran, and the figures against hand-computed values.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/LearnedRouterTeam.h"

#include "conclave/experiment/SweepCurve.h"
#include "conclave/experiment/SweepCurveText.h"
#include "conclave/io/FileIo.h"
#include "conclave/routing/RouterFile.h"

#include <QTemporaryDir>

using namespace enginetest;

namespace {

constexpr double kWeakCost = 0.001;
constexpr double kStrongCost = 0.01;

Team singleTeam(const std::string& model)
{
    TeamBuilder b;
    b.expert("m", model).output("m");
    std::string problems;
    auto team = b.build(problems);
    if (!team)
        qFatal("%s", problems.c_str());
    return *team;
}

Team routerTeam(double threshold)
{
    std::string problems;
    auto team = learnedRouterTeam(json{{"router_file", "r.router.json"},
                                       {"policy", "strong_weak"},
                                       {"threshold", threshold},
                                       {"strong", "dear"},
                                       {"weak", "cheap"}})
                    .build(problems);
    if (!team)
        qFatal("%s", problems.c_str());
    return *team;
}

Team cascadeTeam(double threshold)
{
    TeamBuilder b;
    b.node("c", "coordinator", json{{"mode", "cascade"}, {"threshold", threshold}});
    b.expert("first", "wrong-100").expert("second", "right-100");
    b.member("c", "first").member("c", "second");
    b.edge("in", "c");
    b.output("c");
    std::string problems;
    auto team = b.build(problems);
    if (!team)
        qFatal("%s", problems.c_str());
    return *team;
}

ExperimentDesign design(std::string name, Team team, const std::string& folder = {},
                        std::vector<SweepParameter> sweep = {})
{
    ExperimentDesign d;
    d.name = std::move(name);
    d.team = std::move(team);
    d.path = folder.empty() ? std::string() : folder + "/team.team.json";
    d.sweep = std::move(sweep);
    return d;
}

SweepParameter parameter(const std::string& path, double value, const std::string& text)
{
    return {path, value, text};
}

TrialRecord trial(int design, const std::string& task, bool correct, double cost, const std::string& strongNode = {},
                  bool strongRan = false)
{
    TrialRecord t;
    t.design = design;
    t.task = task;
    t.correct = correct;
    t.costUsd = cost;
    if (!strongNode.empty())
        t.agents.push_back({strongNode, false, strongRan ? kStrongCost : 0, 0, strongRan, {}});
    return t;
}

// weak alone, strong alone, and three router variants on tasks t1…t4: the weak
// model is right on t1 only, the strong one on all; the variant at threshold
// 0.5 sends t2 (and t4) to the strong model.
struct Fixture {
    std::vector<ExperimentDesign> designs;
    std::vector<TrialRecord> trials;
};

Fixture routerSweep(const std::string& folder)
{
    Fixture f;
    f.designs.push_back(design("weak alone", singleTeam("wrong-100")));
    f.designs.push_back(design("strong alone", singleTeam("right-100")));
    const std::vector<std::pair<double, std::string>> thresholds{{0, "0"}, {0.5, "0.5"}, {1, "1"}};
    for (const auto& [value, text] : thresholds)
        f.designs.push_back(design("router [route.threshold=" + text + "]", routerTeam(value), folder,
                                   {parameter("route.threshold", value, text)}));
    for (const std::string task : {"t1", "t2", "t3", "t4"}) {
        f.trials.push_back(trial(0, task, task == "t1", kWeakCost));
        f.trials.push_back(trial(1, task, true, kStrongCost));
        f.trials.push_back(trial(2, task, true, kStrongCost, "dear", true));
        const bool strong = task == "t2" || task == "t4";
        f.trials.push_back(trial(3, task, strong || task == "t1", strong ? kStrongCost : kWeakCost, "dear", strong));
        f.trials.push_back(trial(4, task, task == "t1", kWeakCost, "dear", false));
    }
    return f;
}

void writeRouterFile(const QTemporaryDir& dir, const std::vector<RouterModel::TaskRef>& trainedOn)
{
    RouterModel model;
    model.buckets = 16;
    model.domains = {"x"};
    model.models = {"wrong-100", "right-100"};
    model.answers = {1, 1};
    model.baseRates = {0.5, 0.5};
    model.linear = {{}, {}};
    model.tasks = trainedOn;
    if (writeFileAtomically(dir.filePath("r.router.json").toStdString(), RouterFile::toJsonText(model)))
        qFatal("cannot write the router file");
}

} // namespace

class TestSweepCurve : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void strongWeakRouterAgainstHandComputedFigures()
    {
        writeRouterFile(m_dir, {{"other/tasks.json", "t4"}});
        const auto f = routerSweep(m_dir.path().toStdString());
        const auto curve = SweepCurve::of(f.designs, f.trials);
        QVERIFY(curve);
        QCOMPARE(curve->references.size(), size_t(2));
        QCOMPARE(curve->series.size(), size_t(1));
        const auto& s = curve->series.front();
        QCOMPARE(s.kind, std::string("strong_weak router"));
        QCOMPARE(s.weak, std::string("wrong-100"));
        QCOMPARE(s.strong, std::string("right-100"));
        QCOMPARE(s.values, (std::vector<std::string>{"0", "0.5", "1"}));
        // t4 was trained on, under whatever name its set had.
        QCOMPARE(curve->tasks, size_t(3));
        QCOMPARE(curve->trainedOn, size_t(1));
        QVERIFY(curve->notes.empty());
        QVERIFY(curve->figures);
        const auto& c = curve->figures->curves.front();
        // Points (0.01, 1), (0.004, 2/3), (0.001, 1/3); axis [0.001, 0.01]:
        // AIQ = (0.003·(1/3 + 2/3)/2 + 0.006·(2/3 + 1)/2) / 0.009 = 0.0065 / 0.009.
        QCOMPARE(c.hull.size(), size_t(3));
        QVERIFY(qAbs(*c.aiq.value - 0.0065 / 0.009) < 1e-12);
        // PGR 1, 1/2, 0 at shares 1, 1/3, 0: APGR = 1/3 · 1/4 + 2/3 · 3/4; CPT(50 %) = 1/3; CPT(80 %) = 1/3 + 0.6 ·
        // 2/3.
        QVERIFY(c.gain);
        QVERIFY(qAbs(*c.gain->apgr.value - (1.0 / 12 + 0.5)) < 1e-12);
        QVERIFY(qAbs(c.gain->cpt50.value.share - 1.0 / 3) < 1e-12);
        QVERIFY(qAbs(c.gain->cpt80.value.share - (1.0 / 3 + 0.4)) < 1e-12);
        QCOMPARE(c.shares, (std::vector<double>{1, 1.0 / 3, 0}));
        QCOMPARE(SweepCurveText::table(*curve),
                 std::string("quality-cost curve (held out: 3 tasks (1 that a router or scorer file was trained on "
                             "left out), 2,000 bootstrap resamples over tasks, simulated)\n"
                             "router (route.threshold): strong_weak router, wrong-100 (weak) and right-100 (strong)\n"
                             "  AIQ 0.722 [0.500, 1.000] · APGR 0.583 [0.500, 0.833] · CPT(50%) 33.3 % [16.7 %, 50.0 %]"
                             " · CPT(80%) 73.3 % [26.7 %, 80.0 %]\n"
                             "  route.threshold  cost/trial  quality          95% CI  strong calls  on hull\n"
                             "  0                   $0.0100   100.0%  [100.0, 100.0]        100.0%      yes\n"
                             "  0.5                 $0.0040    66.7%    [0.0, 100.0]         33.3%      yes\n"
                             "  1                   $0.0010    33.3%    [0.0, 100.0]          0.0%      yes\n"
                             "  single model  cost/trial  quality          95% CI\n"
                             "  wrong-100        $0.0010    33.3%    [0.0, 100.0]\n"
                             "  right-100        $0.0100   100.0%  [100.0, 100.0]\n"));
        const auto j = SweepCurveText::json(*curve);
        QCOMPARE(j["series"][0]["variants"][1]["strong_share"].get<double>(), 1.0 / 3);
        QCOMPARE(j["trained_on_left_out"].get<int>(), 1);
    }

    void twoMemberCascadeReadsTheSecondMember()
    {
        std::vector<ExperimentDesign> designs{design("weak alone", singleTeam("wrong-100")),
                                              design("strong alone", singleTeam("right-100"))};
        for (const auto& [value, text] : std::vector<std::pair<double, std::string>>{{0.2, "0.2"}, {0.9, "0.9"}})
            designs.push_back(design("cascade [c.threshold=" + text + "]", cascadeTeam(value), {},
                                     {parameter("c.threshold", value, text)}));
        std::vector<TrialRecord> trials;
        for (const std::string task : {"a", "b"}) {
            trials.push_back(trial(0, task, false, kWeakCost));
            trials.push_back(trial(1, task, true, kStrongCost));
            trials.push_back(trial(2, task, false, kWeakCost, "second", false));
            trials.push_back(trial(3, task, true, kWeakCost + kStrongCost, "second", true));
        }
        const auto curve = SweepCurve::of(designs, trials);
        QVERIFY(curve && curve->figures);
        QCOMPARE(curve->series.front().kind, std::string("two-member cascade"));
        QCOMPARE(curve->series.front().node, std::string("c"));
        QCOMPARE(curve->figures->curves.front().shares, (std::vector<double>{0, 1}));
        QCOMPARE(curve->tasks, size_t(2));
        QCOMPARE(curve->trainedOn, size_t(0));
    }

    void notesSayWhatIsMissing()
    {
        auto f = routerSweep(m_dir.path().toStdString() + "/nowhere");
        // No strong model alone: AIQ only, and a note.
        f.designs.erase(f.designs.begin() + 1);
        for (auto& t : f.trials)
            t.design = t.design == 1 ? 99 : t.design > 1 ? t.design - 1 : t.design;
        const auto curve = SweepCurve::of(f.designs, f.trials);
        QVERIFY(curve && curve->figures);
        QVERIFY(!curve->figures->curves.front().gain);
        const auto file = m_dir.path().toStdString() + "/nowhere/r.router.json";
        QCOMPARE(curve->notes,
                 (std::vector<std::string>{
                     "cannot read " + file + " (no such file): the tasks it was trained on are not left out",
                     "router (route.threshold): APGR and CPT need a single-model design of right-100"}));

        // No single model at all: no figures.
        std::vector<ExperimentDesign> variants(f.designs.begin() + 1, f.designs.end());
        std::vector<TrialRecord> trials;
        for (auto t : f.trials)
            if (t.design >= 1 && t.design < 90) {
                --t.design;
                trials.push_back(t);
            }
        const auto bare = SweepCurve::of(variants, trials);
        QVERIFY(bare && !bare->figures);
        QCOMPARE(bare->notes.back(), std::string("no single-model design: evaluate each model alone beside the sweep "
                                                 "to give the curve its reference points and cost axis"));
    }

    void sweepsOfOtherFieldsMakeNoCurve()
    {
        Team expert = singleTeam("wrong-100");
        std::vector<ExperimentDesign> designs{
            design("e [m.params.temperature=0.1]", expert, {}, {parameter("m.params.temperature", 0.1, "0.1")}),
            design("e [m.params.temperature=0.2]", expert, {}, {parameter("m.params.temperature", 0.2, "0.2")})};
        QVERIFY(!SweepCurve::of(designs, {}));
        // One variant of a router is a point, not a curve.
        QVERIFY(!SweepCurve::of(
            {design("r [route.threshold=0]", routerTeam(0), {}, {parameter("route.threshold", 0, "0")})}, {}));
    }
};

QTEST_GUILESS_MAIN(TestSweepCurve)
#include "tst_sweepcurve.moc"
