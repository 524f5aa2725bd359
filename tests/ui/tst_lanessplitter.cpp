// LanesSplitter: the lanes pane gets the height its content asks for, from
// 30% up to its maximum share of the splitter, at every size, until the user
// drags the handle; refit() starts fitting again.
#include <QtTest>

#include "timeline/LanesSplitter.h"

using conclave::ui::LanesSplitter;

namespace {

class Content : public QWidget {
public:
    explicit Content(int height) : m_height(height) {}
    QSize sizeHint() const override { return {400, m_height}; }

private:
    int m_height;
};

} // namespace

class TestLanesSplitter : public QObject {
    Q_OBJECT

private slots:
    void theLanesGetWhatTheyAskWithinTheirShare()
    {
        LanesSplitter splitter(0.6);
        splitter.addWidget(new Content(200));
        splitter.addWidget(new QWidget);
        splitter.resize(400, 600);
        splitter.show();
        QVERIFY(QTest::qWaitForWindowExposed(&splitter));
        const int handle = splitter.handleWidth();
        QCOMPARE(splitter.sizes(), QList<int>({200, 600 - handle - 200}));
        splitter.resize(400, 300); // 60% of what is left for the panes is less than 200
        QCOMPARE(splitter.sizes(), QList<int>({(300 - handle) * 6 / 10, 300 - handle - (300 - handle) * 6 / 10}));
        splitter.resize(400, 1000); // 30% is more than 200
        QCOMPARE(splitter.sizes(), QList<int>({(1000 - handle) * 3 / 10, 1000 - handle - (1000 - handle) * 3 / 10}));

        // The user's drag is kept through resizes; refit() fits again.
        splitter.resize(400, 600);
        emit splitter.splitterMoved(400, 1);
        splitter.setSizes({400, 600 - handle - 400});
        splitter.resize(400, 610);
        QVERIFY(splitter.sizes().at(0) >= 400);
        splitter.refit();
        QCOMPARE(splitter.sizes(), QList<int>({200, 610 - handle - 200}));
    }
};

QTEST_MAIN(TestLanesSplitter)
#include "tst_lanessplitter.moc"
