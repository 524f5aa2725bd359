#include "run/RunOutputPanel.h"

#include "run/RunController.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"

#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextCursor>
#include <QVBoxLayout>

namespace conclave::ui {

RunOutputPanel::RunOutputPanel(RunController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_title(new QLabel(this)), m_status(new QLabel(this)),
      m_answer(new QLabel(this)), m_confidence(new QLabel(this)), m_tokens(new QLabel(this)), m_cost(new QLabel(this)),
      m_text(new QPlainTextEdit(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    layout->addWidget(m_title);
    auto* form = new QFormLayout;
    form->addRow(tr("Status"), m_status);
    form->addRow(tr("Answer"), m_answer);
    form->addRow(tr("Confidence"), m_confidence);
    form->addRow(tr("Tokens"), m_tokens);
    form->addRow(tr("Cost"), m_cost);
    layout->addLayout(form);
    m_answer->setWordWrap(true);
    m_answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setReadOnly(true);
    m_text->setPlaceholderText(tr("Streamed text appears here during a run"));
    layout->addWidget(m_text, 1);

    connect(m_controller, &RunController::started, this, [this] { showStoredRun(nullptr); });
    connect(m_controller, &RunController::nodeChanged, this, [this](const NodeId& node) {
        if (!m_stored && m_node && *m_node == node)
            refresh();
    });
    connect(m_controller, &RunController::nodeTextChanged, this, &RunOutputPanel::appendText);
    refresh();
}

void RunOutputPanel::showNode(const std::optional<NodeId>& node)
{
    m_node = node;
    refresh();
}

void RunOutputPanel::showStoredRun(std::shared_ptr<const StoredRun> run)
{
    setStoredRun(std::move(run));
    m_atUs.reset();
    refresh();
}

void RunOutputPanel::showStoredRunAt(std::shared_ptr<const StoredRun> run, int64_t atUs)
{
    setStoredRun(std::move(run));
    m_atUs = m_stored ? std::optional<int64_t>(atUs) : std::nullopt;
    refresh();
}

void RunOutputPanel::setStoredRun(std::shared_ptr<const StoredRun> run)
{
    // Read once per run: a replay's every tick then only asks for one instant.
    if (run != m_stored)
        m_outputs = run ? ReplayOutputs(*run) : ReplayOutputs();
    m_stored = std::move(run);
}

QString RunOutputPanel::title() const
{
    return m_title->text();
}

std::string RunOutputPanel::storedText(const StoredRun& run, const NodeId& node)
{
    return ReplayOutputs::storedText(run, node);
}

QString RunOutputPanel::text() const
{
    return m_text->toPlainText();
}

QString RunOutputPanel::placeholder() const
{
    return m_text->placeholderText();
}

QString RunOutputPanel::figure(const QString& name) const
{
    if (name == QLatin1String("status"))
        return m_status->text();
    if (name == QLatin1String("answer"))
        return m_answer->text();
    if (name == QLatin1String("confidence"))
        return m_confidence->text();
    if (name == QLatin1String("tokens"))
        return m_tokens->text();
    if (name == QLatin1String("cost"))
        return m_cost->text();
    return {};
}

void RunOutputPanel::appendText(const NodeId& node)
{
    if (m_stored || !m_node || *m_node != node)
        return;
    const auto* n = m_controller->liveNode(node);
    if (!n)
        return;
    const QString full = QString::fromStdString(n->text);
    const QString shown = m_text->toPlainText();
    if (full.startsWith(shown)) {
        // Only the new part: streaming stays cheap however long the text grows.
        QTextCursor cursor(m_text->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(full.mid(shown.size()));
    } else {
        m_text->setPlainText(full);
    }
}

void RunOutputPanel::setRunLine(const QString& line)
{
    if (line == m_runLine && m_node == m_runLineNode)
        return;
    m_runLine = line;
    m_runLineNode = m_node;
    if (m_node)
        emit runLineChanged(*m_node, m_runLine);
}

void RunOutputPanel::refresh()
{
    // What to show: of the stored run (final, or by the playhead), else of the live one.
    NodeOutput out;
    if (m_stored && m_node) {
        out = m_atUs ? m_outputs.at(*m_node, *m_atUs) : m_outputs.finalOutput(*m_node);
    } else if (const auto* n = m_node ? m_controller->liveNode(*m_node) : nullptr) {
        out.status = n->status;
        out.result = n->result;
        out.text = n->text;
    }
    const QString at = m_atUs ? TimeFormat::duration(*m_atUs) : QString();
    QString run = tr("live run");
    if (m_stored) {
        run = tr("run %1").arg(QString::fromStdString(m_stored->summary.id.str()).left(8));
        if (m_atUs)
            run += tr(" at %1").arg(at);
    }
    m_title->setText(m_node ? tr("Node %1 · %2").arg(QString::fromStdString(m_node->str()), run)
                            : tr("Select a node to see its output"));
    if (!m_atUs)
        m_text->setPlaceholderText(tr("Streamed text appears here during a run"));
    else if (out.inProgress())
        m_text->setPlaceholderText(
            tr("Running since %1: the store keeps a span's text, not when each piece of it streamed, "
               "so its text shows when the span ends")
                .arg(TimeFormat::duration(out.runningSinceUs)));
    else if (out.status == Status::Queued)
        m_text->setPlaceholderText(tr("Not started by %1").arg(at));
    else
        m_text->setPlaceholderText(tr("No text by %1").arg(at));
    if (!out.status) {
        for (auto* label : {m_status, m_answer, m_confidence, m_tokens, m_cost})
            label->setText(QStringLiteral("–"));
        m_status->setStyleSheet({});
        m_text->clear();
        setRunLine({});
        return;
    }
    const NodeResult* result = out.result ? &*out.result : nullptr;
    QString statusText = StatusPalette::label(*out.status);
    if (out.inProgress())
        statusText += tr(" since %1").arg(TimeFormat::duration(out.runningSinceUs));
    if (result && !result->error.empty())
        statusText += QStringLiteral(": ") + QString::fromStdString(result->error);
    m_status->setText(statusText);
    const QColor c = StatusPalette::color(*out.status);
    m_status->setStyleSheet(QStringLiteral("color: %1; font-weight: bold").arg(c.name()));
    if (result) {
        m_answer->setText(QString::fromStdString(result->answer));
        m_confidence->setText(QString::number(result->confidence, 'f', 2));
        m_tokens->setText(tr("%1 in, %2 out").arg(result->tokensIn).arg(result->tokensOut));
        m_cost->setText(TimeFormat::cost(result->costUsd));
    } else {
        for (auto* label : {m_answer, m_confidence, m_tokens, m_cost})
            label->setText(QStringLiteral("–"));
    }
    const QString full = QString::fromStdString(out.text);
    if (m_text->toPlainText() != full)
        m_text->setPlainText(full);

    // The inspector's line: the status, then what the node settled with.
    QString line = m_atUs     ? tr("At the playhead (%1)").arg(at)
                   : m_stored ? tr("Run %1").arg(QString::fromStdString(m_stored->summary.id.str()).left(8))
                   : m_controller->isRunning() ? tr("Live run")
                                               : tr("Last run");
    line += QStringLiteral(": ") + statusText;
    if (result && !result->answer.empty()) {
        constexpr int kAnswerChars = 40;
        QString answer = QString::fromStdString(result->answer).simplified();
        if (answer.size() > kAnswerChars)
            answer = answer.left(kAnswerChars - 1) + QStringLiteral("…");
        line += tr(" · answer %1").arg(answer);
    }
    if (result && result->ok())
        line += tr(" · conf %1").arg(QString::number(result->confidence, 'f', 2));
    setRunLine(line);
}

} // namespace conclave::ui
