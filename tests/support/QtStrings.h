#pragma once

// Conversions between core's std strings and the QString/QStringList that
// QCOMPARE prints readably, shared by the test suites.
#include <QString>
#include <QStringList>

#include <string>
#include <string_view>
#include <vector>

inline QString q(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

inline std::vector<std::string> toStd(const QStringList& list)
{
    std::vector<std::string> out;
    for (const auto& s : list)
        out.push_back(s.toStdString());
    return out;
}

inline QStringList toQt(const std::vector<std::string>& list)
{
    QStringList out;
    for (const auto& s : list)
        out << q(s);
    return out;
}
