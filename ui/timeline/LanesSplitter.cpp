#include "timeline/LanesSplitter.h"

#include <algorithm>

namespace conclave::ui {

LanesSplitter::LanesSplitter(double maxShare, QWidget* parent) : QSplitter(Qt::Vertical, parent), m_maxShare(maxShare)
{
    // Only a drag of the handle emits this: from then on the sizes are the user's.
    connect(this, &QSplitter::splitterMoved, this, [this] { m_fitting = false; });
}

void LanesSplitter::refit()
{
    m_fitting = true;
    if (isVisible() && height() > 0)
        fit();
}

void LanesSplitter::showEvent(QShowEvent* event)
{
    QSplitter::showEvent(event);
    if (m_fitting && height() > 0)
        fit();
}

void LanesSplitter::resizeEvent(QResizeEvent* event)
{
    QSplitter::resizeEvent(event);
    if (m_fitting && isVisible())
        fit();
}

void LanesSplitter::fit()
{
    if (count() < 2)
        return;
    const int total = height() - handleWidth();
    const int first = lanesHeightFor(total);
    setSizes({first, total - first});
}

int LanesSplitter::lanesHeightFor(int total) const
{
    const int wanted = count() > 0 ? widget(0)->sizeHint().height() : 0;
    return std::clamp(wanted, total * 3 / 10, std::max(total * 3 / 10, int(total * m_maxShare)));
}

} // namespace conclave::ui
