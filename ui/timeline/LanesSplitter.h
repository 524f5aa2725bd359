#pragma once

#include <QSplitter>

namespace conclave::ui {

// A vertical splitter whose first pane (lanes under a time axis) gets the
// height its content asks for, from 30% up to `maxShare` of the splitter, and
// the second pane the rest, at every size until the user drags the handle
// (refit() starts again). A run with few agents leaves its charts or table
// the room, one with many gets the larger share.
class LanesSplitter : public QSplitter {
    Q_OBJECT

public:
    explicit LanesSplitter(double maxShare, QWidget* parent = nullptr);

    // Fits the first pane to its content again, and at every size from now on.
    void refit();
    // The first pane's fitted height when the panes share `total` pixels.
    int lanesHeightFor(int total) const;

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void fit();

    double m_maxShare;
    bool m_fitting = true;
};

} // namespace conclave::ui
