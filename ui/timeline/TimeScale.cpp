#include "timeline/TimeScale.h"

namespace conclave::ui {

int64_t TimeScale::roundUp(double us)
{
    for (int64_t decade = 1;; decade *= 10) {
        for (const int m : {1, 2, 5}) {
            if (double(decade * m) >= us)
                return decade * m;
        }
    }
}

TimeScale TimeScale::at(double usPerPixel, int minPixels)
{
    const int64_t step = roundUp(usPerPixel * minPixels);
    TimeScale scale;
    scale.stepUs = step;
    if (step >= 100'000) {
        scale.unitUs = 1'000'000;
        scale.suffix = QStringLiteral("s");
    } else if (step >= 100) {
        scale.unitUs = 1'000;
        scale.suffix = QStringLiteral("ms");
    } else {
        scale.suffix = QStringLiteral("µs");
    }
    // Within a unit a step is at least a tenth of it: one decimal at most.
    scale.decimals = step % scale.unitUs == 0 ? 0 : 1;
    return scale;
}

QString TimeScale::label(int64_t us) const
{
    return QStringLiteral("%1 %2").arg(toUnit(us), 0, 'f', decimals).arg(suffix);
}

QString TimeScale::labelFormat() const
{
    return QStringLiteral("%.%1f %2").arg(decimals).arg(suffix);
}

} // namespace conclave::ui
