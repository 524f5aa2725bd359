#include "experiment/TaskMatrixView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace conclave::ui {

namespace {

// A coloured chip and its word, for each outcome the matrix can show.
QWidget* legend(QWidget* parent)
{
    using O = TaskMatrixCell::Outcome;
    auto* box = new QWidget(parent);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(10);
    for (const auto outcome : {O::Correct, O::Mixed, O::Wrong, O::Failed, O::NotRun, O::Unscored}) {
        auto* chip = new QLabel(box);
        chip->setFixedSize(12, 12);
        chip->setStyleSheet(
            QStringLiteral("background: %1; border-radius: 2px;").arg(TaskMatrixModel::outcomeColour(outcome).name()));
        row->addWidget(chip);
        row->addWidget(new QLabel(TaskMatrixModel::outcomeWord(outcome), box));
    }
    return box;
}

} // namespace

TaskMatrixView::TaskMatrixView(QWidget* parent)
    : QWidget(parent), m_model(new TaskMatrixModel(this)), m_filter(new QComboBox(this)),
      m_compare(new QPushButton(tr("Compare runs"), this)), m_table(new QTableView(this))
{
    m_filter->addItem(tr("All tasks"), int(TaskMatrix::Filter::All));
    m_filter->addItem(tr("Differs between designs"), int(TaskMatrix::Filter::Differs));
    m_filter->addItem(tr("Regressions vs baseline"), int(TaskMatrix::Filter::Regressions));
    m_compare->setToolTip(tr("Select two cells of one task in different designs to compare their runs"));
    m_compare->setEnabled(false);

    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setTextElideMode(Qt::ElideRight);

    // The legend has a row of its own, so the matrix fits beside the chart in a 1280 px window.
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:"), this));
    bar->addWidget(m_filter);
    bar->addStretch(1);
    bar->addWidget(m_compare);
    auto* key = new QHBoxLayout;
    key->addWidget(legend(this));
    key->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addLayout(key);
    layout->addWidget(m_table, 1);

    connect(m_filter, &QComboBox::currentIndexChanged, this, [this] {
        m_model->setFilter(TaskMatrix::Filter(m_filter->currentData().toInt()));
        updateCompare();
    });
    connect(m_table, &QTableView::doubleClicked, this, &TaskMatrixView::openCell);
    connect(m_compare, &QPushButton::clicked, this, &TaskMatrixView::compareSelected);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TaskMatrixView::updateCompare);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TaskMatrixView::updateCompare);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const auto index = m_table->indexAt(at);
        if (!m_model->cell(index))
            return;
        QMenu menu(this);
        populateMenu(menu, index);
        menu.exec(m_table->viewport()->mapToGlobal(at));
    });
}

void TaskMatrixView::fitColumns()
{
    m_table->resizeColumnsToContents();
    auto* header = m_table->horizontalHeader();
    for (int c = TaskMatrixModel::FirstDesignColumn; c < m_model->columnCount(); ++c)
        header->resizeSection(
            c, std::clamp(header->sectionSize(c), 110, 240)); // a long name is elided; its tooltip is whole
}

void TaskMatrixView::openCell(const QModelIndex& index)
{
    if (const auto* cell = m_model->cell(index); cell && !cell->runs.empty())
        emit openRun(cell->runs.front().second);
}

std::optional<std::pair<RunId, RunId>> TaskMatrixView::selectedPair() const
{
    auto picked = m_table->selectionModel()->selectedIndexes();
    if (picked.size() != 2 || picked[0].row() != picked[1].row() || picked[0].column() == picked[1].column())
        return std::nullopt;
    std::sort(picked.begin(), picked.end(), [](const auto& a, const auto& b) { return a.column() < b.column(); });
    const auto* a = m_model->cell(picked[0]);
    const auto* b = m_model->cell(picked[1]);
    if (!a || !b || a->runs.empty() || b->runs.empty())
        return std::nullopt;
    // Common random numbers: the same seed on both sides, when they share one, draws the same luck.
    for (const auto& [seed, run] : a->runs) {
        const auto same = std::find_if(b->runs.begin(), b->runs.end(), [&](const auto& r) { return r.first == seed; });
        if (same != b->runs.end())
            return std::pair(run, same->second);
    }
    return std::pair(a->runs.front().second, b->runs.front().second);
}

void TaskMatrixView::compareSelected()
{
    if (const auto pair = selectedPair())
        emit compareRuns(pair->first, pair->second);
}

void TaskMatrixView::updateCompare()
{
    m_compare->setEnabled(selectedPair().has_value());
}

void TaskMatrixView::populateMenu(QMenu& menu, const QModelIndex& index)
{
    const auto* cell = m_model->cell(index);
    if (!cell)
        return;
    for (const auto& [seed, run] : cell->runs) {
        const RunId id = run;
        menu.addAction(tr("Open run of seed %1").arg(seed), this, [this, id] { emit openRun(id); });
    }
    if (!cell->runs.empty())
        menu.addSeparator();
    auto* compare = menu.addAction(tr("Compare"), this, &TaskMatrixView::compareSelected);
    compare->setEnabled(selectedPair().has_value());
}

} // namespace conclave::ui
