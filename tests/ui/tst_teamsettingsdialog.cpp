// TeamSettingsDialog's backend table with a recorded backend: its experiment
// ids and the designs it leaves out shown comma-separated, edited and read
// back as lists (a name with a comma kept whole while its cell is not
// edited); a recorded backend without ids refused with the exact reason;
// fields the table does not show (on_missing) kept as they were.
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

#undef emit

#include "panels/TeamSettingsDialog.h"

using namespace conclave;
using namespace conclave::ui;

namespace {

constexpr int kKindColumn = 1;
constexpr int kExperimentsColumn = 8;
constexpr int kExcludeDesignsColumn = 9;

TeamSettings recordedTeam()
{
    TeamSettings s;
    s.name = "Vote over the lab";
    Backend lab;
    lab.kind = BackendKind::Recorded;
    lab.experiments = std::vector<std::string>{"e-5f3c2a1b9d04", "e-0123456789ab"};
    lab.excludeDesigns = std::vector<std::string>{"vote", "triage (triage, v2.team.json)"};
    lab.onMissing = "simulate";
    lab.maxConcurrency = 4;
    s.backends[BackendName("lab")] = lab;
    return s;
}

} // namespace

class TestTeamSettingsDialog : public QObject {
    Q_OBJECT

private slots:
    void aRecordedBackendShowsItsExperiments()
    {
        TeamSettingsDialog dialog(recordedTeam());
        auto* table = dialog.backendTable();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->horizontalHeaderItem(kExperimentsColumn)->text(), QString("Experiments (recorded)"));
        QCOMPARE(qobject_cast<QComboBox*>(table->cellWidget(0, kKindColumn))->currentText(), QString("recorded"));
        QCOMPARE(table->item(0, kExperimentsColumn)->text(), QString("e-5f3c2a1b9d04, e-0123456789ab"));
        QCOMPARE(table->horizontalHeaderItem(kExcludeDesignsColumn)->text(), QString("Designs left out (recorded)"));
        QCOMPARE(table->item(0, kExcludeDesignsColumn)->text(), QString("vote, triage (triage, v2.team.json)"));
        QCOMPARE(dialog.problem(), QString());
    }

    void editedIdsReadBackAsAListAndTheRestIsKept()
    {
        TeamSettingsDialog dialog(recordedTeam());
        dialog.backendTable()->item(0, kExperimentsColumn)->setText(" e-aaaaaaaaaaaa ,, e-bbbbbbbbbbbb,");
        const auto lab = dialog.settings().backends.at(BackendName("lab"));
        QVERIFY(lab.kind == BackendKind::Recorded);
        QVERIFY(lab.experiments);
        QVERIFY(*lab.experiments == (std::vector<std::string>{"e-aaaaaaaaaaaa", "e-bbbbbbbbbbbb"}));
        QVERIFY(lab.onMissing == std::optional<std::string>("simulate"));
        QVERIFY(lab.maxConcurrency == std::optional<int64_t>(4));
        // Not edited: the names as they were, the comma in one of them too.
        QVERIFY(lab.excludeDesigns == (std::vector<std::string>{"vote", "triage (triage, v2.team.json)"}));
    }

    void editedDesignsReadBackAsAList()
    {
        TeamSettingsDialog dialog(recordedTeam());
        auto* cell = dialog.backendTable()->item(0, kExcludeDesignsColumn);
        cell->setText(" cascade ,, vote,");
        QVERIFY(dialog.settings().backends.at(BackendName("lab")).excludeDesigns ==
                (std::vector<std::string>{"cascade", "vote"}));
        cell->setText(" ");
        QVERIFY(!dialog.settings().backends.at(BackendName("lab")).excludeDesigns);
        QCOMPARE(dialog.problem(), QString());
    }

    void aRecordedBackendWithoutIdsIsRefused()
    {
        TeamSettingsDialog dialog(recordedTeam());
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(ok->isEnabled());
        dialog.backendTable()->item(0, kExperimentsColumn)->setText("  ");
        QCOMPARE(dialog.problem(),
                 QString("Backend \"lab\": a recorded backend needs the ids of the experiments it replays."));
        QVERIFY(!ok->isEnabled());
        QVERIFY(!dialog.settings().backends.at(BackendName("lab")).experiments);
        // Another kind needs none.
        qobject_cast<QComboBox*>(dialog.backendTable()->cellWidget(0, kKindColumn))->setCurrentText("local-moe");
        QCOMPARE(dialog.problem(), QString());
        QVERIFY(ok->isEnabled());
    }
};

QTEST_MAIN(TestTeamSettingsDialog)
#include "tst_teamsettingsdialog.moc"
