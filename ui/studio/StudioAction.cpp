#include "studio/StudioAction.h"

namespace conclave::ui {

QAction* makeStudioAction(QObject* owner, const QString& name, const QString& text, const QKeySequence& shortcut)
{
    auto* a = new QAction(text, owner);
    a->setObjectName(name);
    a->setShortcut(shortcut);
    if (!shortcut.isEmpty())
        a->setToolTip(
            QStringLiteral("%1 (%2)").arg(QString(text).remove('&'), shortcut.toString(QKeySequence::NativeText)));
    return a;
}

} // namespace conclave::ui
