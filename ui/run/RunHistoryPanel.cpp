#include "run/RunHistoryPanel.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace conclave::ui {

namespace {
enum Column { RunColumn, StartedColumn, TeamColumn, StatusColumn, WallColumn, TokensColumn, CostColumn, AnswerColumn };
constexpr int kIdRole = Qt::UserRole;
} // namespace

RunHistoryPanel::RunHistoryPanel(QWidget* parent)
    : QWidget(parent), m_team(new QComboBox(this)), m_status(new QComboBox(this)), m_text(new QLineEdit(this)),
      m_list(new QTreeWidget(this)), m_open(new QPushButton(tr("Open"), this)),
      m_replay(new QPushButton(tr("Replay"), this)), m_rerun(new QPushButton(tr("Re-run"), this)),
      m_delete(new QPushButton(tr("Delete"), this)), m_export(new QPushButton(tr("Export…"), this)),
      m_compare(new QPushButton(tr("Compare"), this)), m_latency(new QPushButton(tr("Latency"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    m_team->setObjectName("historyTeam");
    m_team->setMinimumWidth(160);
    m_status->setObjectName("historyStatus");
    m_status->addItem(tr("Any status"));
    for (const auto s : {RunStatus::Ok, RunStatus::Partial, RunStatus::Failed, RunStatus::Cancelled,
                         RunStatus::BudgetExhausted, RunStatus::Interrupted, RunStatus::Running})
        m_status->addItem(QString::fromUtf8(toString(s).data(), qsizetype(toString(s).size())), int(s));
    m_text->setObjectName("historyText");
    m_text->setPlaceholderText(tr("Filter by id, input or answer"));
    m_text->setClearButtonEnabled(true);
    auto* refresh = new QToolButton(this);
    refresh->setText(tr("Refresh"));
    bar->addWidget(m_team);
    bar->addWidget(m_status);
    bar->addWidget(m_text, 1);
    bar->addWidget(refresh);
    for (auto* b : {m_open, m_replay, m_rerun, m_compare, m_latency, m_export, m_delete})
        bar->addWidget(b);
    layout->addLayout(bar);

    m_list->setObjectName("historyList");
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setHeaderLabels({tr("Run"), tr("Started"), tr("Team"), tr("Status"), tr("Wall"), tr("Tokens"), tr("Cost"),
                             tr("Answer / input")});
    m_list->header()->setStretchLastSection(true);
    layout->addWidget(m_list, 1);

    connect(refresh, &QToolButton::clicked, this, &RunHistoryPanel::refreshRequested);
    connect(m_team, &QComboBox::currentIndexChanged, this, &RunHistoryPanel::applyFilter);
    connect(m_status, &QComboBox::currentIndexChanged, this, &RunHistoryPanel::applyFilter);
    connect(m_text, &QLineEdit::textChanged, this, &RunHistoryPanel::applyFilter);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &RunHistoryPanel::updateButtons);
    connect(m_list, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit openRequested(RunId(item->data(RunColumn, kIdRole).toString().toStdString()));
    });
    const auto withFirst = [this](void (RunHistoryPanel::*signal)(const RunId&)) {
        return [this, signal] {
            const auto ids = selectedRuns();
            if (!ids.empty())
                emit(this->*signal)(ids.front());
        };
    };
    connect(m_open, &QPushButton::clicked, this, withFirst(&RunHistoryPanel::openRequested));
    connect(m_replay, &QPushButton::clicked, this, withFirst(&RunHistoryPanel::replayRequested));
    connect(m_rerun, &QPushButton::clicked, this, withFirst(&RunHistoryPanel::rerunRequested));
    connect(m_export, &QPushButton::clicked, this, withFirst(&RunHistoryPanel::exportRequested));
    connect(m_delete, &QPushButton::clicked, this, [this] {
        if (const auto ids = selectedRuns(); !ids.empty())
            emit deleteRequested(ids);
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (const auto ids = selectedRuns(); ids.size() == 2)
            emit compareRequested(ids[0], ids[1]);
    });
    connect(m_latency, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRuns();
        if (const auto* s = ids.empty() ? nullptr : summaryOf(ids.front()))
            emit latencyRequested(QString::fromStdString(s->teamName));
        else if (m_team->currentIndex() > 0)
            emit latencyRequested(m_team->currentText());
    });
    updateButtons();
}

