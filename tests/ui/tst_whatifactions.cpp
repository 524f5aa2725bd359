// Run > What-if… (WhatIfActions) in the studio's run side: disabled until a
// tab shows a run that has ended, then a What-if tab on that run, its panel
// applying into the open document; and a What-if tab asked for one trial.
#include <QtTest>

#include "StudioRunRig.h"

#include "studio/WhatIfActions.h"
#include "whatif/WhatIfApply.h"
#include "whatif/WhatIfController.h"
#include "whatif/WhatIfControls.h"
#include "whatif/WhatIfPanel.h"

#include <QAction>
#include <QPushButton>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>

using namespace conclave;
using conclave::ui::WhatIfActions;
using conclave::ui::WhatIfPanel;

class TestWhatIfActions : public QObject {
    Q_OBJECT

    StudioRunRig* m_rig = nullptr;
    WhatIfActions* m_actions = nullptr;
    RunId m_run;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_rig = new StudioRunRig;
        m_actions = new WhatIfActions(&m_rig->runs, &m_rig->document, m_rig->tabs, &m_rig->feedback, &m_rig->window);
        const auto run = m_rig->run(StudioRunRig::kMathInput, 7);
        QVERIFY(run);
        m_run = *run;
    }

    void cleanupTestCase() { delete m_rig; }

    void opensAWhatIfTabOnTheCurrentRun()
    {
        QVERIFY(!m_actions->action()->isEnabled());
        QCOMPARE(m_actions->action()->toolTip(), QString("What-if: open a run that has ended in a tab first"));
        QVERIFY(m_rig->tabs->openRunTab(m_run));
        QVERIFY(m_actions->action()->isEnabled());
        m_actions->action()->trigger();
        QCOMPARE(m_rig->tabTitles(),
                 QStringList({"Run " + StudioRunRig::shortId(m_run), "What-if " + StudioRunRig::shortId(m_run)}));
        WhatIfPanel* panel = m_actions->currentPanel();
        QVERIFY(panel);
        // A What-if tab shows no single run of its own: no what-if of a what-if.
        QVERIFY(!m_actions->action()->isEnabled());
        QSignalSpy shown(panel, &WhatIfPanel::projectionShown);
        QVERIFY(shown.wait(30000));
        QVERIFY(panel->headerText().contains(QString::fromStdString(m_run.str()).left(12)));
        QVERIFY(panel->wallText().startsWith("Projected wall: "));
        // The run's team is the open document: a speed-up still cannot be applied.
        QSlider* slider = panel->controls()->speedSlider(NodeId("math"));
        QVERIFY(slider);
        slider->setValue(50);
        QVERIFY(shown.wait(30000));
        QCOMPARE(panel->applyButton()->toolTip(), QString(ui::WhatIfApply::kSpeedUpOnly));
    }

    void aTrialsWhatIfSaysWhichTrial()
    {
        QVERIFY(m_actions->openWhatIfTab(m_run, "trial math-001 · seed 7 of design vote"));
        QCOMPARE(m_rig->tabs->tabs()->tabToolTip(m_rig->tabs->tabs()->currentIndex()),
                 QString("What-if of run %1 (trial math-001 · seed 7 of design vote)")
                     .arg(QString::fromStdString(m_run.str())));
        WhatIfPanel* panel = m_actions->currentPanel();
        QVERIFY(panel);
        QSignalSpy loaded(panel, &WhatIfPanel::loaded);
        QVERIFY(loaded.wait(30000));
        QVERIFY(panel->headerText().contains(" · trial math-001 · seed 7 of design vote: projected on the simulated"));
    }
};

QTEST_MAIN(TestWhatIfActions)
#include "tst_whatifactions.moc"
