#include "search/SpaceTable.h"

#include "timeline/StatusPalette.h"

#include "conclave/experiment/SweepSpec.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace conclave::ui {

namespace {

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

// "math.model=a,b" as its path and its values (the text after the first '=').
std::pair<QString, QString> splitFlag(const std::string& flag)
{
    const auto at = flag.find('=');
    if (at == std::string::npos)
        return {qstr(flag), {}};
    return {qstr(flag.substr(0, at)), qstr(flag.substr(at + 1))};
}

} // namespace

SpaceTable::SpaceTable(QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget(0, 3, this)), m_errorLabel(new QLabel(this)), m_size(new QLabel(this)),
      m_add(new QPushButton(tr("Add Row"), this)), m_remove(new QPushButton(tr("Remove"), this)),
      m_reset(new QPushButton(tr("Reset to Proposal"), this))
{
    m_table->setObjectName("searchSpaceTable");
    m_table->setHorizontalHeaderLabels({tr("Field"), tr("Values"), tr("Count")});
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(PathColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ValuesColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(CountColumn, QHeaderView::ResizeToContents);
    m_table->setToolTip(tr("One field per row, values as `conclave eval --vary` takes them: v1,v2,… or lo:hi:step. "
                           "Unchecked rows are left out."));
    m_add->setObjectName("searchSpaceAdd");
    m_remove->setObjectName("searchSpaceRemove");
    m_reset->setObjectName("searchSpaceReset");
    m_errorLabel->setObjectName("searchSpaceError");
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette red = m_errorLabel->palette();
    red.setColor(QPalette::WindowText, StatusPalette::color(Status::Failed));
    m_errorLabel->setPalette(red);
    m_errorLabel->hide();
    m_size->setObjectName("searchSpaceSize");

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_reset);
    buttons->addStretch(1);
    buttons->addWidget(m_size);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_errorLabel);

    connect(m_add, &QPushButton::clicked, this, [this] {
        addRow();
        m_table->setCurrentCell(m_table->rowCount() - 1, PathColumn);
        m_table->editItem(m_table->item(m_table->rowCount() - 1, PathColumn));
    });
    connect(m_remove, &QPushButton::clicked, this, &SpaceTable::removeSelected);
    connect(m_reset, &QPushButton::clicked, this, [this] { setProposal(m_proposal); });
    connect(m_table, &QTableWidget::itemChanged, this, [this] {
        if (!m_filling)
            check();
    });
}

void SpaceTable::setBases(std::vector<SearchBase> bases)
{
    m_bases = std::move(bases);
    check();
}

void SpaceTable::setProposal(const std::vector<std::string>& flags)
{
    m_proposal = flags;
    m_filling = true;
    m_table->setRowCount(0);
    for (const auto& flag : flags) {
        const auto [path, values] = splitFlag(flag);
        addRow(path, values);
    }
    m_filling = false;
    check();
}

void SpaceTable::addRow(const QString& path, const QString& values)
{
    const bool filling = m_filling;
    m_filling = true;
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* pathItem = new QTableWidgetItem(path);
    pathItem->setFlags(pathItem->flags() | Qt::ItemIsUserCheckable);
    pathItem->setCheckState(Qt::Checked);
    m_table->setItem(row, PathColumn, pathItem);
    m_table->setItem(row, ValuesColumn, new QTableWidgetItem(values));
    auto* count = new QTableWidgetItem;
    count->setFlags(Qt::ItemIsEnabled);
    count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_table->setItem(row, CountColumn, count);
    m_filling = filling;
    if (!m_filling)
        check();
}

void SpaceTable::removeSelected()
{
    std::vector<int> rows;
    for (const auto& range : m_table->selectedRanges()) {
        for (int r = range.topRow(); r <= range.bottomRow(); ++r)
            rows.push_back(r);
    }
    std::sort(rows.rbegin(), rows.rend());
    for (const int r : rows)
        m_table->removeRow(r);
    check();
}

std::vector<std::string> SpaceTable::flags() const
{
    std::vector<std::string> out;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const auto* path = m_table->item(r, PathColumn);
        const auto* values = m_table->item(r, ValuesColumn);
        if (!path || path->checkState() != Qt::Checked)
            continue;
        const QString p = path->text().trimmed();
        const QString v = values ? values->text().trimmed() : QString();
        if (p.isEmpty() && v.isEmpty()) // a row just added, not filled yet
            continue;
        out.push_back((p + QLatin1Char('=') + v).toStdString());
    }
    return out;
}

void SpaceTable::showRowState(int row, bool wrong)
{
    for (int c = 0; c < m_table->columnCount(); ++c) {
        auto* item = m_table->item(row, c);
        if (!item)
            continue;
        item->setForeground(wrong ? QBrush(StatusPalette::color(Status::Failed)) : QBrush());
        item->setToolTip(wrong ? m_error : (c == ValuesColumn ? item->text() : QString()));
    }
}

void SpaceTable::check()
{
    const bool filling = m_filling;
    m_filling = true; // the counts and colours set below are no edits
    // Each checked row's value count, and which table row each flag is.
    std::vector<int> rowOf;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        auto* path = m_table->item(r, PathColumn);
        auto* values = m_table->item(r, ValuesColumn);
        auto* count = m_table->item(r, CountColumn);
        if (!path || !values || !count)
            continue;
        std::string ignored;
        const auto axis =
            SweepSpec::parseAxis((path->text().trimmed() + '=' + values->text().trimmed()).toStdString(), ignored);
        count->setText(axis ? QString::number(axis->values.size()) : QStringLiteral("–"));
        const bool empty = path->text().trimmed().isEmpty() && values->text().trimmed().isEmpty();
        if (path->checkState() == Qt::Checked && !empty)
            rowOf.push_back(r);
        showRowState(r, false);
    }
    m_error.clear();
    m_errorRow = -1;
    m_space.reset();
    const auto list = flags();
    if (m_bases.empty()) {
        m_error = tr("no team to search");
    } else if (list.empty()) {
        m_error = tr("check at least one field to search");
    } else {
        std::string error;
        m_space = SearchSpace::fromFlags(list, m_bases, error);
        if (!m_space) {
            m_error = qstr(error);
            static const QRegularExpression where(QStringLiteral("^/parameters/(\\d+):"));
            const auto match = where.match(m_error);
            const int index = match.hasMatch() ? match.captured(1).toInt() : -1;
            if (index >= 0 && size_t(index) < rowOf.size()) {
                m_errorRow = rowOf[size_t(index)];
                showRowState(m_errorRow, true);
            }
        }
    }
    m_errorLabel->setText(m_error);
    m_errorLabel->setVisible(!m_error.isEmpty());
    if (m_space) {
        const double points = m_space->size();
        m_size->setText(points < 1e15 ? tr("%1 designs in the space").arg(QLocale().toString(qint64(points)))
                                      : tr("%1 designs in the space").arg(points, 0, 'g', 3));
    } else {
        m_size->clear();
    }
    m_filling = filling;
    emit changed();
}

} // namespace conclave::ui
