#pragma once

#include <QIconEngine>

namespace conclave::ui {

// A toolbar glyph (play, stop) drawn at paint time in the application
// palette's button-text colour, so it stays visible in the light and the dark
// theme alike (the style's standard media icons are black on any background).
class PaletteIconEngine : public QIconEngine {
public:
    enum class Glyph { Play, Stop };

    explicit PaletteIconEngine(Glyph glyph) : m_glyph(glyph) {}

    static QIcon icon(Glyph glyph);

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State state) override;
    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override;
    QIconEngine* clone() const override { return new PaletteIconEngine(m_glyph); }

private:
    Glyph m_glyph;
};

} // namespace conclave::ui