void RunHistoryPanel::setRuns(std::vector<RunSummary> runs)
{
    const auto selected = selectedRuns();
    m_runs = std::move(runs);
    const QString team = m_team->currentIndex() > 0 ? m_team->currentText() : QString();
    std::set<QString> teams;
    for (const auto& r : m_runs)
        teams.insert(QString::fromStdString(r.teamName));
    {
        const QSignalBlocker block(m_team);
        m_team->clear();
        m_team->addItem(tr("All teams"));
        for (const auto& t : teams)
            m_team->addItem(t);
        m_team->setCurrentIndex(std::max(0, m_team->findText(team)));
    }
    m_list->clear();
    for (const auto& r : m_runs) {
        auto* item = new QTreeWidgetItem(m_list);
        const QString id = QString::fromStdString(r.id.str());
        item->setData(RunColumn, kIdRole, id);
        item->setText(RunColumn, id.left(12));
        item->setText(StartedColumn,
                      QDateTime::fromMSecsSinceEpoch(r.startedAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        item->setText(TeamColumn, QString::fromStdString(r.teamName));
        item->setText(StatusColumn, QString::fromUtf8(toString(r.status).data(), qsizetype(toString(r.status).size())));
        item->setText(WallColumn, TimeFormat::duration(r.wallUs));
        item->setText(TokensColumn, QString::number(r.tokensIn + r.tokensOut));
        item->setText(CostColumn, TimeFormat::cost(r.costUsd));
        const QString answer = QString::fromStdString(r.answer);
        const QString input = QString::fromStdString(r.input).simplified();
        item->setText(AnswerColumn, answer.isEmpty() ? input : answer + QStringLiteral("  ← ") + input);
        item->setToolTip(AnswerColumn, input);
        for (const int c : {WallColumn, TokensColumn, CostColumn})
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
    for (int c = 0; c < AnswerColumn; ++c)
        m_list->resizeColumnToContents(c);
    selectRuns(selected);
    applyFilter();
}

void RunHistoryPanel::setTeamFilter(const QString& team)
{
    m_team->setCurrentIndex(team.isEmpty() ? 0 : std::max(0, m_team->findText(team)));
}

void RunHistoryPanel::setStatusFilter(std::optional<RunStatus> status)
{
    m_status->setCurrentIndex(status ? std::max(0, m_status->findData(int(*status))) : 0);
}

void RunHistoryPanel::setTextFilter(const QString& text)
{
    m_text->setText(text);
}

void RunHistoryPanel::applyFilter()
{
    const QString team = m_team->currentIndex() > 0 ? m_team->currentText() : QString();
    const auto status =
        m_status->currentIndex() > 0 ? std::optional<int>(m_status->currentData().toInt()) : std::nullopt;
    const QString text = m_text->text().trimmed();
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const auto& r = m_runs[size_t(i)];
        bool show = team.isEmpty() || QString::fromStdString(r.teamName) == team;
        show = show && (!status || int(r.status) == *status);
        if (show && !text.isEmpty()) {
            show = false;
            for (const auto* field : {&r.id.str(), &r.input, &r.answer, &r.teamName})
                show = show || QString::fromStdString(*field).contains(text, Qt::CaseInsensitive);
        }
        m_list->topLevelItem(i)->setHidden(!show);
    }
    updateButtons();
}

std::vector<RunId> RunHistoryPanel::visibleRuns() const
{
    std::vector<RunId> ids;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (!m_list->topLevelItem(i)->isHidden())
            ids.emplace_back(m_list->topLevelItem(i)->data(RunColumn, kIdRole).toString().toStdString());
    }
    return ids;
}

std::vector<RunId> RunHistoryPanel::selectedRuns() const
{
    std::vector<RunId> ids;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const auto* item = m_list->topLevelItem(i);
        if (item->isSelected() && !item->isHidden())
            ids.emplace_back(item->data(RunColumn, kIdRole).toString().toStdString());
    }
    return ids;
}

void RunHistoryPanel::selectRuns(const std::vector<RunId>& ids)
{
    const QSignalBlocker block(m_list);
    m_list->clearSelection();
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        auto* item = m_list->topLevelItem(i);
        const RunId id(item->data(RunColumn, kIdRole).toString().toStdString());
        item->setSelected(std::find(ids.begin(), ids.end(), id) != ids.end());
    }
    updateButtons();
}

void RunHistoryPanel::updateButtons()
{
    const auto n = selectedRuns().size();
    for (auto* b : {m_open, m_replay, m_rerun, m_export})
        b->setEnabled(n == 1);
    m_delete->setEnabled(n >= 1);
    m_compare->setEnabled(n == 2);
    m_latency->setEnabled(n >= 1 || m_team->currentIndex() > 0);
}

const RunSummary* RunHistoryPanel::summaryOf(const RunId& id) const
{
    for (const auto& r : m_runs) {
        if (r.id == id)
            return &r;
    }
    return nullptr;
}

} // namespace conclave::ui
