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
    m_stored = std::move(run);
    refresh();
}

QString RunOutputPanel::title() const
{
    return m_title->text();
}

std::string RunOutputPanel::storedText(const StoredRun& run, const NodeId& node)
{
    // As the live dock: the result's text once the node settled, else what it streamed.
    for (const auto& n : run.nodes) {
        if (n.node == node && !n.result.text.empty())
            return n.result.text;
    }
    std::string text;
    for (const auto& span : run.spans) { // in id order: the order they started
        if (span.node != node)
            continue;
        const auto it = run.texts.find(span.id);
        if (it == run.texts.end() || it->second.empty())
            continue;
        if (!text.empty() && text.back() != '\n')
            text += '\n';
        text += it->second;
    }
    return text;
}

QString RunOutputPanel::text() const
{
    return m_text->toPlainText();
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

void RunOutputPanel::refresh()
{
    // What to show, from the stored run or the live one.
    std::optional<Status> status;
    const NodeResult* result = nullptr;
    QString full;
    if (m_stored && m_node) {
        for (const auto& n : m_stored->nodes) {
            if (n.node == *m_node) {
                result = &n.result;
                status = n.result.status;
            }
        }
        // A node that started but has no result (an interrupted run): its last span's status.
        for (auto it = m_stored->spans.rbegin(); !status && it != m_stored->spans.rend(); ++it) {
            if (it->node == *m_node && it->kind == SpanKind::Node)
                status = it->status;
        }
        full = QString::fromStdString(storedText(*m_stored, *m_node));
    } else if (const auto* n = m_node ? m_controller->liveNode(*m_node) : nullptr) {
        status = n->status;
        result = n->result ? &*n->result : nullptr;
        full = QString::fromStdString(n->text);
    }
    const QString run =
        m_stored ? tr("run %1").arg(QString::fromStdString(m_stored->summary.id.str()).left(8)) : tr("live run");
    m_title->setText(m_node ? tr("Node %1 · %2").arg(QString::fromStdString(m_node->str()), run)
                            : tr("Select a node to see its output"));
    if (!status) {
        for (auto* label : {m_status, m_answer, m_confidence, m_tokens, m_cost})
            label->setText(QStringLiteral("–"));
        m_status->setStyleSheet({});
        m_text->clear();
        return;
    }
    QString statusText = StatusPalette::label(*status);
    if (result && !result->error.empty())
        statusText += QStringLiteral(": ") + QString::fromStdString(result->error);
    m_status->setText(statusText);
    const QColor c = StatusPalette::color(*status);
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
    if (m_text->toPlainText() != full)
        m_text->setPlainText(full);
}

} // namespace conclave::ui
