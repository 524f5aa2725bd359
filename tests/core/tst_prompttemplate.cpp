// PromptTemplate: the one reader of {{…}} placeholders, and which a node may use.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/io/TeamJson.h"
#include "conclave/model/PromptTemplate.h"

#include <nlohmann/json.hpp>

using namespace conclave;
using json = nlohmann::json;

namespace {

// in -> r -> a -> join -> out, r -> meet (members m1, m2) -> join.
Team meetingTeam()
{
    json doc{{"conclave", 1}, {"name", "t"}, {"backends", {{"local", {{"kind", "local-moe"}}}}}};
    doc["nodes"] = json::array();
    for (const auto& [id, kind] : std::vector<std::pair<const char*, const char*>>{{"in", "input"},
                                                                                   {"r", "router"},
                                                                                   {"a", "expert"},
                                                                                   {"meet", "coordinator"},
                                                                                   {"m1", "expert"},
                                                                                   {"m2", "expert"},
                                                                                   {"join", "aggregator"},
                                                                                   {"out", "output"}})
        doc["nodes"].push_back(json{{"id", id}, {"kind", kind}});
    doc["edges"] =
        json::array({json{{"from", "in"}, {"to", "r"}}, json{{"from", "r"}, {"to", "a"}},
                     json{{"from", "r"}, {"to", "meet"}}, json{{"from", "meet"}, {"to", "m1"}, {"role", "member"}},
                     json{{"from", "meet"}, {"to", "m2"}, {"role", "member"}}, json{{"from", "a"}, {"to", "join"}},
                     json{{"from", "meet"}, {"to", "join"}}, json{{"from", "join"}, {"to", "out"}}});
    return *teamFromJson(doc).team;
}

QString joined(const std::vector<std::string>& names)
{
    QStringList out;
    for (const auto& n : names)
        out << q(n);
    return out.join(QLatin1Char(' '));
}

} // namespace

class TestPromptTemplate : public QObject {
    Q_OBJECT

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("names");
        QTest::newRow("none") << "plain"
                              << "";
        QTest::newRow("trimmed, repeated") << "{{ input }} {{from.a}}{{input}}"
                                           << "input from.a input";
        QTest::newRow("unclosed is text") << "{{input}} {{ from.a"
                                          << "input";
        QTest::newRow("empty name") << "{{}}"
                                    << "";
        QTest::newRow("closing first") << "}} {{task}}}}"
                                       << "task";
    }
    void names()
    {
        QFETCH(QString, tmpl);
        QFETCH(QString, names);
        const auto found = PromptTemplate::names(tmpl.toStdString());
        QCOMPARE(joined(found), names);
        if (tmpl == "{{}}")
            QCOMPARE(found.size(), size_t(1)); // an empty placeholder is still one
    }

    void scanCoversTheTemplateExactly()
    {
        const std::string tmpl = "a {{ input }} b {{from.x}}{{ unclosed";
        std::string rebuilt;
        QStringList holes;
        PromptTemplate::scan(
            tmpl, [&](std::string_view text) { rebuilt.append(text); },
            [&](const PromptTemplate::Placeholder& p) {
                rebuilt.append(p.whole);
                holes << q(std::string(p.inside)) + "=" + q(std::string(p.name));
            });
        QCOMPARE(q(rebuilt), q(tmpl));
        QCOMPARE(holes, QStringList({" input =input", "from.x=from.x"}));
    }

    void renameNode()
    {
        const auto renamed = [](const char* tmpl) {
            return q(PromptTemplate::renameNode(tmpl, "draft", "first_draft"));
        };
        QCOMPARE(renamed("{{from.draft}} and {{ from.draft }}"),
                 QString("{{from.first_draft}} and {{ from.first_draft }}"));
        QCOMPARE(renamed("{{from.drafts}} {{from.dra}} {{input}} {{draft}}"),
                 QString("{{from.drafts}} {{from.dra}} {{input}} {{draft}}"));
        QCOMPARE(renamed("before {{from.draft}} after {{ unclosed"),
                 QString("before {{from.first_draft}} after {{ unclosed"));
        QCOMPARE(renamed(""), QString());
        QCOMPARE(renamed("}} {{from.draft}}}}"), QString("}} {{from.first_draft}}}}"));
    }

    void useOf_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("inMeeting");
        QTest::addColumn<int>("use");
        using U = PromptTemplate::Use;
        QTest::newRow("input") << "input" << false << int(U::Allowed);
        QTest::newRow("inputs") << "inputs" << false << int(U::Allowed);
        QTest::newRow("transcript outside") << "transcript" << false << int(U::MeetingOnly);
        QTest::newRow("round in a meeting") << "round" << true << int(U::Allowed);
        QTest::newRow("task outside") << "task" << false << int(U::MeetingOnly);
        QTest::newRow("from upstream") << "from.up" << false << int(U::Allowed);
        QTest::newRow("from elsewhere") << "from.down" << true << int(U::NotUpstream);
        QTest::newRow("unknown") << "answer" << true << int(U::Unknown);
    }
    void useOf()
    {
        QFETCH(QString, name);
        QFETCH(bool, inMeeting);
        QFETCH(int, use);
        const auto isUpstream = [](std::string_view id) { return id == "up"; };
        QCOMPARE(int(PromptTemplate::useOf(name.toStdString(), inMeeting, isUpstream)), use);
    }

    void allowedFor_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("names");
        QTest::newRow("input") << "in"
                               << "input inputs";
        QTest::newRow("behind the router") << "a"
                                           << "input inputs from.in from.r";
        QTest::newRow("coordinator") << "meet"
                                     << "input inputs transcript round task from.in from.r";
        // A member sees what its coordinator sees, not the coordinator itself.
        QTest::newRow("member") << "m2"
                                << "input inputs transcript round task from.in from.r";
        QTest::newRow("join") << "join"
                              << "input inputs from.in from.r from.a from.meet";
    }
    void allowedFor()
    {
        QFETCH(QString, node);
        QFETCH(QString, names);
        const Team team = meetingTeam();
        const TeamGraph graph(team);
        const auto index = graph.indexOf(NodeId(node.toStdString()));
        QVERIFY(index);
        QCOMPARE(joined(PromptTemplate::allowedFor(graph, *index, team.nodes[*index].kind)), names);
    }
};

QTEST_GUILESS_MAIN(TestPromptTemplate)
#include "tst_prompttemplate.moc"
