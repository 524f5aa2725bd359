// RouterHeldoutShare: a learned router's decisions over the held-out tasks
// its router file records, counted per route, with the policy applied by the
// router's own behaviour; every refusal as an exact error text.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/LearnedRouterTeam.h"

#include "conclave/experiment/RouterHeldoutShare.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamFile.h"
#include "conclave/routing/RouterFile.h"

#include <QTemporaryDir>

using namespace enginetest;

namespace {

// Ten held-out tasks: seven without digits, two with six ("Calculate 323 + 460."), one with two.
const char* const kTasks =
    R"({"id": "t-01", "domain": "writing", "prompt": "Write a haiku about the sea.", "answer": "x"}
{"id": "t-02", "domain": "writing", "prompt": "Name a colour of the sky.", "answer": "blue"}
{"id": "t-03", "domain": "facts", "prompt": "What is the capital of France?", "answer": "Paris"}
{"id": "t-04", "domain": "math", "prompt": "Calculate 323 + 460.", "answer": "783"}
{"id": "t-05", "domain": "facts", "prompt": "Who wrote Hamlet?", "answer": "Shakespeare"}
{"id": "t-06", "domain": "math", "prompt": "Calculate 710 + 317.", "answer": "1027"}
{"id": "t-07", "domain": "writing", "prompt": "Give a word for happy.", "answer": "glad"}
{"id": "t-08", "domain": "math", "prompt": "What is 12 squared?", "answer": "144"}
{"id": "t-09", "domain": "facts", "prompt": "Which planet is red?", "answer": "Mars"}
{"id": "t-10", "domain": "code", "prompt": "Which keyword defines a function in Python?", "answer": "def"}
)";

// p(wrong-100) = σ(1 − 6 · ln(1 + digits)/ln 1000): 0.73 without digits, 0.51 with two, 0.33 with six;
// p(right-100) = σ(2.2) = 0.90 whatever the prompt.
RouterModel sampleModel(std::vector<std::string> models, std::vector<RouterModel::TaskRef> heldout)
{
    RouterModel model;
    model.buckets = 65536;
    model.domains = {"math", "code", "facts", "writing", "reasoning"};
    for (const auto& name : models) {
        model.models.push_back(name);
        model.answers.push_back(100);
        model.baseRates.push_back(0.5);
        RouterModel::Linear linear;
        linear.c = 1;
        linear.bias = name == "wrong-100" ? 1.0 : 2.2;
        if (name == "wrong-100")
            linear.weights = {{65537, -6.0}};
        model.linear.push_back(linear);
    }
    model.heldoutTasks = std::move(heldout);
    return model;
}

std::vector<RouterModel::TaskRef> tenTasks(const std::string& set)
{
    std::vector<RouterModel::TaskRef> refs;
    for (int i = 1; i <= 10; ++i)
        refs.push_back({set, QString("t-%1").arg(i, 2, 10, QChar('0')).toStdString()});
    return refs;
}

void write(const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    if (writeFileAtomically(dir.filePath(QString::fromStdString(name)).toStdString(), text))
        qFatal("cannot write %s", name.c_str());
}

// The learned router team (wrong-100 cheap, right-100 dear) with these router fields.
std::optional<Team> team(json router)
{
    std::string problems;
    return learnedRouterTeam(std::move(router)).build(problems);
}

json strongWeak(double threshold, const std::string& file = "router.json")
{
    return json{{"router_file", file},
                {"policy", "strong_weak"},
                {"threshold", threshold},
                {"strong", "dear"},
                {"weak", "cheap"}};
}

// "cheap 7, dear 3 (strong)": each route's count, the strong one marked.
QString counts(const RouterHeldoutShare::Result& r)
{
    QStringList out;
    for (size_t i = 0; i < r.routes.size(); ++i)
        out << q(r.routes[i].target.str()) + " " + QString::number(r.routes[i].tasks) +
                   (r.strong == i ? " (strong)" : "");
    return out.join(", ");
}

} // namespace

class TestRouterHeldoutShare : public QObject {
    Q_OBJECT

    EngineResources m_resources;
    QTemporaryDir m_dir;

    RouterHeldoutShare::Result compute(const std::optional<Team>& t, const std::string& node = "route")
    {
        if (!t)
            qFatal("the test team does not load");
        return RouterHeldoutShare::compute(*t, NodeId(node), m_resources, CONCLAVE_RESOURCES,
                                           m_dir.path().toStdString());
    }

private slots:
    void initTestCase()
    {
        std::vector<std::string> errors;
        m_resources = EngineResources::load(CONCLAVE_RESOURCES, errors);
        QVERIFY(errors.empty());
        QVERIFY(m_dir.isValid());
        write(m_dir, "heldout.jsonl", kTasks);
        write(m_dir, "router.json",
              RouterFile::toJsonText(sampleModel({"wrong-100", "right-100"}, tenTasks("heldout.jsonl"))));
    }

