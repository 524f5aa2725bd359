#include "experiment/ExperimentWindow.h"

#include "experiment/ExperimentView.h"
#include "studio/ShortRunId.h"
#include "timeline/CompareView.h"
#include "timeline/RunView.h"

#include "conclave/store/RunQueries.h"

#include <QMessageBox>
#include <QTabBar>

#include <utility>

namespace conclave::ui {

ExperimentWindow::ExperimentWindow(RunQueries& queries, QWidget* parent)
    : QTabWidget(parent), m_queries(queries), m_view(new ExperimentView(this))
{
    setDocumentMode(true);
    setTabsClosable(true);
    addTab(m_view, tr("Experiment"));
    tabBar()->setTabButton(0, QTabBar::RightSide, nullptr); // the experiment stays
    tabBar()->setTabButton(0, QTabBar::LeftSide, nullptr);
    connect(this, &QTabWidget::tabCloseRequested, this, [this](int i) {
        if (i > 0) {
            QWidget* page = widget(i);
            removeTab(i);
            page->deleteLater();
        }
    });
    connect(m_view, &ExperimentView::openRun, this, &ExperimentWindow::openRun);
    connect(m_view, &ExperimentView::compareRuns, this, &ExperimentWindow::compareRuns);
}

void ExperimentWindow::setReport(ExperimentReport report)
{
    setTabText(0, QString::fromStdString(report.record.name));
    m_view->setReport(std::move(report));
}

std::optional<StoredRun> ExperimentWindow::load(const RunId& id)
{
    std::string error;
    auto run = m_queries.load(id, true, error);
    if (!run)
        QMessageBox::warning(
            this, tr("Open run"),
            tr("Cannot open run %1: %2").arg(QString::fromStdString(id.str()), QString::fromStdString(error)));
    return run;
}

void ExperimentWindow::openRun(const RunId& id)
{
    auto run = load(id);
    if (!run)
        return;
    auto* view = new RunView(this);
    const QString title = tr("Run %1").arg(shortRunId(id));
    view->setRun(std::move(*run));
    setCurrentIndex(addTab(view, title));
}

void ExperimentWindow::compareRuns(const RunId& a, const RunId& b)
{
    auto runA = load(a);
    auto runB = runA ? load(b) : std::nullopt;
    if (!runA || !runB)
        return;
    auto* view = new CompareView(this);
    view->setRuns(std::move(*runA), std::move(*runB));
    setCurrentIndex(addTab(view, tr("Compare %1 / %2").arg(shortRunId(a), shortRunId(b))));
}

} // namespace conclave::ui
