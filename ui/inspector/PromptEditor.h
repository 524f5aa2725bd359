#pragma once

#include <QWidget>

class QPlainTextEdit;
class QToolButton;

namespace conclave::ui {

class PlaceholderHighlighter;

// A prompt template editor: highlights {{…}} placeholders, offers the ones
// this node can use from an Insert menu, and pops the same menu up when "{{"
// is typed.
class PromptEditor : public QWidget {
    Q_OBJECT

public:
    explicit PromptEditor(QWidget* parent = nullptr);

    QString text() const;
    // Replaces the text unless it is already equal (so typing is never disturbed).
    void setText(const QString& text);
    void setPlaceholders(const QStringList& names); // without braces: "input", "from.math"
    QPlainTextEdit* editor() const { return m_edit; }

signals:
    void textEdited(const QString& text);

private:
    void showMenu(bool atCursor);
    void insertPlaceholder(const QString& name, bool afterBraces);

    QPlainTextEdit* m_edit;
    QToolButton* m_insert;
    PlaceholderHighlighter* m_highlighter;
    QStringList m_names;
    bool m_loading = false;
};

} // namespace conclave::ui