    void countsPerPolicy_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<double>("threshold");
        QTest::addColumn<QString>("expected");
        // strong_weak: the gain 0.90 − p(cheap) is 0.17 without digits, 0.39 with two, 0.57 with six.
        QTest::newRow("strong_weak 0.30") << "strong_weak" << 0.30 << "cheap 7, dear 3 (strong)";
        QTest::newRow("strong_weak 0.45") << "strong_weak" << 0.45 << "cheap 8, dear 2 (strong)";
        QTest::newRow("strong_weak 0.60") << "strong_weak" << 0.60 << "cheap 10, dear 0 (strong)";
        QTest::newRow("strong_weak 0.00") << "strong_weak" << 0.00 << "cheap 0, dear 10 (strong)";
        // cheapest_above: cheap while its p (0.73, 0.51, 0.33) reaches the threshold, else dear (0.90).
        QTest::newRow("cheapest_above 0.70") << "cheapest_above" << 0.70 << "cheap 7, dear 3 (strong)";
        QTest::newRow("cheapest_above 0.50") << "cheapest_above" << 0.50 << "cheap 8, dear 2 (strong)";
        QTest::newRow("cheapest_above 0.95") << "cheapest_above" << 0.95 << "cheap 0, dear 10 (strong)";
        // max_utility at cost_weight 0.5: dear's utility 0.40 beats cheap's only with six digits (0.32).
        QTest::newRow("max_utility") << "max_utility" << 0.0 << "cheap 8, dear 2 (strong)";
    }
    void countsPerPolicy()
    {
        QFETCH(QString, policy);
        QFETCH(double, threshold);
        QFETCH(QString, expected);
        json router{{"router_file", "router.json"}, {"policy", policy.toStdString()}};
        if (policy == "strong_weak")
            router = strongWeak(threshold);
        else if (policy == "cheapest_above")
            router["threshold"] = threshold;
        else
            router["cost_weight"] = 0.5;
        const auto r = compute(team(router));
        QCOMPARE(q(r.error), QString());
        QCOMPARE(r.tasks, size_t(10));
        QCOMPARE(counts(r), expected);
        QCOMPARE(r.routes.front().model, std::string("wrong-100"));
        QCOMPARE(r.routes.back().model, std::string("right-100"));
        QCOMPARE(r.routes.back().share, double(r.routes.back().tasks) / 10.0);
        QCOMPARE(r.file, std::filesystem::path(m_dir.filePath("router.json").toStdString()));
        QCOMPARE(r.method, std::string("logistic"));
        QCOMPARE(r.models, (std::vector<std::string>{"wrong-100", "right-100"}));
        QCOMPARE(r.policy, RoutePolicy::fromString(policy.toStdString()));
    }

    // strong_weak's strong route is the one `strong` names, even the cheap one.
    void strongIsWhatTheRouterNames()
    {
        json router = strongWeak(0.30);
        router["strong"] = "cheap";
        router["weak"] = "dear";
        // The gain p(cheap) − p(dear) is negative on every task: all go to dear, the weak route.
        QCOMPARE(counts(compute(team(router))), QString("cheap 0 (strong), dear 10"));
    }

    // The held-out tasks of a set recorded by a bundled name come from resources/tasksets/.
    void bundledSet()
    {
        write(m_dir, "bundled.json",
              RouterFile::toJsonText(sampleModel(
                  {"wrong-100", "right-100"}, {{"math", "math-001"}, {"math", "math-002"}, {"facts", "facts-001"}})));
        const auto r = compute(team(strongWeak(0.30, "bundled.json")));
        QCOMPARE(q(r.error), QString());
        QCOMPARE(counts(r), QString("cheap 1, dear 2 (strong)"));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("routerFile"); // written under this name unless it says "missing"
        QTest::addColumn<QString>("contents");   // "models:A,B", "heldout:SET" or the file's text
        QTest::addColumn<QString>("expected");
        const QString dir = m_dir.path();
        QTest::newRow("no node") << "nope"
                                 << "router.json"
                                 << ""
                                 << "no node \"nope\" in the team";
        QTest::newRow("an expert") << "dear"
                                   << "router.json"
                                   << ""
                                   << "node \"dear\" is not a learned router";
        QTest::newRow("missing file") << "route"
                                      << "missing.json"
                                      << "missing"
                                      << "router file not found: " + dir + "/missing.json";
        QTest::newRow("not JSON") << "route"
                                  << "garbage.json"
                                  << "{ not json"
                                  << "node \"route\": router_file \"garbage.json\": 1:4: syntax error while parsing "
                                     "object key - invalid literal; last read: '{ no'; expected string literal";
        QTest::newRow("other models")
            << "route"
            << "others.json"
            << "models:a,b"
            << "node \"route\": router_file \"others.json\": the route to \"cheap\" answers with wrong-100, which the "
               "router was not trained on (it knows a, b): re-train it with conclave train-router --models";
        QTest::newRow("no held-out tasks") << "route"
                                           << "none.json"
                                           << "heldout:"
                                           << "held-out tasks unknown: the file records none";
        QTest::newRow("unknown set") << "route"
                                     << "lost.json"
                                     << "heldout:nowhere.jsonl"
                                     << "task set \"nowhere.jsonl\" not found: neither a bundled task set nor a file";
        QTest::newRow("unknown task") << "route"
                                      << "stale.json"
                                      << "heldout:math"
                                      << "held-out task \"t-01\" is not in task set \"math\"";
        QTest::newRow("broken set") << "route"
                                    << "broken.json"
                                    << "heldout:broken.jsonl"
                                    << "task set \"broken.jsonl\": " + dir +
                                           "/broken.jsonl:1:2: syntax error while parsing value - invalid literal; "
                                           "last read: 'no'";
    }
    void errors()
    {
        QFETCH(QString, node);
        QFETCH(QString, routerFile);
        QFETCH(QString, contents);
        QFETCH(QString, expected);
        const auto file = routerFile.toStdString();
        if (contents.startsWith("models:")) {
            std::vector<std::string> models;
            for (const auto& m : contents.mid(7).split(','))
                models.push_back(m.toStdString());
            write(m_dir, file, RouterFile::toJsonText(sampleModel(models, tenTasks("heldout.jsonl"))));
        } else if (contents.startsWith("heldout:")) {
            const auto set = contents.mid(8).toStdString();
            write(m_dir, file,
                  RouterFile::toJsonText(sampleModel(
                      {"wrong-100", "right-100"}, set.empty() ? std::vector<RouterModel::TaskRef>{} : tenTasks(set))));
        } else if (!contents.isEmpty() && contents != "missing") {
            write(m_dir, file, contents.toStdString());
        }
        write(m_dir, "broken.jsonl", "not a task\n");
        const auto r = compute(team(strongWeak(0.3, file)), node.toStdString());
        QCOMPARE(q(r.error), expected);
        QVERIFY(r.routes.empty());
    }

    // The validator's message for the router itself, before any file is read.
    void invalidRouter_data()
    {
        QTest::addColumn<QString>("drop");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no threshold") << "threshold"
                                      << "a learned router with policy strong_weak needs threshold";
        QTest::newRow("no router file") << "router_file"
                                        << "a learned router needs router_file (what conclave train-router writes)";
        QTest::newRow("strong not a target") << "strong=join"
                                             << "strong \"join\" is not a target of \"route\"";
    }
    void invalidRouter()
    {
        QFETCH(QString, drop);
        QFETCH(QString, expected);
        json router = strongWeak(0.3);
        if (drop.contains('='))
            router[drop.section('=', 0, 0).toStdString()] = drop.section('=', 1).toStdString();
        else
            router.erase(drop.toStdString());
        QCOMPARE(q(compute(team(router)).error), expected);
    }

    // Without the engine's resources there is no gate to read a router file under.
    void noResources()
    {
        const auto r = RouterHeldoutShare::compute(*team(strongWeak(0.3)), NodeId("route"), EngineResources{},
                                                   CONCLAVE_RESOURCES, m_dir.path().toStdString());
        QCOMPARE(q(r.error), QString("the engine's resources are not loaded (no gate to read the router file under)"));
    }

    // The bundled example: its file's 120 held-out tasks from the bundled sets, at its calibrated threshold.
    void bundledExample()
    {
        const std::filesystem::path folder = std::filesystem::path(CONCLAVE_RESOURCES) / "examples";
        auto loaded = loadTeamFile((folder / "learned-router.team.json").string());
        QVERIFY(loaded.team);
        QElapsedTimer clock;
        clock.start();
        const auto r =
            RouterHeldoutShare::compute(*loaded.team, NodeId("route"), m_resources, CONCLAVE_RESOURCES, folder);
        qInfo("the example's held-out share in %lld ms", static_cast<long long>(clock.elapsed()));
        QCOMPARE(q(r.error), QString());
        QCOMPARE(r.file, folder / "learned-router.router.json");
        QCOMPARE(r.method, std::string("logistic"));
        QCOMPARE(r.models, (std::vector<std::string>{"local/frontier-70b", "local/generalist-7b"}));
        QCOMPARE(r.tasks, size_t(120));
        QCOMPARE(counts(r), QString("generalist 86, frontier 34 (strong)"));
    }
};

QTEST_GUILESS_MAIN(TestRouterHeldoutShare)
#include "tst_routerheldoutshare.moc"
