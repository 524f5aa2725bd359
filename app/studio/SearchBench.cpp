// `conclave-studio --bench-search`: the GUI thread's longest stall while a design
// search runs through the Search Designs dialog. See SearchBench.h.
#include "studio/SearchBench.h"
#include "studio/GuiStallProbe.h"

#include "experiment/TaskSetPicker.h"
#include "run/RunController.h"
#include "search/SearchController.h"
#include "search/SearchDialog.h"
#include "search/SpaceTable.h"
#include "studio/MainWindow.h"

#include "conclave/analysis/Quantile.h"

#include <QApplication>
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
constexpr int kBudget = 6000;
constexpr double kTargetMs = 50;

struct Measured {
    double longestStallMs = 0;
    double longestAtMs = 0; // when it ended, after the search was started
    double p99StallMs = 0;
    int ticks = 0;
    int progressUpdates = 0;
    int64_t trials = 0;
    double wallS = 0;
    size_t front = 0;
    bool ok = false;
};

Measured runOnce(int repeat)
{
    Measured m;
    const auto db = std::filesystem::temp_directory_path() /
                    ("conclave-bench-search-" + std::to_string(QApplication::applicationPid()) + "-" +
                     std::to_string(repeat) + ".sqlite");
    std::filesystem::remove(db);
    ui::MainWindow window;
    window.resize(1280, 800);
    const auto examples = window.runController()->resourcesDir() / "examples";
    if (!window.openFile(QString::fromStdString((examples / "triage.team.json").string()), false) ||
        !window.setRunStore(QString::fromStdString(db.string()))) {
        std::fprintf(stderr, "conclave-studio: bench: cannot open triage or the store %s\n", db.c_str());
        return m;
    }
    window.show();
    QApplication::processEvents();

    ui::SearchDialog* dialog = window.searches()->dialog();
    dialog->tasks()->select(QStringLiteral("math"));
    dialog->budget()->setValue(kBudget);
    dialog->show();
    QApplication::processEvents();

    auto* controller = dialog->controller();
    QEventLoop loop;
    QObject::connect(controller, &ui::SearchController::finished, &loop, &QEventLoop::quit);
    QObject::connect(controller, &ui::SearchController::progressed, &loop, [&m] { ++m.progressUpdates; });

    studio::GuiStallProbe probe(kTickMs);
    QElapsedTimer wall;
    wall.start();
    probe.start();
    if (!dialog->start()) {
        std::fprintf(stderr, "conclave-studio: bench: the search did not start: %s\n",
                     qPrintable(dialog->errors()->text()));
        return m;
    }
    loop.exec();
    probe.stop();
    m.wallS = double(wall.nsecsElapsed()) / 1e9;
    const auto& result = controller->result();
    m.trials = result ? result->searchTrials + result->validationTrials + result->testTrials : 0;
    m.front = result ? result->front.size() : 0;
    m.ticks = probe.ticks();
    m.longestAtMs = probe.longestAtMs();
    m.longestStallMs = probe.longestMs();
    m.p99StallMs = probe.p99Ms();
    m.ok = result && result->status == DesignSearch::Status::Finished && m.front > 0;
    dialog->close();
    std::error_code ec;
    std::filesystem::remove_all(controller->outputDir(), ec);
    std::filesystem::remove(db);
    std::filesystem::remove(db.string() + "-wal");
    std::filesystem::remove(db.string() + "-shm");
    return m;
}

} // namespace

int runSearchBench(int repeats)
{
    std::printf("bench search: triage's proposed space on the math task set, a budget of %d search trials, seed 1, "
                "run from Search Designs… while a %d ms timer ticks on the GUI thread\n",
                kBudget, kTickMs);
    std::vector<double> longest, p99, rates;
    double worst = 0;
    for (int r = 0; r < repeats; ++r) {
        const Measured m = runOnce(r);
        if (!m.ok) {
            std::fprintf(stderr, "conclave-studio: bench: repeat %d did not finish with a front\n", r + 1);
            return 1;
        }
        std::printf("  run %d: longest GUI stall %.1f ms (ending %.0f ms in), p99 %.1f ms over %d ticks; %d progress "
                    "updates drawn; %lld trials (search, validation, test) in %.2f s (%.0f trials/s); %zu designs on "
                    "the front\n",
                    r + 1, m.longestStallMs, m.longestAtMs, m.p99StallMs, m.ticks, m.progressUpdates,
                    static_cast<long long>(m.trials), m.wallS, double(m.trials) / m.wallS, m.front);
        longest.push_back(m.longestStallMs);
        p99.push_back(m.p99StallMs);
        rates.push_back(double(m.trials) / m.wallS);
        worst = std::max(worst, m.longestStallMs);
    }
    const double median = Quantile::median(longest);
    std::printf("  median of %d: longest GUI stall %.1f ms (worst %.1f ms; target <= %.0f ms, %s), p99 %.1f ms; "
                "%.0f trials/s\n",
                repeats, median, worst, kTargetMs, median <= kTargetMs ? "met" : "NOT met", Quantile::median(p99),
                Quantile::median(rates));
    return median <= kTargetMs ? 0 : 1;
}

} // namespace conclave::studio
