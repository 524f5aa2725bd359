#include "inspector/PromptEditor.h"

#include "inspector/PlaceholderHighlighter.h"

#include <QHBoxLayout>
#include <QMenu>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace conclave::ui {

PromptEditor::PromptEditor(QWidget* parent)
    : QWidget(parent), m_edit(new QPlainTextEdit(this)), m_insert(new QToolButton(this)),
      m_highlighter(new PlaceholderHighlighter(m_edit->document()))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_edit->setTabChangesFocus(true);
    m_edit->setFixedHeight(m_edit->fontMetrics().lineSpacing() * 4 + 12);
    layout->addWidget(m_edit);
    auto* row = new QHBoxLayout;
    m_insert->setText(tr("Insert {{…}}"));
    m_insert->setToolTip(tr("Insert a placeholder this node can use"));
    m_insert->setAutoRaise(true);
    row->addStretch();
    row->addWidget(m_insert);
    layout->addLayout(row);
    connect(m_insert, &QToolButton::clicked, this, [this] { showMenu(false); });
    connect(m_edit, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading)
            return;
        const auto cursor = m_edit->textCursor();
        const QString text = m_edit->toPlainText();
        const int at = cursor.position();
        emit textEdited(text);
        if (at >= 2 && text.mid(at - 2, 2) == QLatin1String("{{") && (at < 3 || text[at - 3] != '{'))
            showMenu(true);
    });
}

QString PromptEditor::text() const
{
    return m_edit->toPlainText();
}

void PromptEditor::setText(const QString& text)
{
    if (m_edit->toPlainText() == text)
        return;
    m_loading = true;
    m_edit->setPlainText(text);
    m_loading = false;
}

void PromptEditor::setPlaceholders(const QStringList& names)
{
    m_names = names;
    m_highlighter->setKnown(names);
}

void PromptEditor::showMenu(bool atCursor)
{
    QMenu menu(this);
    for (const auto& name : m_names)
        menu.addAction(QStringLiteral("{{%1}}").arg(name), this,
                       [this, name, atCursor] { insertPlaceholder(name, atCursor); });
    const QPoint where = atCursor ? m_edit->viewport()->mapToGlobal(m_edit->cursorRect().bottomLeft())
                                  : m_insert->mapToGlobal(QPoint(0, m_insert->height()));
    menu.exec(where);
}

void PromptEditor::insertPlaceholder(const QString& name, bool afterBraces)
{
    auto cursor = m_edit->textCursor();
    cursor.insertText(afterBraces ? name + QStringLiteral("}}") : QStringLiteral("{{%1}}").arg(name));
    m_edit->setTextCursor(cursor);
    m_edit->setFocus();
}

} // namespace conclave::ui
