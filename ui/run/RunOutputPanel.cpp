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

    connect(m_controller, &RunController::started, this, [this] { refresh(); });
    connect(m_controller, &RunController::nodeChanged, this, [this](const NodeId& node) {
        if (m_node && *m_node == node)
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
    if (!m_node || *m_node != node)
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
    const auto* n = m_node ? m_controller->liveNode(*m_node) : nullptr;
    m_title->setText(m_node ? tr("Node %1").arg(QString::fromStdString(m_node->str()))
                            : tr("Select a node to see its output"));
    if (!n) {
        for (auto* label : {m_status, m_answer, m_confidence, m_tokens, m_cost})
            label->setText(QStringLiteral("–"));
        m_text->clear();
        return;
    }
    QString status = StatusPalette::label(n->status);
    if (n->result && !n->result->error.empty())
        status += QStringLiteral(": ") + QString::fromStdString(n->result->error);
    m_status->setText(status);
    const QColor c = StatusPalette::color(n->status);
    m_status->setStyleSheet(QStringLiteral("color: %1; font-weight: bold").arg(c.name()));
    if (n->result) {
        m_answer->setText(QString::fromStdString(n->result->answer));
        m_confidence->setText(QString::number(n->result->confidence, 'f', 2));
        m_tokens->setText(tr("%1 in, %2 out").arg(n->result->tokensIn).arg(n->result->tokensOut));
        m_cost->setText(TimeFormat::cost(n->result->costUsd));
    } else {
        for (auto* label : {m_answer, m_confidence, m_tokens, m_cost})
            label->setText(QStringLiteral("–"));
    }
    const QString full = QString::fromStdString(n->text);
    if (m_text->toPlainText() != full)
        m_text->setPlainText(full);
}

} // namespace conclave::ui
