// ServeDialog and ServeController (Run > Serve This Team…) in a studio window
// on the triage example: served on port 0, a real POST /v1/chat/completions
// makes exactly one row (its status and the run id of x-conclave-run-id) and
// a run in the history; the snippets carry the real port and model id, and
// the key header only with a keys file; a bad keys file, a team that cannot
// run and a port in use are said inline in core's exact words; Stop (and
// closing the dialog or the window) drains without blocking the GUI, and the
// port then refuses connections.
#include <QtTest>

#include "support/RawHttpClient.h"

#include "document/TeamDocument.h"
#include "run/RunController.h"
#include "run/RunHistoryPanel.h"
#include "run/ServeController.h"
#include "run/ServeDialog.h"
#include "studio/MainWindow.h"

#include "conclave/io/ContentHash.h"
#include "conclave/io/TeamJson.h"
#include "conclave/serve/ApiKeys.h"
#include "conclave/serve/ServedTeams.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

using namespace std::chrono_literals;
using conclave::ui::MainWindow;
using conclave::ui::ServeController;
using conclave::ui::ServeDialog;
using testsupport::RawHttpClient;

namespace {

const QString kTriage = QStringLiteral(CONCLAVE_RESOURCES "/examples/triage.team.json");

struct Reply {
    int status = 0;
    std::string runId; // x-conclave-run-id
    std::string raw;
};

// One POST /v1/chat/completions on a connection of its own, read to its close.
Reply chat(uint16_t port, const std::string& model, const std::string& key = {})
{
    const std::string body =
        R"({"model": ")" + model + R"(", "messages": [{"role": "user", "content": "Calculate 323 + 460."}]})";
    std::string request = "POST /v1/chat/completions HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
                          "Content-Type: application/json\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n";
    if (!key.empty())
        request += "Authorization: Bearer " + key + "\r\n";
    RawHttpClient client(port);
    Reply reply;
    if (!client.send(request + "\r\n" + body))
        return reply;
    reply.raw = client.readToClose(60s);
    if (reply.raw.rfind("HTTP/1.1 ", 0) == 0)
        reply.status = std::atoi(reply.raw.c_str() + 9);
    std::string lower = reply.raw.substr(0, reply.raw.find("\r\n\r\n"));
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    const auto at = lower.find("\r\nx-conclave-run-id: ");
    if (at != std::string::npos) {
        const auto from = at + std::strlen("\r\nx-conclave-run-id: ");
        reply.runId = reply.raw.substr(from, reply.raw.find("\r\n", from) - from);
    }
    return reply;
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestServeDialog : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString writeFile(const QString& name, const std::string& text, mode_t mode)
    {
        const QString path = m_dir.filePath(name);
        std::ofstream(path.toStdString()) << text;
        ::chmod(path.toLocal8Bit().constData(), mode);
        return path;
    }

    // A studio window on the triage example with a store of the test's own, and its serve dialog shown.
    std::unique_ptr<MainWindow> studio()
    {
        auto window = std::make_unique<MainWindow>();
        if (!window->openFile(kTriage, false) || !window->setRunStore(m_dir.filePath("runs.sqlite")))
            return nullptr;
        window->show();
        return window;
    }

    // Clicks Stop and waits for the drain: it must not hold the GUI thread.
    static bool stopAndWait(ServeDialog* dialog)
    {
        QSignalSpy stopped(dialog->controller(), &ServeController::stopped);
        QElapsedTimer clicked;
        clicked.start();
        dialog->startButton()->click();
        if (clicked.elapsed() > 500 || dialog->controller()->state() != ServeController::State::Stopping)
            return false;
        return stopped.wait(20000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qRegisterMetaType<conclave::ServedRequest>();
    }

    void servesTheOpenTeamAndListsItsRequests()
    {
        auto window = studio();
        QVERIFY(window);
        QAction* action = window->action(QStringLiteral("actionServe"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Ser&ve This Team…"));
        bool inRunMenu = false;
        for (QAction* menu : window->menuBar()->actions()) {
            if (menu->text() == QStringLiteral("&Run"))
                inRunMenu = menu->menu()->actions().contains(action);
        }
        QVERIFY(inRunMenu);
        action->trigger();
        auto* dialog = window->serving()->dialog();
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->portBox()->value(), 8080);
        QVERIFY(dialog->requestList()->isHidden());
        QCOMPARE(dialog->findChild<QLabel*>("serveTeam")->text(),
                 QStringLiteral("Serves the open team “Triage: gate or decompose” as the model “triage”."));

        auto* controller = dialog->controller();
        QSignalSpy started(controller, &ServeController::started);
        dialog->portBox()->setValue(0);
        dialog->startButton()->click();
        QCOMPARE(started.count(), 1);
        QVERIFY(dialog->errorLabel()->isHidden());
        const uint16_t port = controller->port();
        QVERIFY(port != 0);
        const QString url = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
        QCOMPARE(controller->url(), url);
        QCOMPARE(dialog->urlEdit()->text(), url);
        QCOMPARE(dialog->startButton()->text(), QStringLiteral("Stop"));
        QCOMPARE(dialog->stateLabel()->text(), QStringLiteral("Serving on ") + url);
        const QString curl = dialog->curlSnippet()->toPlainText();
        QCOMPARE(curl,
                 QStringLiteral("curl -s http://127.0.0.1:%1/v1/chat/completions \\\n"
                                "  -H 'Content-Type: application/json' \\\n"
                                R"(  -d '{"model": "triage", "messages": [{"role": "user", "content": "Hello"}]}')")
                     .arg(port));
        // The run toolbar's input, quoted for JSON and the shell.
        dialog->setSampleInput(QStringLiteral("Isn't \"323 + 460\" 783?"));
        const QString quoted = QStringLiteral("\"content\": \"Isn'\\''t \\\"323 + 460\\\" 783?\"}]}'");
        QVERIFY2(dialog->curlSnippet()->toPlainText().endsWith(quoted),
                 qPrintable(dialog->curlSnippet()->toPlainText()));
        const QString python = dialog->pythonSnippet()->toPlainText();
        QVERIFY2(python.contains(QStringLiteral(R"(client = OpenAI(base_url="%1", api_key="none"))").arg(url)),
                 qPrintable(python));
        QVERIFY(python.contains(QStringLiteral(R"(model="triage",)")));

        // A real request: one row, its status and run id as the client was answered.
        QSignalSpy served(controller, &ServeController::requestServed);
        const auto reply = chat(port, "triage");
        QCOMPARE(reply.status, 200);
        QVERIFY2(!reply.runId.empty(), reply.raw.c_str());
        QTRY_COMPARE_WITH_TIMEOUT(dialog->requestList()->topLevelItemCount(), 1, 20000);
        QCOMPARE(served.count(), 1);
        const auto* row = dialog->requestList()->topLevelItem(0);
        QCOMPARE(row->text(1), QStringLiteral("200"));
        QCOMPARE(row->text(2), q(reply.runId));
        QCOMPARE(row->text(3), QStringLiteral("ok"));
        QVERIFY(row->text(4).toDouble() > 0);
        QVERIFY(dialog->requestList()->isVisible());
        QCOMPARE(dialog->findChild<QLabel*>("serveRequestCount")->text(), QStringLiteral("1 request"));

        // The history shows the served run (the Served filter knows its source).
        auto* history = window->historyPanel();
        const conclave::RunId runId(reply.runId);
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(history->runs().begin(), history->runs().end(),
                                             [&](const conclave::RunSummary& r) { return r.id == runId; }),
                                 5000);
        history->setSourceFilter(conclave::RunSource::Serve);
        QCOMPARE(history->matchCount(), int64_t(1));
        QCOMPARE(history->runs().front().id, runId);

        // Stop drains off the GUI thread; the port then refuses connections.
        QVERIFY(stopAndWait(dialog));
        QCOMPARE(controller->state(), ServeController::State::Stopped);
        QCOMPARE(dialog->startButton()->text(), QStringLiteral("Start"));
        QCOMPARE(dialog->stateLabel()->text(), QStringLiteral("Stopped; port %1 is closed.").arg(port));
        QVERIFY(!RawHttpClient(port).connected());
        QCOMPARE(dialog->requestList()->topLevelItemCount(), 1);
    }

    void saysWhatIsWrongWithAKeysFile()
    {
        auto window = studio();
        QVERIFY(window);
        auto* dialog = window->serving()->showDialog();
        auto* controller = dialog->controller();
        QSignalSpy started(controller, &ServeController::started);
        dialog->portBox()->setValue(0);

        const std::string key = "sk-alice-7f3c9e21aa40d6b1";
        const QString open = writeFile("open.keys", key + " name=alice\n", 0644);
        QVERIFY(!dialog->setKeysFile(open));
        const std::string expected = open.toStdString() +
                                     ": group or others may read the keys file (mode 0644); run: chmod 600 " +
                                     open.toStdString();
        QCOMPARE(conclave::ApiKeys::loadFile(open.toStdString()).error, expected);
        QCOMPARE(dialog->keysNote()->text(), q(expected));
        dialog->startButton()->click();
        QCOMPARE(started.count(), 0);
        QCOMPARE(controller->state(), ServeController::State::Stopped);

        const QString bad = writeFile("bad.keys", "# keys\n" + key + " rpm=0\n", 0600);
        QVERIFY(!dialog->setKeysFile(bad));
        QCOMPARE(dialog->keysNote()->text(),
                 bad + QStringLiteral(":2: rpm: expected a whole number above 0, got \"0\""));
        QVERIFY(!dialog->start());

        // A good one: the snippets send the key; a request without it is refused and makes no row.
        const QString good = writeFile("good.keys", key + " name=alice\n", 0600);
        QVERIFY(dialog->setKeysFile(good));
        QCOMPARE(dialog->keysNote()->text(), QStringLiteral("1 key: alice; clients send Authorization: Bearer KEY."));
        QVERIFY(dialog->start());
        QVERIFY(dialog->curlSnippet()->toPlainText().contains(QStringLiteral("-H \"Authorization: Bearer $KEY\"")));
        QVERIFY(dialog->pythonSnippet()->toPlainText().contains(QStringLiteral("api_key=os.environ[\"KEY\"]")));
        QCOMPARE(chat(controller->port(), "triage").status, 401);
        const auto reply = chat(controller->port(), "triage", key);
        QCOMPARE(reply.status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(dialog->requestList()->topLevelItemCount(), 1, 20000);
        QCOMPARE(dialog->requestList()->topLevelItem(0)->text(2), q(reply.runId));
        QCOMPARE(dialog->requestList()->topLevelItem(0)->text(5), QStringLiteral("alice"));

        // Closing the dialog while serving drains first, then it closes.
        QSignalSpy stopped(controller, &ServeController::stopped);
        const uint16_t port = controller->port();
        dialog->close();
        QVERIFY(dialog->isVisible());
        QCOMPARE(controller->state(), ServeController::State::Stopping);
        QVERIFY(stopped.wait(20000));
        QVERIFY(!dialog->isVisible());
        QVERIFY(!RawHttpClient(port).connected());
    }

    void saysWhyItCannotServe()
    {
        auto window = studio();
        QVERIFY(window);
        auto* dialog = window->serving()->showDialog();
        dialog->portBox()->setValue(0);
        QVERIFY(dialog->start());
        const uint16_t port = dialog->controller()->port();

        // Another window on the same port: the listener's own words.
        auto other = studio();
        QVERIFY(other);
        auto* second = other->serving()->showDialog();
        second->portBox()->setValue(port);
        QVERIFY(!second->start());
        QVERIFY(second->errorLabel()->isVisible());
        QCOMPARE(second->errorLabel()->text(),
                 QStringLiteral("cannot listen on 127.0.0.1:%1: Address already in use").arg(port));
        QCOMPARE(second->controller()->state(), ServeController::State::Stopped);
        QCOMPARE(second->startButton()->text(), QStringLiteral("Start"));

        // A team that cannot run (a new, empty one), as ServedTeams says it, under its content-hash id.
        other->newDocument();
        const auto& team = other->document()->team();
        const std::string id = ServeController::modelIdOf(team, {});
        QCOMPARE(id, "team-" + conclave::contentHash(conclave::teamToJsonText(team)).substr(0, 12));
        QCOMPARE(id.size(), size_t(17));
        const auto refused = conclave::ServedTeams::ofTeam(team, id, {}, *other->runController()->engine());
        QVERIFY(!refused.teams);
        second->portBox()->setValue(0);
        QVERIFY(!second->start());
        QCOMPARE(second->errorLabel()->text(), q(refused.error));
        QCOMPARE(ServeController::modelIdOf(team, "/x/triage.team.json"), std::string("triage"));

        QVERIFY(stopAndWait(dialog));
    }

    void closingTheWindowDrainsFirst()
    {
        auto window = studio();
        QVERIFY(window);
        auto* dialog = window->serving()->showDialog();
        dialog->portBox()->setValue(0);
        QVERIFY(dialog->start());
        const uint16_t port = dialog->controller()->port();
        QSignalSpy stopped(dialog->controller(), &ServeController::stopped);
        QVERIFY(!window->close()); // not yet: the drain runs
        QVERIFY(window->isVisible());
        QCOMPARE(dialog->controller()->state(), ServeController::State::Stopping);
        QVERIFY(stopped.wait(20000));
        QTRY_VERIFY(!window->isVisible());
        QVERIFY(!RawHttpClient(port).connected());
    }
};

QTEST_MAIN(TestServeDialog)
#include "tst_servedialog.moc"
