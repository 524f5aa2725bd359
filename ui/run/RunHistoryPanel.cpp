#include "run/RunHistoryPanel.h"

#include "run/RunController.h"

#include "timeline/TimeFormat.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace conclave::ui {

namespace {
enum Column { RunColumn, StartedColumn, TeamColumn, StatusColumn, WallColumn, TokensColumn, CostColumn, AnswerColumn };
constexpr int kIdRole = Qt::UserRole;
// Typing waits this long for the next key before asking the store.
constexpr int kTypingMs = 200;

QString statusText(RunStatus s)
{
    return QString::fromUtf8(toString(s).data(), qsizetype(toString(s).size()));
}
} // namespace

RunHistoryPanel::RunHistoryPanel(RunController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_team(new QComboBox(this)), m_status(new QComboBox(this)),
      m_source(new QComboBox(this)), m_text(new QLineEdit(this)), m_typing(new QTimer(this)), m_count(new QLabel(this)),
      m_more(new QPushButton(tr("Load more"), this)), m_list(new QTreeWidget(this)),
      m_open(new QPushButton(tr("Open"), this)), m_replay(new QPushButton(tr("Replay"), this)),
      m_rerun(new QPushButton(tr("Re-run"), this)), m_delete(new QPushButton(tr("Delete"), this)),
      m_export(new QPushButton(tr("Export…"), this)), m_compare(new QPushButton(tr("Compare"), this)),
      m_latency(new QPushButton(tr("Latency"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    m_team->setObjectName("historyTeam");
    m_team->setMinimumWidth(160);
    // As wide as a short team name, not the longest: the text filter keeps its room.
    m_team->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_team->setMinimumContentsLength(18);
    m_team->addItem(tr("All teams"));
    m_status->setObjectName("historyStatus");
    m_status->addItem(tr("Any status"));
    for (const auto s : {RunStatus::Ok, RunStatus::Partial, RunStatus::Failed, RunStatus::Cancelled,
                         RunStatus::BudgetExhausted, RunStatus::Interrupted, RunStatus::Running})
        m_status->addItem(statusText(s), int(s));
    m_source->setObjectName("historySource");
    m_source->addItem(tr("Any source"));
    m_source->addItem(tr("conclave run"), int(RunSource::Run));
    m_source->addItem(tr("Re-runs"), int(RunSource::Rerun));
    m_source->addItem(tr("Studio"), int(RunSource::Studio));
    m_source->addItem(tr("Served"), int(RunSource::Serve));
    m_source->addItem(tr("Experiment trials"), int(RunSource::Eval));
    m_source->setToolTip(tr("What started the runs: the CLI, a re-run, the studio, conclave serve, or an "
                            "experiment (whose trials are listed only here)"));
    m_text->setObjectName("historyText");
    m_text->setPlaceholderText(tr("Filter by id, input or answer"));
    m_text->setClearButtonEnabled(true);
    m_typing->setSingleShot(true);
    m_typing->setInterval(kTypingMs);
    m_count->setObjectName("historyCount");
    m_more->setObjectName("historyMore");
    auto* refresh = new QToolButton(this);
    refresh->setText(tr("Refresh"));
    bar->addWidget(m_team);
    bar->addWidget(m_status);
    bar->addWidget(m_source);
    bar->addWidget(m_text, 1);
    bar->addWidget(m_count);
    bar->addWidget(m_more);
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

    connect(refresh, &QToolButton::clicked, this, &RunHistoryPanel::refresh);
    connect(m_more, &QPushButton::clicked, this, &RunHistoryPanel::loadMore);
    connect(m_team, &QComboBox::currentIndexChanged, this, &RunHistoryPanel::reload);
    connect(m_status, &QComboBox::currentIndexChanged, this, &RunHistoryPanel::reload);
    connect(m_source, &QComboBox::currentIndexChanged, this, &RunHistoryPanel::reload);
    connect(m_text, &QLineEdit::textEdited, m_typing, qOverload<>(&QTimer::start));
    connect(m_typing, &QTimer::timeout, this, &RunHistoryPanel::reload);
    // Scrolling to the end of what is loaded loads the next page.
    connect(m_list->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (value > 0 && value == m_list->verticalScrollBar()->maximum() && hasMore())
            loadMore();
    });
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
    updateCount();
    updateButtons();
}

RunFilter RunHistoryPanel::filter() const
{
    RunFilter f;
    if (m_team->currentIndex() > 0)
        f.team = m_team->currentText().toStdString();
    if (m_status->currentIndex() > 0)
        f.status = RunStatus(m_status->currentData().toInt());
    if (m_source->currentIndex() > 0)
        f.source = RunSource(m_source->currentData().toInt());
    f.text = m_text->text().trimmed().toStdString();
    return f;
}

void RunHistoryPanel::setPageSize(int runs)
{
    m_pageSize = std::max(1, runs);
}

bool RunHistoryPanel::refresh()
{
    QString error;
    const auto names = m_controller->teamNames(&error);
    if (!names)
        return fail(error);
    setTeams(*names);
    return load(0, std::max(m_pageSize, int(m_runs.size())), false);
}

bool RunHistoryPanel::reload()
{
    m_typing->stop();
    return load(0, m_pageSize, false);
}

bool RunHistoryPanel::loadMore()
{
    return load(int(m_runs.size()), m_pageSize, true);
}

bool RunHistoryPanel::load(int offset, int limit, bool append)
{
    RunFilter f = filter();
    QString error;
    const auto matches = m_controller->countRuns(f, &error);
    f.offset = offset;
    f.limit = limit;
    auto runs = matches ? m_controller->listRuns(f, &error) : std::nullopt;
    if (!runs)
        return fail(error);
    m_error.clear();
    m_matches = *matches;
    const auto selected = selectedRuns();
    size_t from = 0;
    if (append) {
        // A run stored since the last page shifts the offsets: skip what is already listed.
        from = m_runs.size();
        std::set<RunId> listed;
        for (const auto& r : m_runs)
            listed.insert(r.id);
        for (auto& r : *runs) {
            if (!listed.contains(r.id))
                m_runs.push_back(std::move(r));
        }
    } else {
        m_runs = std::move(*runs);
        m_list->clear();
    }
    addItems(from);
    selectRuns(selected);
    updateCount();
    return true;
}

bool RunHistoryPanel::fail(const QString& message)
{
    m_error = message;
    emit errorOccurred(message);
    return false;
}

void RunHistoryPanel::setTeams(const std::vector<std::string>& names)
{
    const QString current = m_team->currentIndex() > 0 ? m_team->currentText() : QString();
    std::set<QString> teams;
    for (const auto& n : names)
        teams.insert(QString::fromStdString(n));
    // A chosen team whose runs are all gone stays chosen (and lists nothing).
    if (!current.isEmpty())
        teams.insert(current);
    const QSignalBlocker block(m_team);
    m_team->clear();
    m_team->addItem(tr("All teams"));
    for (const auto& t : teams)
        m_team->addItem(t);
    m_team->setCurrentIndex(current.isEmpty() ? 0 : m_team->findText(current));
}

QStringList RunHistoryPanel::teams() const
{
    QStringList out;
    for (int i = 0; i < m_team->count(); ++i)
        out << m_team->itemText(i);
    return out;
}

void RunHistoryPanel::addItems(size_t from)
{
    for (size_t i = from; i < m_runs.size(); ++i) {
        const auto& r = m_runs[i];
        auto* item = new QTreeWidgetItem(m_list);
        const QString id = QString::fromStdString(r.id.str());
        item->setData(RunColumn, kIdRole, id);
        item->setText(RunColumn, id.left(12));
        item->setText(StartedColumn,
                      QDateTime::fromMSecsSinceEpoch(r.startedAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        item->setText(TeamColumn, QString::fromStdString(r.teamName));
        item->setText(StatusColumn, statusText(r.status));
        item->setText(WallColumn, TimeFormat::duration(r.wallUs));
        item->setToolTip(
            WallColumn,
            r.clock == ClockKind::Virtual
                ? tr("Simulated time (virtual clock); the run took %1 of CPU").arg(TimeFormat::duration(r.cpuUs))
                : tr("Measured time (real clock)"));
        item->setText(TokensColumn, QString::number(r.tokensIn + r.tokensOut));
        item->setText(CostColumn, TimeFormat::cost(r.costUsd));
        const QString answer = QString::fromStdString(r.answer);
        const QString input = QString::fromStdString(r.input).simplified();
        item->setText(AnswerColumn, answer.isEmpty() ? input : answer + QStringLiteral("  ← ") + input);
        item->setToolTip(AnswerColumn, input);
        for (const int c : {WallColumn, TokensColumn, CostColumn})
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
    if (from == 0) {
        for (int c = 0; c < AnswerColumn; ++c)
            m_list->resizeColumnToContents(c);
    }
}

void RunHistoryPanel::updateCount()
{
    m_count->setText(tr("%1 of %2").arg(m_runs.size()).arg(m_matches));
    const auto left = m_matches - int64_t(m_runs.size());
    m_more->setEnabled(left > 0);
    m_more->setToolTip(left > 0
                           ? tr("Load the next %1 of %2 more runs").arg(std::min<int64_t>(left, m_pageSize)).arg(left)
                           : tr("Every matching run is listed"));
}

void RunHistoryPanel::setTeamFilter(const QString& team)
{
    if (!team.isEmpty() && m_team->findText(team) < 0)
        m_team->addItem(team);
    m_team->setCurrentIndex(team.isEmpty() ? 0 : m_team->findText(team));
}

void RunHistoryPanel::setStatusFilter(std::optional<RunStatus> status)
{
    m_status->setCurrentIndex(status ? std::max(0, m_status->findData(int(*status))) : 0);
}

void RunHistoryPanel::setSourceFilter(std::optional<RunSource> source)
{
    m_source->setCurrentIndex(source ? std::max(0, m_source->findData(int(*source))) : 0);
}

void RunHistoryPanel::setTextFilter(const QString& text)
{
    m_text->setText(text);
    reload();
}

std::vector<RunId> RunHistoryPanel::visibleRuns() const
{
    std::vector<RunId> ids;
    for (const auto& r : m_runs)
        ids.push_back(r.id);
    return ids;
}

std::vector<RunId> RunHistoryPanel::selectedRuns() const
{
    std::vector<RunId> ids;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const auto* item = m_list->topLevelItem(i);
        if (item->isSelected())
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
