#pragma once

#include <QObject>
#include <QPalette>
#include <QString>

namespace conclave::ui {

// Light and dark themes on the Fusion style, or the system's own look
// ("system" leaves the platform's palette alone, so it follows the desktop).
// The node and status colours are the same in every theme (KindStyle).
class ThemeManager : public QObject {
    Q_OBJECT

public:
    enum class Theme { System, Light, Dark };

    explicit ThemeManager(QObject* parent = nullptr);

    Theme theme() const { return m_theme; }
    void setTheme(Theme theme);
    bool isDark() const;

    static QString nameOf(Theme theme);
    static Theme fromName(const QString& name);

signals:
    void themeChanged(conclave::ui::ThemeManager::Theme theme);

private:
    static QPalette darkPalette();
    static QPalette lightPalette();

    Theme m_theme = Theme::System;
    QPalette m_systemPalette;
    QString m_systemStyle;
};

} // namespace conclave::ui
