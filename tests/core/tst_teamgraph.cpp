// TeamGraph: the one home of a team's adjacency and the walks over it.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/io/TeamJson.h"
#include "conclave/model/TeamGraph.h"

#include <nlohmann/json.hpp>

using namespace conclave;
using json = nlohmann::json;

namespace {

// Nodes by id and kind, edges as "a>b" (flow) or "c=m" (member).
Team team(const std::vector<std::pair<std::string, std::string>>& nodes, const std::vector<std::string>& edges)
{
    json doc{{"conclave", 1}, {"name", "t"}, {"backends", {{"local", {{"kind", "local-moe"}}}}}};
    doc["nodes"] = json::array();
    for (const auto& [id, kind] : nodes)
        doc["nodes"].push_back(json{{"id", id}, {"kind", kind}});
    doc["edges"] = json::array();
    for (const auto& e : edges) {
        const bool member = e.find('=') != std::string::npos;
        const auto cut = e.find(member ? '=' : '>');
        json edge{{"from", e.substr(0, cut)}, {"to", e.substr(cut + 1)}};
        if (member)
            edge["role"] = "member";
        doc["edges"].push_back(edge);
    }
    return *teamFromJson(doc).team;
}

Team diamond()
{
    return team({{"in", "input"},
                 {"a", "expert"},
                 {"b", "expert"},
                 {"c", "coordinator"},
                 {"m", "expert"},
                 {"join", "aggregator"},
                 {"out", "output"}},
                {"in>a", "in>b", "a>join", "b>c", "c=m", "c>join", "join>out"});
}

QString ids(const TeamGraph& g, const std::vector<NodeIndex>& nodes)
{
    QStringList out;
    for (const NodeIndex n : nodes)
        out << q(g.idOf(n).str());
    return out.join(QLatin1Char(' '));
}

QString marked(const TeamGraph& g, const std::vector<bool>& set)
{
    std::vector<NodeIndex> nodes;
    for (size_t i = 0; i < set.size(); ++i) {
        if (set[i])
            nodes.push_back(NodeIndex(i));
    }
    return ids(g, nodes);
}

NodeIndex at(const TeamGraph& g, const char* id)
{
    return *g.indexOf(NodeId(id));
}

} // namespace

class TestTeamGraph : public QObject {
    Q_OBJECT

private slots:
    void adjacencyKeepsEdgeOrder()
    {
        const Team t = diamond();
        const TeamGraph g(t);
        QCOMPARE(g.size(), size_t(7));
        QCOMPARE(g.out(at(g, "in")).size(), size_t(2));
        QCOMPARE(q(g.idOf(g.out(at(g, "in"))[1].node).str()), QStringLiteral("b"));
        QCOMPARE(g.out(at(g, "in"))[1].edge.value(), size_t(1));
        QCOMPARE(g.in(at(g, "join")).size(), size_t(2));
        QCOMPARE(g.sourceCount(at(g, "join")), size_t(2));
        QCOMPARE(ids(g, g.members(at(g, "c"))), QStringLiteral("m"));
        QVERIFY(g.isMember(at(g, "m")));
        QVERIFY(!g.isMember(at(g, "c")));
        QCOMPARE(g.coordinators(at(g, "m"))[0].edge.value(), size_t(4));
        QVERIFY(g.in(at(g, "m")).empty()); // member edges are not flow
        QCOMPARE(g.edgeEnds().size(), size_t(7));
        QVERIFY(!g.indexOf(NodeId("nope")));
    }

    void walks()
    {
        const Team t = diamond();
        const TeamGraph g(t);
        QCOMPARE(marked(g, g.upstreamOf(at(g, "join"))), QStringLiteral("in a b c"));
        QCOMPARE(marked(g, g.upstreamOf(at(g, "m"))), QStringLiteral("in b")); // the coordinator's, not itself
        QCOMPARE(marked(g, g.reachableFrom(at(g, "b"))), QStringLiteral("b c m join out"));
        QCOMPARE(ids(g, g.shortestPath(at(g, "in"), at(g, "out"))), QStringLiteral("in a join out"));
        QCOMPARE(ids(g, g.shortestPath(at(g, "out"), at(g, "in"))), QString());
        const auto order = g.topologicalOrder();
        QVERIFY(order);
        QCOMPARE(order->size(), size_t(7));
        std::vector<size_t> position(g.size());
        for (size_t k = 0; k < order->size(); ++k)
            position[(*order)[k]] = k;
        for (const auto& [from, to] : g.edgeEnds()) {
            if (!g.isMember(to))
                QVERIFY(position[from] < position[to]);
        }
        QVERIFY(g.cycle().nodes.empty());
    }

    void cycleIsNamedFromItsFirstNode()
    {
        const Team t = team({{"in", "input"}, {"x", "expert"}, {"y", "expert"}, {"z", "expert"}, {"out", "output"}},
                            {"in>x", "x>y", "y>z", "z>x", "z>out"});
        const TeamGraph g(t);
        QVERIFY(!g.topologicalOrder());
        const auto cycle = g.cycle();
        QCOMPARE(ids(g, cycle.nodes), QStringLiteral("x y z"));
        QVERIFY(cycle.closing);
        QCOMPARE(cycle.closing->value(), size_t(3)); // z>x
    }

