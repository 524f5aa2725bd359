// conclave-studio: the desktop workbench. Parses its command line and shows the main window.
#include "studio/MainWindow.h"
#include "studio/RunViewCommand.h"

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
    // --run, --replay, --compare and --bench-timeline open the run views instead of the editor.
    if (const auto code = conclave::studio::runRunViewCommand(app, QApplication::arguments()))
        return *code;

    QCommandLineParser parser;
    parser.setApplicationDescription("Conclave Studio: design, run and measure teams of LLM agents.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("team", "A team file to open (*.team.json).", "[TEAM.json]");
    QCommandLineOption screenshot("screenshot", "Render the window after loading to OUT.png and exit.", "OUT.png");
    parser.addOption(screenshot);
    parser.process(app);

    conclave::ui::MainWindow window;
    const auto args = parser.positionalArguments();
    const bool headless = parser.isSet(screenshot);
    if (!args.isEmpty() && !window.openFile(args.first(), !headless) && headless) {
        std::fprintf(stderr, "conclave-studio: cannot open %s\n", qPrintable(args.first()));
        return 2;
    }
    window.show();

    if (headless) {
        const QString out = parser.value(screenshot);
        QTimer::singleShot(0, &window, [&window, out] {
            const bool ok = window.grab().save(out);
            if (!ok)
                std::fprintf(stderr, "conclave-studio: cannot write %s\n", qPrintable(out));
            QApplication::exit(ok ? 0 : 2);
        });
    }
    return QApplication::exec();
}
