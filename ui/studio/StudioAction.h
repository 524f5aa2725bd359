#pragma once

#include <QAction>
#include <QKeySequence>
#include <QString>

namespace conclave::ui {

// A studio action owned by `owner`: its object name is how menus, toolbars and
// tests find it (MainWindow::action); with a shortcut, its tool tip names it.
QAction* makeStudioAction(QObject* owner, const QString& name, const QString& text,
                          const QKeySequence& shortcut = QKeySequence());

// The same, triggering `slot` of `owner`.
template <typename Owner, typename Result>
QAction* makeStudioAction(Owner* owner, const QString& name, const QString& text, const QKeySequence& shortcut,
                          Result (Owner::*slot)())
{
    auto* action = makeStudioAction(static_cast<QObject*>(owner), name, text, shortcut);
    QObject::connect(action, &QAction::triggered, owner, slot);
    return action;
}

} // namespace conclave::ui
