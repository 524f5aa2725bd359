#pragma once

// The fixture of ChatServer's tests (tst_chatserver, tst_chatserverhostile):
// an engine, a run store and an access log in a temporary folder, the teams
// they serve, and a server started on any free port. Include <QtTest> first.

#include <QTemporaryDir>

#include "support/EngineTestKit.h"
#include "support/ServeClient.h"

#include "conclave/serve/ChatServer.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/SqliteDb.h"

#include <fstream>
#include <sstream>

namespace chatservertest {

using namespace enginetest;

inline const std::string kKey = "sk-test-secret-4f9a1c77";
inline const std::string kOtherKey = "sk-test-other-88b2d0e1";

class ChatServerFixture : public QObject {
protected:
    QTemporaryDir m_dir;
    EngineHarness m_harness;
    std::unique_ptr<RunStore> m_store;
    std::ostringstream m_log;

    std::string path(const std::string& name) const { return (m_dir.path() + "/" + name.c_str()).toStdString(); }

    void writeTeam(const std::string& file, TeamBuilder builder)
    {
        std::ofstream(path(file)) << builder.doc().dump(2);
    }

    std::shared_ptr<const ServedTeams> teams(const std::vector<std::string>& specs)
    {
        std::vector<ServedTeams::Spec> parsed;
        for (const auto& text : specs) {
            std::string error;
            parsed.push_back(*ServedTeams::parseSpec(path(text), error));
        }
        auto loaded = ServedTeams::load(parsed, m_harness.engine());
        if (!loaded.teams)
            qFatal("teams: %s", loaded.error.c_str());
        return loaded.teams;
    }

    std::unique_ptr<ChatServer> serve(ChatServerOptions options = {},
                                      std::vector<std::string> specs = {"one.team.json", "vote.team.json",
                                                                        "slow.team.json"})
    {
        options.port = 0;
        options.accessLog = &m_log;
        std::string error;
        auto server = ChatServer::start(m_harness.engine(), *m_store, teams(specs), std::move(options), error);
        if (!server)
            qFatal("the server did not start: %s", error.c_str());
        return server;
    }

    static ChatServerOptions withKeys(const std::string& lines)
    {
        ChatServerOptions options;
        options.keys = ApiKeys::parse(lines, "keys").keys;
        return options;
    }

    void checkIntegrity()
    {
        m_store->flush();
        SqliteDb check;
        QVERIFY(!check.open(path("runs.sqlite"), SqliteDb::Mode::ReadWrite));
        auto integrity = check.prepare("PRAGMA integrity_check");
        QVERIFY(integrity.step());
        QCOMPARE(integrity.text(0), std::string("ok"));
    }

    std::optional<StoredRun> stored(const std::string& runId)
    {
        std::string error;
        m_store->flush();
        auto reader = m_store->reader(error);
        return reader ? reader->load(RunId(runId), true, error) : std::nullopt;
    }

    // The engine, the store, and the teams one, vote, slow and slower.
    bool setUp()
    {
        if (!m_harness.init())
            return false;
        auto opened = RunStore::open(path("runs.sqlite"));
        if (!opened.store)
            return false;
        m_store = std::move(opened.store);
        writeTeam("one.team.json", TeamBuilder().expert("a", "right").edge("in", "a").output("a"));
        writeTeam("vote.team.json", TeamBuilder()
                                        .expert("a", "right")
                                        .expert("b", "right-100")
                                        .node("vote", "aggregator", json{{"strategy", "majority"}})
                                        .edge("in", "a")
                                        .edge("in", "b")
                                        .edge("a", "vote")
                                        .edge("b", "vote")
                                        .output("vote"));
        TeamBuilder slow(0.2); // 5 s of simulated time: 1 s, streaming from 4 ms
        slow.expert("a", "five-seconds").edge("in", "a").output("a");
        writeTeam("slow.team.json", slow);
        TeamBuilder slower(1.0); // 5 s, streaming from 20 ms
        slower.expert("a", "five-seconds").edge("in", "a").output("a");
        writeTeam("slower.team.json", slower);
        return true;
    }

    void tearDown()
    {
        m_store.reset();
        m_harness.reset();
    }
};

} // namespace chatservertest
