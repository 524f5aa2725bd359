#include "inspector/PlaceholderHighlighter.h"

#include <QRegularExpression>

namespace conclave::ui {

PlaceholderHighlighter::PlaceholderHighlighter(QTextDocument* parent) : QSyntaxHighlighter(parent) {}

void PlaceholderHighlighter::setKnown(const QStringList& names)
{
    m_known = QSet<QString>(names.begin(), names.end());
    rehighlight();
}

void PlaceholderHighlighter::highlightBlock(const QString& text)
{
    static const QRegularExpression placeholder(QStringLiteral("\\{\\{\\s*([^{}]*?)\\s*\\}\\}"));
    auto it = placeholder.globalMatch(text);
    while (it.hasNext()) {
        const auto match = it.next();
        QTextCharFormat format;
        format.setFontWeight(QFont::DemiBold);
        if (m_known.contains(match.captured(1))) {
            format.setForeground(QColor(0x3b, 0x82, 0xf6));
        } else {
            format.setForeground(QColor(0xdc, 0x26, 0x26));
            format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            format.setUnderlineColor(QColor(0xdc, 0x26, 0x26));
            format.setToolTip(tr("Unknown placeholder for this node"));
        }
        setFormat(int(match.capturedStart()), int(match.capturedLength()), format);
    }
}

} // namespace conclave::ui
