#include "studio/RunViewCommand.h"

#include "WhatIfBench.h"

#include "experiment/ExperimentWindow.h"
#include "experiment/FidelityController.h"
#include "experiment/FidelityDialog.h"
#include "run/RunController.h"
#include "studio/ThemeManager.h"
#include "timeline/CompareView.h"
#include "timeline/ReplayView.h"
#include "timeline/RunView.h"
#include "whatif/WhatIfController.h"
#include "whatif/WhatIfControls.h"
#include "whatif/WhatIfPanel.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/resources/ResourceLocator.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QLabel>
#include <QSlider>
#include <QWidget>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace conclave::studio {

namespace {

constexpr int kExitBadInput = 2;

int fail(const QString& message)
{
    std::fprintf(stderr, "conclave-studio: %s\n", qPrintable(message));
    return kExitBadInput;
}

std::optional<StoredRun> loadRun(RunQueries& queries, const QString& idOrPrefix, QString& error)
{
    std::string e;
    const auto id = queries.resolve(idOrPrefix.toStdString(), e);
    auto run = id ? queries.load(*id, true, e) : std::nullopt;
    if (!run)
        error = QString::fromStdString(e);
    return run;
}

// Lays the widget out at its final size (`size`, else 1400 wide and `height` tall), then saves it; or shows it until
// closed.
int present(QApplication& app, QWidget& widget, const QString& screenshot, const std::optional<QSize>& size,
            int height = 900)
{
    widget.resize(size.value_or(QSize(1400, height)));
    widget.show();
    if (screenshot.isEmpty())
        return QApplication::exec();
    for (int i = 0; i < 3; ++i)
        app.processEvents();
    if (!widget.grab().save(screenshot))
        return fail(QStringLiteral("cannot write %1").arg(screenshot));
    return 0;
}

// The studio's fidelity dialog on `experiments`, checked at once; with a screenshot, saved when the check has ended.
int showFidelity(QApplication& app, const std::filesystem::path& db, const QStringList& experiments,
                 const QString& holdoutText, const QString& seedText, const QString& foldsText, const QString& theme,
                 const QString& screenshot, const std::optional<QSize>& size)
{
    bool ok = false;
    const double holdout = holdoutText.toDouble(&ok);
    if (!ok || !(holdout > 0 && holdout < 1))
        return fail(QStringLiteral("--holdout: expected a share between 0 and 1 (exclusive), got %1").arg(holdoutText));
    const qulonglong seed = seedText.toULongLong(&ok);
    if (!ok || seed > qulonglong(INT_MAX))
        return fail(QStringLiteral("--fidelity-seed: expected a whole number from 0 to %1, got %2")
                        .arg(INT_MAX)
                        .arg(seedText));
    const int folds = foldsText.toInt(&ok);
    if (!ok || folds < 1 || folds > 10)
        return fail(QStringLiteral("--fidelity-folds: expected 2 to 10 (1 for one split), got %1").arg(foldsText));
    const auto resources = findResourcesDir(QApplication::applicationFilePath().toStdString());
    ui::RunController runs(resources.value_or(std::filesystem::path()), db);
    ui::ThemeManager themes;
    if (!theme.isEmpty())
        themes.setTheme(ui::ThemeManager::fromName(theme));
    ui::FidelityDialog dialog(&runs, experiments);
    dialog.setHoldout(holdout);
    dialog.setSeed(seed);
    dialog.setFolds(folds);
    dialog.resize(size.value_or(QSize(1400, 900)));
    dialog.show();
    if (!dialog.start())
        return fail(dialog.status()->text());
    if (screenshot.isEmpty())
        return QApplication::exec();
    int code = 0;
    QObject::connect(&dialog, &ui::FidelityDialog::checked, &dialog, [&](bool checked) {
        if (!checked)
            code = fail(dialog.status()->text());
        for (int i = 0; i < 3; ++i)
            app.processEvents();
        if (checked && !dialog.grab().save(screenshot))
            code = fail(QStringLiteral("cannot write %1").arg(screenshot));
        QApplication::exit(code);
    });
    QApplication::exec();
    return code;
}

// The What-if panel on `run`, its knobs set by `speeds` (NODE=PERCENT) and `limits` (BACKEND=N); with a screenshot,
// saved once that projection and the speed-up profile are drawn.
int showWhatIf(QApplication& app, const std::filesystem::path& db, const QString& run, const QStringList& speeds,
               const QStringList& limits, const QString& screenshot, const std::optional<QSize>& size)
{
    const auto resourcesDir = findResourcesDir(QApplication::applicationFilePath().toStdString());
    std::vector<std::string> errors;
    auto resources = EngineResources::load(resourcesDir.value_or(std::filesystem::path()), errors);
    if (!errors.empty())
        return fail(QString::fromStdString(errors.front()));
    std::set<std::string> localModels;
    for (const auto& [name, profile] : resources.localModels)
        localModels.insert(name);
    ui::WhatIfPanel panel(new ui::WhatIfController(std::move(resources), db), nullptr, std::move(localModels));
    panel.setWindowTitle(QStringLiteral("What-if - Conclave Studio"));
    panel.resize(size.value_or(QSize(1400, 760)));
    panel.show();
    int code = -1;
    bool profiled = false;
    bool projected = false;
    const auto done = [&] {
        if (code >= 0 || !profiled || !projected || panel.controller()->isBusy() || screenshot.isEmpty())
            return;
        for (int i = 0; i < 3; ++i)
            app.processEvents();
        code = panel.grab().save(screenshot) ? 0 : fail(QStringLiteral("cannot write %1").arg(screenshot));
        QApplication::exit(code);
    };
    QObject::connect(&panel, &ui::WhatIfPanel::loaded, &panel, [&](bool ok) {
        if (!ok) {
            code = fail(panel.wallText());
            QApplication::exit(code);
            return;
        }
        // Each knob as asked: NODE=PERCENT faster, BACKEND=N calls at once.
        for (const auto& [list, isSpeed] : {std::pair{speeds, true}, std::pair{limits, false}}) {
            for (const QString& assignment : list) {
                const QString name = assignment.section(QLatin1Char('='), 0, -2);
                const int value = assignment.section(QLatin1Char('='), -1).toInt();
                QSlider* slider = isSpeed ? panel.controls()->speedSlider(NodeId(name.toStdString()))
                                          : panel.controls()->concurrencySlider(BackendName(name.toStdString()));
                if (!slider) {
                    code = fail(QStringLiteral("%1: no such %2 in the run").arg(name, isSpeed ? QStringLiteral("agent") : QStringLiteral("backend")));
                    QApplication::exit(code);
                    return;
                }
                slider->setValue(value);
            }
        }
    });
    QObject::connect(&panel, &ui::WhatIfPanel::projectionShown, &panel, [&] {
        projected = true;
        done();
    });
    const auto onProfile = [&] {
        profiled = true;
        done();
    };
    QObject::connect(panel.controller(), &ui::WhatIfController::profiled, &panel, onProfile);
    QObject::connect(panel.controller(), &ui::WhatIfController::profileFailed, &panel, onProfile);
    panel.open(run.toStdString());
    const int exit = QApplication::exec();
    return code >= 0 ? code : exit;
}

} // namespace

