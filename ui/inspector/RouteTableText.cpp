#include "inspector/RouteTableText.h"

#include <QStringList>

namespace conclave::ui {

QString RouteTableText::format(const RouteTable& routes)
{
    QStringList lines;
    for (const auto& [label, keywords] : routes) {
        QStringList words;
        for (const auto& k : keywords)
            words << QString::fromStdString(k);
        lines << QString::fromStdString(label) + QStringLiteral(": ") + words.join(QStringLiteral(", "));
    }
    return lines.join('\n');
}

RouteTable RouteTableText::parse(const QString& text)
{
    RouteTable routes;
    for (const QString& line : text.split('\n')) {
        const int colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QString label = line.left(colon).trimmed();
        if (label.isEmpty())
            continue;
        std::vector<std::string> keywords;
        QString current;
        const auto flush = [&] {
            const QString word = current.trimmed();
            if (!word.isEmpty())
                keywords.push_back(word.toStdString());
            current.clear();
        };
        for (const QChar c : line.mid(colon + 1)) {
            const QString word = current.trimmed();
            const bool inRegex = word.startsWith('/') && (word.size() == 1 || !word.endsWith('/'));
            if (c == ',' && !inRegex)
                flush();
            else
                current += c;
        }
        flush();
        routes[label.toStdString()] = std::move(keywords);
    }
    return routes;
}

} // namespace conclave::ui
