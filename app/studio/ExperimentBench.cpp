// `conclave-studio --bench-experiment`: the GUI thread's longest stall while a
// 7,000-trial experiment runs through the evaluation dialog. See ExperimentBench.h.
#include "studio/ExperimentBench.h"
#include "studio/GuiStallProbe.h"

#include "experiment/EvaluateDialog.h"
#include "experiment/ExperimentController.h"
#include "experiment/TaskSetPicker.h"
#include "run/RunController.h"
#include "studio/MainWindow.h"

#include "conclave/analysis/Quantile.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLabel>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace conclave::studio {

namespace {

constexpr int kTickMs = 5;
constexpr int kDesigns = 2;
constexpr int kTasks = 70;
constexpr int kSeeds = 50;
constexpr double kTargetMs = 50;

struct Measured {
    double longestStallMs = 0;
    double p99StallMs = 0;
    int ticks = 0;
    int progressUpdates = 0;
    int64_t trials = 0;
    double wallS = 0;
    double openResultsMs = 0;
    bool ok = false;
};

Measured runOnce(int repeat)
{
    Measured m;
    const auto db = std::filesystem::temp_directory_path() /
                    ("conclave-bench-experiment-" + std::to_string(QApplication::applicationPid()) + "-" +
                     std::to_string(repeat) + ".sqlite");
    std::filesystem::remove(db);
    ui::MainWindow window;
    window.resize(1280, 800);
    const auto examples = window.runController()->resourcesDir() / "examples";
    if (!window.openFile(QString::fromStdString((examples / "keyword-vote.team.json").string()), false) ||
        !window.setRunStore(QString::fromStdString(db.string()))) {
        std::fprintf(stderr, "conclave-studio: bench: cannot open keyword-vote or the store %s\n", db.c_str());
        return m;
    }
    window.show();
    QApplication::processEvents();

    ui::EvaluateDialog* dialog = window.experiments()->dialog();
    dialog->addDesignFiles({QString::fromStdString((examples / "cascade.team.json").string())});
    dialog->tasks()->select(QStringLiteral("math"));
    dialog->tasks()->sampleBox()->setValue(kTasks);
    dialog->seeds()->setValue(kSeeds);
    dialog->clock()->setCurrentIndex(dialog->clock()->findData(int(ClockRequest::Virtual)));
    dialog->show();
    QApplication::processEvents();

    auto* controller = window.experiments()->controller();
    QEventLoop loop;
    QObject::connect(controller, &ui::ExperimentController::finished, &loop, &QEventLoop::quit);
    QObject::connect(controller, &ui::ExperimentController::progressed, &loop, [&m] { ++m.progressUpdates; });

    studio::GuiStallProbe probe(kTickMs);
    QElapsedTimer wall;
    wall.start();
    probe.start();
    if (!dialog->evaluate()) {
        std::fprintf(stderr, "conclave-studio: bench: the evaluation did not start: %s\n",
                     qPrintable(dialog->errors()->text()));
        return m;
    }
    loop.exec();
    probe.stop();
    m.wallS = double(wall.nsecsElapsed()) / 1e9;
    m.trials = controller->progress().done;
    m.ticks = probe.ticks();
    m.longestStallMs = probe.longestMs();
    m.p99StallMs = probe.p99Ms();

    // The dialog opened the results when it finished; time opening them again, afresh.
    QElapsedTimer open;
    const QString id = controller->experimentId();
    QWidget* shown = window.centreTabs()->widget(window.centreTabs()->count() - 1);
    window.centreTabs()->removeTab(window.centreTabs()->count() - 1);
    delete shown;
    open.start();
    m.ok = window.openExperimentTab(id);
    QApplication::processEvents();
    m.openResultsMs = double(open.nsecsElapsed()) / 1e6;
    dialog->close();
    std::filesystem::remove(db);
    std::filesystem::remove(db.string() + "-wal");
    std::filesystem::remove(db.string() + "-shm");
    m.ok = m.ok && m.trials == int64_t(kDesigns) * kTasks * kSeeds;
    return m;
}

} // namespace

int runExperimentBench(int repeats)
{
    std::printf("bench experiment: keyword-vote vs cascade, %d math tasks x %d seeds = %d trials on the simulated "
                "clock, run from Evaluate Designs… while a %d ms timer ticks on the GUI thread\n",
                kTasks, kSeeds, kDesigns * kTasks * kSeeds, kTickMs);
    std::vector<double> longest, p99, walls, opens;
    double worst = 0;
    for (int r = 0; r < repeats; ++r) {
        const Measured m = runOnce(r);
        if (!m.ok) {
            std::fprintf(stderr, "conclave-studio: bench: repeat %d did not finish its %d trials (%lld stored)\n",
                         r + 1, kDesigns * kTasks * kSeeds, static_cast<long long>(m.trials));
            return 1;
        }
        std::printf("  run %d: longest GUI stall %.1f ms, p99 %.1f ms over %d ticks; %d progress updates drawn; "
                    "%lld trials in %.2f s (%.0f trials/s); opening the results %.0f ms\n",
                    r + 1, m.longestStallMs, m.p99StallMs, m.ticks, m.progressUpdates, static_cast<long long>(m.trials),
                    m.wallS, double(m.trials) / m.wallS, m.openResultsMs);
        longest.push_back(m.longestStallMs);
        p99.push_back(m.p99StallMs);
        walls.push_back(m.wallS);
        opens.push_back(m.openResultsMs);
        worst = std::max(worst, m.longestStallMs);
    }
    const double median = Quantile::median(longest);
    std::printf("  median of %d: longest GUI stall %.1f ms (worst %.1f ms; target <= %.0f ms, %s), p99 %.1f ms; "
                "%.2f s per experiment; opening its results %.0f ms\n",
                repeats, median, worst, kTargetMs, median <= kTargetMs ? "met" : "NOT met", Quantile::median(p99),
                Quantile::median(walls), Quantile::median(opens));
    return median <= kTargetMs ? 0 : 1;
}

} // namespace conclave::studio