std::optional<QSize> parseScreenSize(const QString& text, QString& error)
{
    const QStringList parts = text.split(QLatin1Char('x'));
    bool wide = false;
    bool tall = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&wide) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&tall) : 0;
    if (!wide || !tall || w < 200 || h < 200 || w > 8000 || h > 8000) {
        error = QStringLiteral("--size: expected WIDTHxHEIGHT in pixels, each 200 to 8000 (e.g. 1280x800), got \"%1\"")
                    .arg(text);
        return std::nullopt;
    }
    return QSize(w, h);
}

std::optional<int> runRunViewCommand(QApplication& app, const QStringList& args)
{
    static const QStringList triggers = {"--run",      "--replay",         "--compare",     "--experiment",
                                         "--fidelity", "--bench-timeline", "--bench-whatif", "--whatif"};
    bool wanted = false;
    for (const auto& a : args)
        wanted = wanted || triggers.contains(a.section('=', 0, 0));
    if (!wanted)
        return std::nullopt;

    QCommandLineParser parser;
    parser.setApplicationDescription("Conclave Studio: inspect stored runs.");
    parser.addHelpOption();
    const QCommandLineOption run("run", "Show a stored run: its timeline and summary.", "RUN_ID");
    const QCommandLineOption replay("replay", "Replay a stored run (with --at).", "RUN_ID");
    const QCommandLineOption at("at", "The replay's instant, in milliseconds from the run's start.", "MS", "0");
    const QCommandLineOption compare("compare", "Compare two stored runs: --compare RUN_A RUN_B.", "RUN_A");
    const QCommandLineOption experiment("experiment", "Show a stored experiment: its trade-offs, tasks and agents.",
                                        "EXPERIMENT_ID");
    const QCommandLineOption fidelity(
        "fidelity", "Check the simulator's fidelity on stored experiments (comma-separated ids), as `conclave fidelity`.",
        "EXPERIMENT_ID");
    const QCommandLineOption holdout("holdout", "The share of tasks --fidelity holds out.", "SHARE", "0.5");
    const QCommandLineOption fidelitySeed("fidelity-seed", "The seed of --fidelity's split.", "N", "0");
    const QCommandLineOption fidelityFolds("fidelity-folds",
                                           "Cross-fit --fidelity over K parts (2 to 10; default 1: one split).", "K",
                                           "1");
    const QCommandLineOption theme("theme", "Draw the view in this theme: light or dark.", "THEME");
    const QCommandLineOption db("db", "The run store (default: $CONCLAVE_DB, else the user's data folder).", "FILE");
    const QCommandLineOption screenshot("screenshot", "Render the view to OUT.png and exit.", "OUT.png");
    const QCommandLineOption bench("bench-timeline", "Benchmark opening, drawing and scrubbing large runs.");
    const QCommandLineOption sizeOption("size", "The view's size for --screenshot, e.g. 1280x800.", "WxH");
    const QCommandLineOption whatIf("whatif", "Open the What-if panel on a stored run.", "RUN_ID");
    const QCommandLineOption speed("speed", "With --whatif: set NODE's speed slider to PERCENT faster (repeatable).",
                                   "NODE=PERCENT");
    const QCommandLineOption limit("concurrency", "With --whatif: set BACKEND's calls at once (repeatable).",
                                   "BACKEND=N");
    const QCommandLineOption benchWhatIf("bench-whatif",
                                         "Benchmark the What-if panel's re-projection on a 100-node run.");
    const QCommandLineOption moves("moves", "The slider moves of --bench-whatif.", "N", "40");
    parser.addOptions({run, replay, at, compare, experiment, fidelity, holdout, fidelitySeed, fidelityFolds, theme, db,
                       screenshot, bench, sizeOption, whatIf, speed, limit, benchWhatIf, moves});
    parser.addPositionalArgument("RUN_B", "The second run of --compare.", "[RUN_B]");
    if (!parser.parse(args))
        return fail(parser.errorText());
    if (parser.isSet("help")) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    if (parser.isSet(bench))
        return runTimelineBench(parser.value(db));
    if (parser.isSet(benchWhatIf))
        return WhatIfBench::run(parser.value(db), std::max(parser.value(moves).toInt(), 1));

    std::optional<QSize> size;
    if (parser.isSet(sizeOption)) {
        QString sizeError;
        size = parseScreenSize(parser.value(sizeOption), sizeError);
        if (!size)
            return fail(sizeError);
    }
    const auto dbOption = parser.isSet(db) ? std::optional<std::string>(parser.value(db).toStdString()) : std::nullopt;
    const std::filesystem::path file = RunStore::resolvePath(dbOption);
    // Reading never creates a store: a missing file is an error, not an empty database.
    if (!std::filesystem::exists(file))
        return fail(QStringLiteral("%1: no run store there").arg(QString::fromStdString(file.string())));
    const QString out = parser.value(screenshot);
    if (parser.isSet(fidelity))
        return showFidelity(app, file, parser.value(fidelity).split(QLatin1Char(',')), parser.value(holdout),
                            parser.value(fidelitySeed), parser.value(fidelityFolds), parser.value(theme), out, size);
    std::string error;
    auto queries = RunStore::openReader(file, error);
    if (!queries)
        return fail(QString::fromStdString(error));

    // Not kept for next time, unlike the editor's --theme: a screenshot must not change the user's settings.
    ui::ThemeManager themes;
    if (parser.isSet(theme))
        themes.setTheme(ui::ThemeManager::fromName(parser.value(theme)));

    if (parser.isSet(whatIf))
        return showWhatIf(app, file, parser.value(whatIf), parser.values(speed), parser.values(limit), out, size);

    if (parser.isSet(experiment)) {
        std::string e;
        auto report = ExperimentReport::load(*queries, parser.value(experiment).toStdString(), e);
        if (!report)
            return fail(QString::fromStdString(e));
        ui::ExperimentWindow window(*queries);
        window.setWindowTitle(QStringLiteral("Experiment - Conclave Studio"));
        window.setReport(std::move(*report));
        return present(app, window, out, size);
    }
    QString loadError;
    if (parser.isSet(compare)) {
        const auto rest = parser.positionalArguments();
        if (rest.size() != 1)
            return fail(QStringLiteral("--compare needs two run ids: --compare RUN_A RUN_B"));
        auto a = loadRun(*queries, parser.value(compare), loadError);
        auto b = a ? loadRun(*queries, rest.first(), loadError) : std::nullopt;
        if (!a || !b)
            return fail(loadError);
        ui::CompareView view;
        view.setWindowTitle(QStringLiteral("Compare runs - Conclave Studio"));
        view.setRuns(std::move(*a), std::move(*b));
        return present(app, view, out, size);
    }
    if (parser.isSet(replay)) {
        auto r = loadRun(*queries, parser.value(replay), loadError);
        if (!r)
            return fail(loadError);
        bool ok = false;
        const double ms = parser.value(at).toDouble(&ok);
        if (!ok || ms < 0)
            return fail(QStringLiteral("--at: not a time in milliseconds: %1").arg(parser.value(at)));
        ui::ReplayView view;
        view.setWindowTitle(QStringLiteral("Replay - Conclave Studio"));
        view.setRun(std::move(*r));
        view.controller()->seek(int64_t(ms * 1000));
        // As tall as its lanes need (within 500 to 900 px): a short run leaves no empty band below them.
        return present(app, view, out, size, std::clamp(view.sizeHint().height(), 500, 900));
    }
    if (parser.isSet(run)) {
        auto r = loadRun(*queries, parser.value(run), loadError);
        if (!r)
            return fail(loadError);
        ui::RunView view;
        view.setWindowTitle(QStringLiteral("Run - Conclave Studio"));
        view.setRun(std::move(*r));
        return present(app, view, out, size);
    }
    return fail(QStringLiteral("--replay needs a run id"));
}

} // namespace conclave::studio
