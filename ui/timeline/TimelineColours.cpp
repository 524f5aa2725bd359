#include "timeline/TimelineColours.h"

#include <QPalette>

namespace conclave::ui {

QColor TimelineColours::mix(const QColor& a, const QColor& b, double amount)
{
    const auto at = [amount](float x, float y) { return float(x + (y - x) * amount); };
    return QColor::fromRgbF(at(a.redF(), b.redF()), at(a.greenF(), b.greenF()), at(a.blueF(), b.blueF()));
}

TimelineColours TimelineColours::of(const QPalette& palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QColor fade = base;
    fade.setAlpha(190);
    return {base,
            mix(base, text, 0.045),
            mix(base, palette.color(QPalette::Highlight), 0.22),
            mix(base, text, 0.12),
            mix(base, text, 0.06),
            mix(base, text, 0.25),
            text,
            fade};
}

} // namespace conclave::ui
