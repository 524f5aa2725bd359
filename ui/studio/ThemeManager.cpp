#include "studio/ThemeManager.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace conclave::ui {

namespace {

// Inline flags for invalid inspector fields; the same red in both themes.
const char* kStyleSheet = "*[invalid=\"true\"] { border: 1px solid #dc2626; border-radius: 3px; }";

} // namespace

ThemeManager::ThemeManager(QObject* parent)
    : QObject(parent), m_systemPalette(QApplication::palette()), m_systemStyle(QApplication::style()->name())
{
    qApp->setStyleSheet(QString::fromLatin1(kStyleSheet));
}

QString ThemeManager::nameOf(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

ThemeManager::Theme ThemeManager::fromName(const QString& name)
{
    if (name == QLatin1String("light"))
        return Theme::Light;
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

bool ThemeManager::isDark() const
{
    return QApplication::palette().color(QPalette::Window).lightness() < 128;
}

void ThemeManager::setTheme(Theme theme)
{
    m_theme = theme;
    if (theme == Theme::System) {
        QApplication::setStyle(QStyleFactory::create(m_systemStyle));
        QApplication::setPalette(m_systemPalette);
    } else {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
    }
    qApp->setStyleSheet(QString::fromLatin1(kStyleSheet));
    emit themeChanged(theme);
}

QPalette ThemeManager::lightPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xf4, 0xf5, 0xf7));
    p.setColor(QPalette::WindowText, QColor(0x1f, 0x29, 0x37));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf1, 0xf3, 0xf6));
    p.setColor(QPalette::Text, QColor(0x1f, 0x29, 0x37));
    p.setColor(QPalette::Button, QColor(0xf9, 0xfa, 0xfb));
    p.setColor(QPalette::ButtonText, QColor(0x1f, 0x29, 0x37));
    p.setColor(QPalette::Highlight, QColor(0x25, 0x63, 0xeb));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x1f, 0x29, 0x37));
    p.setColor(QPalette::ToolTipText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x6b, 0x72, 0x80));
    p.setColor(QPalette::Link, QColor(0x25, 0x63, 0xeb));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x9c, 0xa3, 0xaf));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x9c, 0xa3, 0xaf));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x9c, 0xa3, 0xaf));
    return p;
}

QPalette ThemeManager::darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x1e, 0x20, 0x25));
    p.setColor(QPalette::WindowText, QColor(0xe5, 0xe7, 0xeb));
    p.setColor(QPalette::Base, QColor(0x2a, 0x2d, 0x34));
    p.setColor(QPalette::AlternateBase, QColor(0x31, 0x34, 0x3c));
    p.setColor(QPalette::Text, QColor(0xe5, 0xe7, 0xeb));
    p.setColor(QPalette::Button, QColor(0x2f, 0x33, 0x3a));
    p.setColor(QPalette::ButtonText, QColor(0xe5, 0xe7, 0xeb));
    p.setColor(QPalette::Highlight, QColor(0x60, 0xa5, 0xfa));
    p.setColor(QPalette::HighlightedText, QColor(0x11, 0x18, 0x27));
    p.setColor(QPalette::ToolTipBase, QColor(0xe5, 0xe7, 0xeb));
    p.setColor(QPalette::ToolTipText, QColor(0x11, 0x18, 0x27));
    p.setColor(QPalette::PlaceholderText, QColor(0x9c, 0xa3, 0xaf));
    p.setColor(QPalette::Link, QColor(0x60, 0xa5, 0xfa));
    p.setColor(QPalette::Light, QColor(0x3a, 0x3e, 0x46));
    p.setColor(QPalette::Midlight, QColor(0x34, 0x38, 0x40));
    p.setColor(QPalette::Mid, QColor(0x24, 0x27, 0x2d));
    p.setColor(QPalette::Dark, QColor(0x16, 0x18, 0x1c));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x6b, 0x72, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x6b, 0x72, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x6b, 0x72, 0x80));
    return p;
}

} // namespace conclave::ui
