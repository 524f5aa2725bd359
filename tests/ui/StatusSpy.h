#pragma once

// The status messages a StudioFeedback showed, each as "text · N ms", so that
// a test compares the text and its timeout in one exact assertion.
#include <QSignalSpy>
#include <QStringList>

#include "studio/StudioFeedback.h"

class StatusSpy : public QSignalSpy {
public:
    explicit StatusSpy(conclave::ui::StudioFeedback* feedback)
        : QSignalSpy(feedback, &conclave::ui::StudioFeedback::statusMessage)
    {
    }

    static QString format(const QString& text, int timeoutMs)
    {
        return QStringLiteral("%1 · %2 ms").arg(text).arg(timeoutMs);
    }

    QStringList messages() const
    {
        QStringList out;
        for (const auto& message : *this)
            out << format(message.at(0).toString(), message.at(1).toInt());
        return out;
    }

    QString last() const { return isEmpty() ? QString() : messages().last(); }
};
