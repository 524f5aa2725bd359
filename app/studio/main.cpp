// conclave-studio: the desktop workbench. Parses its command line and shows the main window.
#include "StudioBench.h"

#include "editor/TeamScene.h"
#include "studio/MainWindow.h"
#include "studio/RunViewCommand.h"
#include "studio/ThemeManager.h"

#include "conclave/Version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("conclave-studio");
    QApplication::setOrganizationName("Conclave");
    QApplication::setApplicationVersion(conclave::kVersion);
    QApplication::setWindowIcon(QIcon::fromTheme("conclave"));
    // --run, --replay, --compare and --bench-timeline open the run views instead of the editor.
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
    QCommandLineOption select("select", "Select this node after loading (for screenshots).", "NODE");
    parser.addOption(screenshot);
    parser.addOption(select);
    parser.addOption(theme);
    parser.addOption(bench);
    parser.process(app);

    if (parser.isSet(bench))
        return conclave::studio::StudioBench::run(7);

    conclave::ui::MainWindow window;
    if (parser.isSet(theme))
        window.themes()->setTheme(conclave::ui::ThemeManager::fromName(parser.value(theme)));
    const auto args = parser.positionalArguments();
    const bool headless = parser.isSet(screenshot);
    if (headless)
        window.resize(1400, 860);
    if (!args.isEmpty() && !window.openFile(args.first(), !headless) && headless) {
        std::fprintf(stderr, "conclave-studio: cannot open %s\n%s\n", qPrintable(args.first()),
                     qPrintable(window.lastError()));
        return 2;
    }
    window.show();

    if (headless) {
        const QString out = parser.value(screenshot);
        const QString node = parser.value(select);
        QTimer::singleShot(0, &window, [&window, out, node] {
            window.fitToTeam(); // now that the canvas has its final size
            if (!node.isEmpty())
                window.scene()->selectNodes({conclave::NodeId(node.toStdString())});
            QApplication::processEvents();
            const bool ok = window.grab().save(out);
            if (!ok)
                std::fprintf(stderr, "conclave-studio: cannot write %s\n", qPrintable(out));
            QApplication::exit(ok ? 0 : 2);
        });
    }
    return QApplication::exec();
}
