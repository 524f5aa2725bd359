// conclave-studio: the desktop workbench. Parses its command line and shows the main window.
#include "StudioBench.h"
#include "studio/ExperimentBench.h"
#include "studio/SearchBench.h"
#include "studio/ServeCall.h"

#include "editor/TeamScene.h"
#include "experiment/EvaluateDialog.h"
#include "experiment/TaskSetPicker.h"
#include "experiment/TrainRouterController.h"
#include "experiment/TrainRouterDialog.h"
#include "inspector/Inspector.h"
#include "run/RunController.h"
#include "run/RunToolBar.h"
#include "run/ServeController.h"
#include "run/ServeDialog.h"
#include "search/SearchController.h"
#include "search/SearchDialog.h"
#include "studio/MainWindow.h"
#include "studio/RunViewCommand.h"
#include "studio/ThemeManager.h"
#include "timeline/ReplayController.h"

#include "conclave/Version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QPainter>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace {

// Frames the team, selects `node` (when given), saves the window to `out` and
// ends the program: 0 when the picture is written, 2 when not.
void saveScreenshotAndExit(conclave::ui::MainWindow& window, const QString& out, const QString& node)
{
    window.fitToTeam(); // now that the canvas has its final size
    if (!node.isEmpty())
        window.scene()->selectNodes({conclave::NodeId(node.toStdString())});
    QApplication::processEvents();
    // What the inspector works out off the GUI thread (a learned router's prediction) is shown before the shot.
    QElapsedTimer waited;
    waited.start();
    while (window.inspector()->isSettling() && waited.elapsed() < 10000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    QApplication::processEvents();
    const bool ok = window.grab().save(out);
    if (!ok)
        std::fprintf(stderr, "conclave-studio: cannot write %s\n", qPrintable(out));
    QApplication::exit(ok ? 0 : 2);
}

// Run > Train Router… with `experiments` checked; with a screenshot, trains once their models are read and saves
// the dialog when the training has ended (its figures, or why it failed): 0 when the picture is written.
int showTrainRouter(conclave::ui::MainWindow& window, const QStringList& experiments, const QString& out)
{
    auto* dialog = window.experiments()->openTrainRouter(experiments);
    if (out.isEmpty())
        return QApplication::exec();
    const auto shoot = [dialog, out] {
        QApplication::processEvents();
        const bool ok = dialog->grab().save(out);
        if (!ok)
            std::fprintf(stderr, "conclave-studio: cannot write %s\n", qPrintable(out));
        QApplication::exit(ok ? 0 : 2);
    };
    QObject::connect(dialog, &conclave::ui::TrainRouterDialog::modelsShown, dialog, [dialog, shoot](bool ok) {
        if (!ok || !dialog->train()) // refused: the dialog says why
            shoot();
    });
    QObject::connect(dialog, &conclave::ui::TrainRouterDialog::trainedRouter, dialog, shoot);
    if (!dialog->controller()->isBusy()) // no models to read (none of them checked): shoot the dialog as it is
        QTimer::singleShot(0, dialog, shoot);
    return QApplication::exec();
}

// The window with `dialog` over its top right corner, as a window manager would show them.
QPixmap withDialog(QWidget& window, QWidget& dialog)
{
    QPixmap picture = window.grab();
    const QPixmap over = dialog.grab();
    const QPoint at(std::max(0, picture.width() - over.width() - 24), 56);
    QPainter painter(&picture);
    painter.fillRect(QRect(at + QPoint(4, 4), over.size()), QColor(0, 0, 0, 60)); // its shadow
    painter.drawPixmap(at, over);
    painter.setPen(window.palette().color(QPalette::Mid));
    painter.drawRect(QRect(at, over.size()).adjusted(-1, -1, 0, 0));
    return picture;
}

// Run > Serve This Team… serving on any free port; `call` (unless empty) is sent to it as a client would. With a
// screenshot, saves the window and the dialog once the call's run is listed (or the dialog says why it does not
// serve) and ends: 0 when the picture is written.
int showServe(conclave::ui::MainWindow& window, const QString& out, const QString& call)
{
    if (!call.isEmpty())
        window.runToolBar()->setInput(call); // the snippets send it too
    auto* serving = window.serving();
    const bool serves = serving->startServing(0);
    auto* dialog = serving->dialog();
    std::unique_ptr<conclave::studio::ServeCall> client;
    if (serves && !call.isEmpty())
        client = std::make_unique<conclave::studio::ServeCall>(
            serving->controller()->port(), serving->controller()->modelId().toStdString(), call.toStdString());
    if (!out.isEmpty()) {
        const auto shoot = [&window, dialog, serving, out] {
            window.fitToTeam();
            QApplication::processEvents();
            const bool ok = withDialog(window, *dialog).save(out);
            if (!ok)
                std::fprintf(stderr, "conclave-studio: cannot write %s\n", qPrintable(out));
            serving->controller()->halt();
            QApplication::exit(ok ? 0 : 2);
        };
        if (client) { // once the history has shown the served run too
            QObject::connect(
                serving->controller(), &conclave::ui::ServeController::requestServed, dialog,
                [dialog, shoot] { QTimer::singleShot(conclave::ui::ServeActions::kHistoryMs + 300, dialog, shoot); });
            QTimer::singleShot(60000, dialog, shoot); // no answer: the picture says so
        } else {
            QTimer::singleShot(0, dialog, shoot);
        }
    }
    const int code = QApplication::exec();
    serving->controller()->halt(); // answers the call, if it still waits
    return code;
}

// Run > Search Designs… on the open team, searching `taskset` with `budget` search trials when given. With a
// screenshot, saves the window and the dialog once the search has ended (or `shootAt` ms after it started, then
// stops it), or at once when it does not start: 0 when the picture is written. With `openDesign` (>= 0), that front
// design opens as a tab once the search has ended, and the window is saved without the dialog.
int showSearch(conclave::ui::MainWindow& window, const QString& out, const QString& taskset, int budget, int shootAt,
               int openDesign)
{
    auto* searches = window.searches();
    auto* dialog = searches->dialog();
    searches->showDialog();
    if (!taskset.isEmpty())
        dialog->tasks()->select(taskset);
    if (budget > 0)
        dialog->budget()->setValue(budget);
    if (out.isEmpty())
        return QApplication::exec();
    const auto shoot = [&window, dialog, out, openDesign] {
        window.fitToTeam();
        if (openDesign >= 0 && !dialog->controller()->isRunning()) {
            dialog->hide();
            window.searches()->openDesign(openDesign);
            QApplication::processEvents();
            QApplication::processEvents();
        }
        QApplication::processEvents();
        const bool ok = (openDesign >= 0 ? window.grab() : withDialog(window, *dialog)).save(out);
        if (!ok)
            std::fprintf(stderr, "conclave-studio: cannot write %s\n", qPrintable(out));
        dialog->controller()->halt(QStringLiteral("the screenshot was taken"));
        QApplication::exit(ok ? 0 : 2);
    };
    if (budget <= 0) { // the dialog as it opens
        QTimer::singleShot(0, dialog, shoot);
        return QApplication::exec();
    }
    if (shootAt >= 0)
        QTimer::singleShot(shootAt, dialog, shoot);
    else
        QObject::connect(dialog->controller(), &conclave::ui::SearchController::finished, dialog,
                         [dialog, shoot] { QTimer::singleShot(100, dialog, shoot); });
    QTimer::singleShot(0, dialog, [dialog, shoot] {
        if (!dialog->start())
            shoot();
    });
    return QApplication::exec();
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("conclave-studio");
    QApplication::setOrganizationName("Conclave");
    QApplication::setApplicationVersion(conclave::kVersion);
    QApplication::setWindowIcon(QIcon::fromTheme("conclave"));
    // --run, --replay, --compare, --experiment and --bench-timeline open the run views instead of the editor.
    if (const auto code = conclave::studio::runRunViewCommand(app, QApplication::arguments()))
        return *code;

    QCommandLineParser parser;
    parser.setApplicationDescription("Conclave Studio: design, run and measure teams of LLM agents.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("team", "A team file to open (*.team.json).", "[TEAM.json]");
    QCommandLineOption screenshot("screenshot", "Render the window after loading to OUT.png and exit.", "OUT.png");
    QCommandLineOption theme("theme", "Use this theme: system, light or dark (kept for next time).", "THEME");
    QCommandLineOption bench("bench", "Time opening a 500-node team and auto layout, print medians and exit.");
    QCommandLineOption benchExperiment(
        "bench-experiment", "Measure the GUI's longest stall while a 7,000-trial experiment runs; print and exit.");
    QCommandLineOption benchSearch(
        "bench-search", "Measure the GUI's longest stall while a design search of triage runs; print and exit.");
    QCommandLineOption search("search", "Open Run > Search Designs… after loading; with --search-budget, run the "
                                        "search, and with --screenshot render the window and the dialog once it ends.");
    QCommandLineOption searchTaskset("search-taskset", "With --search, the task set to search on.", "NAME");
    QCommandLineOption searchBudget("search-budget", "With --search, start a search of N search trials.", "N");
    QCommandLineOption searchOpen("search-open",
                                  "With --search and --screenshot, open front design N (from 0) as a tab once the "
                                  "search has ended, and render the window.",
                                  "N");
    QCommandLineOption sizeOption("size", "The window's size for --screenshot, e.g. 1280x800.", "WxH");
    QCommandLineOption evaluate("evaluate",
                                "Open Run > Evaluate Designs… after loading; with --screenshot, render the dialog.");
    QCommandLineOption trainRouter("train-router",
                                   "Open Run > Train Router… with these stored experiments (comma-separated ids) "
                                   "checked; with --screenshot, train and render the dialog.",
                                   "EXPERIMENT_IDS");
    QCommandLineOption serve("serve", "Open Run > Serve This Team… and serve the team on any free port; with "
                                      "--screenshot, render the window and the dialog once it serves.");
    QCommandLineOption serveCall("serve-call",
                                 "With --serve, send INPUT to the endpoint as a chat completion, as a client would; "
                                 "with --screenshot, render once its run is listed.",
                                 "INPUT");
    QCommandLineOption openRun("open-run", "Open this stored run's tab below the canvas after loading.", "RUN_ID");
    QCommandLineOption openReplay("open-replay", "Open this stored run's replay below the canvas (with --at).",
                                  "RUN_ID");
    QCommandLineOption at("at", "The replay's playhead, in milliseconds from the run's start.", "MS", "0");
    QCommandLineOption openExperiment("open-experiment", "Open this stored experiment's tab after loading.",
                                      "EXPERIMENT_ID");
    QCommandLineOption select("select", "Select this node after loading (for screenshots).", "NODE");
    QCommandLineOption runTeam(
        "run-team", "Run the team on INPUT after loading; with --screenshot, shoot once it has finished.", "INPUT");
    QCommandLineOption seed("seed", "The seed of --run-team.", "N");
    QCommandLineOption shootAt("shoot-at",
                               "With --run-team and --screenshot, shoot MS milliseconds after the run started, "
                               "while it runs (its live tab), instead of once it has finished; the run is then "
                               "stopped.",
                               "MS");
    QCommandLineOption instant("instant", "Run --run-team on the simulated clock (the toolbar's Instant).");
    QCommandLineOption db("db", "The run store (default: $CONCLAVE_DB, else the user's data folder).", "FILE");
    parser.addOption(runTeam);
    parser.addOption(seed);
    parser.addOption(shootAt);
    parser.addOption(instant);
    parser.addOption(db);
    parser.addOption(screenshot);
    parser.addOption(select);
    parser.addOption(theme);
    parser.addOption(bench);
    parser.addOption(benchExperiment);
    parser.addOption(benchSearch);
    parser.addOption(search);
    parser.addOption(searchTaskset);
    parser.addOption(searchBudget);
    parser.addOption(searchOpen);
    parser.addOption(sizeOption);
    parser.addOption(evaluate);
    parser.addOption(trainRouter);
    parser.addOption(serve);
    parser.addOption(serveCall);
    parser.addOption(openExperiment);
    parser.addOption(openRun);
    parser.addOption(openReplay);
    parser.addOption(at);
    parser.process(app);

    if (parser.isSet(bench))
        return conclave::studio::StudioBench::run(7);
    if (parser.isSet(benchExperiment))
        return conclave::studio::runExperimentBench(3);
    if (parser.isSet(benchSearch))
        return conclave::studio::runSearchBench(3);

    conclave::ui::MainWindow window;
    if (parser.isSet(theme))
        window.themes()->setTheme(conclave::ui::ThemeManager::fromName(parser.value(theme)));
    const auto args = parser.positionalArguments();
    const bool headless = parser.isSet(screenshot);
    std::optional<QSize> size;
    if (parser.isSet(sizeOption)) {
        QString error;
        size = conclave::studio::parseScreenSize(parser.value(sizeOption), error);
        if (!size) {
            std::fprintf(stderr, "conclave-studio: %s\n", qPrintable(error));
            return 2;
        }
    }
    if (headless)
        window.resize(size.value_or(parser.isSet(runTeam) ? QSize(1600, 1050) : QSize(1400, 860)));
    else if (size)
        window.resize(*size);
    if (!args.isEmpty() && !window.openFile(args.first(), !headless) && headless) {
        std::fprintf(stderr, "conclave-studio: cannot open %s\n%s\n", qPrintable(args.first()),
                     qPrintable(window.lastError()));
        return 2;
    }
    if (parser.isSet(db))
        window.setRunStore(parser.value(db));
    window.show();
    if (parser.isSet(openExperiment) && !window.openExperimentTab(parser.value(openExperiment)) && headless) {
        std::fprintf(stderr, "conclave-studio: cannot open experiment %s\n", qPrintable(parser.value(openExperiment)));
        return 2;
    }
    if (parser.isSet(openRun) && !window.openRunTab(conclave::RunId(parser.value(openRun).toStdString())) &&
        headless) {
        std::fprintf(stderr, "conclave-studio: cannot open run %s\n", qPrintable(parser.value(openRun)));
        return 2;
    }
    if (parser.isSet(openReplay)) {
        if (!window.openReplayTab(conclave::RunId(parser.value(openReplay).toStdString()))) {
            std::fprintf(stderr, "conclave-studio: cannot replay run %s\n", qPrintable(parser.value(openReplay)));
            if (headless)
                return 2;
        } else if (auto* replay = window.currentRunTab().replay) {
            replay->seek(qint64(parser.value(at).toDouble() * 1000));
        }
    }
    if (parser.isSet(evaluate)) {
        auto* dialog = window.experiments()->dialog();
        window.experiments()->showDialog();
        if (headless) {
            const QString out = parser.value(screenshot);
            QTimer::singleShot(0, dialog, [dialog, out] {
                QApplication::processEvents();
                const bool ok = dialog->grab().save(out);
                if (!ok)
                    std::fprintf(stderr, "conclave-studio: cannot write %s\n", qPrintable(out));
                QApplication::exit(ok ? 0 : 2);
            });
            return QApplication::exec();
        }
    }

    if (parser.isSet(trainRouter))
        return showTrainRouter(window, parser.value(trainRouter).split(QLatin1Char(','), Qt::SkipEmptyParts),
                               headless ? parser.value(screenshot) : QString());

    if (parser.isSet(search))
        return showSearch(window, headless ? parser.value(screenshot) : QString(), parser.value(searchTaskset),
                          parser.value(searchBudget).toInt(),
                          parser.isSet(shootAt) ? parser.value(shootAt).toInt() : -1,
                          parser.isSet(searchOpen) ? parser.value(searchOpen).toInt() : -1);

    if (parser.isSet(serve))
        return showServe(window, headless ? parser.value(screenshot) : QString(), parser.value(serveCall));

    if (parser.isSet(runTeam)) {
        window.runToolBar()->setInput(parser.value(runTeam));
        if (parser.isSet(seed))
            window.runToolBar()->setSeed(parser.value(seed).toULongLong());
        window.runToolBar()->setInstant(parser.isSet(instant));
        const QString out = headless ? parser.value(screenshot) : QString();
        const QString node = parser.value(select);
        const int during = parser.isSet(shootAt) ? parser.value(shootAt).toInt() : -1;
        QObject::connect(
            window.runController(), &conclave::ui::RunController::finished, &window, [&window, out, node, during] {
                if (out.isEmpty() || during >= 0)
                    return;
                QTimer::singleShot(200, &window, [&window, out, node] { saveScreenshotAndExit(window, out, node); });
            });
        QTimer::singleShot(0, &window, [&window, out, node, during] {
            window.fitToTeam();
            if (!window.startRun()) {
                std::fprintf(stderr, "conclave-studio: cannot run: %s\n", qPrintable(window.lastError()));
                QApplication::exit(2);
                return;
            }
            if (!out.isEmpty() && during >= 0)
                QTimer::singleShot(during, &window, [&window, out, node] { saveScreenshotAndExit(window, out, node); });
        });
        return QApplication::exec();
    }

    if (headless) {
        const QString out = parser.value(screenshot);
        const QString node = parser.value(select);
        QTimer::singleShot(0, &window, [&window, out, node] { saveScreenshotAndExit(window, out, node); });
    }
    return QApplication::exec();
}
