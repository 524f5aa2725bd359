#pragma once

#include <QSet>
#include <QSyntaxHighlighter>

namespace conclave::ui {

// Colours {{…}} placeholders in a prompt: known ones (for this node) in blue,
// unknown ones in red with a wavy underline.
class PlaceholderHighlighter : public QSyntaxHighlighter {
    Q_OBJECT

public:
    explicit PlaceholderHighlighter(QTextDocument* parent);
    void setKnown(const QStringList& names);

protected:
    void highlightBlock(const QString& text) override;

private:
    QSet<QString> m_known;
};

} // namespace conclave::ui
