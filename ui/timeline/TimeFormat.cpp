#include "timeline/TimeFormat.h"

#include "conclave/util/MoneyText.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace conclave::ui {

QString TimeFormat::duration(int64_t us)
{
    const double v = double(us);
    const int64_t a = std::llabs(us);
    if (a < 1000)
        return QStringLiteral("%1 µs").arg(us);
    if (a < 100'000)
        return QStringLiteral("%1 ms").arg(v / 1e3, 0, 'f', a < 10'000 ? 2 : 1);
    if (a < 1'000'000)
        return QStringLiteral("%1 ms").arg(v / 1e3, 0, 'f', 0);
    if (a < 60'000'000)
        return QStringLiteral("%1 s").arg(v / 1e6, 0, 'f', a < 10'000'000 ? 2 : 1);
    const int64_t seconds = us / 1'000'000;
    return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60, 2, 10, QChar('0'));
}

QString TimeFormat::delta(int64_t us)
{
    if (us == 0)
        return QStringLiteral("0");
    return (us > 0 ? QStringLiteral("+") : QString()) + duration(us);
}

QString TimeFormat::cost(double usd)
{
    return QString::fromStdString(moneyText(usd));
}

QString TimeFormat::count(int64_t n, const QString& one, const QString& many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace conclave::ui