    // in > fast > out; fast holds quick and panel, panel holds a and b.
    void nestedMeetings()
    {
        const Team t = team({{"in", "input"},
                             {"pre", "expert"},
                             {"fast", "coordinator"},
                             {"quick", "expert"},
                             {"panel", "coordinator"},
                             {"a", "expert"},
                             {"b", "expert"},
                             {"out", "output"}},
                            {"in>pre", "pre>fast", "fast=quick", "fast=panel", "panel=a", "panel=b", "fast>out"});
        const TeamGraph g(t);
        // A member meeting's members see what the outer coordinator sees, however deep; never a coordinator.
        QCOMPARE(marked(g, g.upstreamOf(at(g, "a"))), QStringLiteral("in pre"));
        QCOMPARE(marked(g, g.upstreamOf(at(g, "panel"))), QStringLiteral("in pre"));
        QCOMPARE(marked(g, g.upstreamOf(at(g, "out"))), QStringLiteral("in pre fast"));
        QCOMPARE(marked(g, g.reachableFrom(at(g, "in"))), QStringLiteral("in pre fast quick panel a b out"));
        for (size_t i = 0; i < g.size(); ++i)
            QVERIFY(g.memberCycle(NodeIndex(i)).nodes.empty());
    }

    // Named downwards (holder before member) from its first node in node order, closed by the
    // member edge into that node, from whichever of its nodes it is asked.
    void memberCycle_data()
    {
        QTest::addColumn<QStringList>("edges");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("nodes");
        QTest::addColumn<int>("closing");
        const QStringList three{"x=y", "y=z", "z=x"};
        QTest::newRow("itself") << QStringList{"x=x"} << "x"
                                << "x" << 0;
        QTest::newRow("two") << QStringList{"x=y", "y=x"} << "y"
                             << "x y" << 1;
        QTest::newRow("three, from x") << three << "x"
                                       << "x y z" << 2;
        QTest::newRow("three, from z") << three << "z"
                                       << "x y z" << 2;
        QTest::newRow("three, written backwards") << QStringList{"z=x", "y=z", "x=y"} << "y"
                                                  << "x y z" << 0;
        QTest::newRow("a way in: w is not on it") << QStringList{"w=y", "y=z", "z=y"} << "w"
                                                  << "" << -1;
        QTest::newRow("a way in: y is, by its second holder") << QStringList{"w=y", "y=z", "z=y"} << "y"
                                                              << "y z" << 2;
        QTest::newRow("the shortest of two") << QStringList{"x=y", "y=z", "z=x", "y=x"} << "x"
                                             << "x y" << 3;
        QTest::newRow("a chain") << QStringList{"x=y", "y=z"} << "z"
                                 << "" << -1;
    }

    void memberCycle()
    {
        QFETCH(QStringList, edges);
        QFETCH(QString, from);
        QFETCH(QString, nodes);
        QFETCH(int, closing);
        std::vector<std::string> e;
        for (const auto& edge : edges)
            e.push_back(edge.toStdString());
        const Team t =
            team({{"w", "coordinator"}, {"x", "coordinator"}, {"y", "coordinator"}, {"z", "coordinator"}}, e);
        const TeamGraph g(t);
        const auto cycle = g.memberCycle(at(g, from.toLatin1().constData()));
        QCOMPARE(ids(g, cycle.nodes), nodes);
        QCOMPARE(cycle.closing ? int(cycle.closing->value()) : -1, closing);
        // The other walks finish on it.
        QCOMPARE(g.reachableFrom(at(g, "x")).size(), size_t(4));
        QCOMPARE(g.upstreamOf(at(g, "x")).size(), size_t(4));
    }

    void unknownEndsAndFilteredEdgesAreLeftOut()
    {
        const Team t =
            team({{"in", "input"}, {"a", "expert"}, {"out", "output"}}, {"in>a", "a>ghost", "a>out", "in>a"});
        const TeamGraph all(t);
        QCOMPARE(all.edgeEnds().size(), size_t(3));
        QCOMPARE(all.sourceCount(at(all, "a")), size_t(1)); // one source, two edges
        QCOMPARE(all.in(at(all, "a")).size(), size_t(2));
        const TeamGraph firstOnly(t, [](EdgeIndex e) { return e.value() != 3; });
        QCOMPARE(firstOnly.in(at(firstOnly, "a")).size(), size_t(1));
    }

    void duplicateIdNamesItsFirstNode()
    {
        const Team t = team({{"in", "input"}, {"a", "expert"}, {"a", "expert"}, {"out", "output"}}, {"in>a", "a>out"});
        const TeamGraph g(t);
        QCOMPARE(at(g, "a").value(), size_t(1));
        QVERIFY(g.in(NodeIndex(2)).empty());
    }
};

QTEST_GUILESS_MAIN(TestTeamGraph)
#include "tst_teamgraph.moc"
