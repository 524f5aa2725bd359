#include "experiment/FidelityDialog.h"

#include "experiment/FidelityController.h"
#include "experiment/FidelityView.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>
#include <utility>

namespace conclave::ui {

FidelityDialog::FidelityDialog(RunController* runs, QStringList experiments, QWidget* parent)
    : QDialog(parent), m_experiments(std::move(experiments)), m_controller(new FidelityController(runs, this)),
      m_holdout(new QDoubleSpinBox(this)), m_folds(new QSpinBox(this)), m_seed(new QSpinBox(this)), m_check(new QPushButton(tr("Check"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_busy(new QProgressBar(this)), m_status(new QLabel(this)),
      m_view(new FidelityView(this))
{
    setObjectName("fidelityDialog");
    setWindowTitle(tr("Simulator fidelity · %1").arg(m_experiments.join(QStringLiteral(", "))));
    m_holdout->setObjectName("fidelityHoldout");
    m_holdout->setRange(0.05, 0.95);
    m_holdout->setSingleStep(0.05);
    m_holdout->setDecimals(2);
    m_holdout->setValue(0.5);
    m_holdout->setToolTip(tr("The share of the tasks held out: predicted and compared, never calibrated on"));
    m_folds->setObjectName("fidelityFolds");
    m_folds->setRange(1, 10);
    m_folds->setSpecialValueText(tr("off"));
    m_folds->setToolTip(tr("Cross-fitting: split the tasks into this many parts and predict each part from a "
                           "calibration on the others, so every task is predicted once and no one split's luck "
                           "decides (off: one split, the share above held out)"));
    m_seed->setObjectName("fidelitySeed");
    m_seed->setRange(0, INT_MAX);
    m_seed->setToolTip(tr("The seed of the split between calibration and held-out tasks"));
    m_check->setObjectName("fidelityCheck");
    m_check->setDefault(true);
    m_cancel->setObjectName("fidelityCancel");
    m_busy->setRange(0, 0); // the check's stages have no known count of steps
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);
    m_status->setObjectName("fidelityStatus");
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_view->setObjectName("fidelityView");

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Held out:"), this));
    bar->addWidget(m_holdout);
    bar->addWidget(new QLabel(tr("Cross-fit folds:"), this));
    bar->addWidget(m_folds);
    bar->addWidget(new QLabel(tr("Split seed:"), this));
    bar->addWidget(m_seed);
    bar->addWidget(m_check);
    bar->addWidget(m_cancel);
    bar->addWidget(m_busy);
    bar->addWidget(m_status, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    m_status->setText(tr("Calibrates the simulator on part of the tasks of %1 and predicts every design on the rest; "
                         "it takes tens of seconds.")
                          .arg(m_experiments.join(QStringLiteral(", "))));
    m_view->setVisible(false);

    connect(m_check, &QPushButton::clicked, this, &FidelityDialog::start);
    connect(m_folds, &QSpinBox::valueChanged, this, &FidelityDialog::updateControls);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_controller->cancel();
        m_status->setText(tr("Cancelling: the check stops once its stage under way (%1) ends…")
                              .arg(m_controller->stage()));
        updateControls();
    });
    connect(m_controller, &FidelityController::progressed, this,
            [this](const QString& stage) { m_status->setText(tr("Fidelity check: %1…").arg(stage)); });
    connect(m_controller, &FidelityController::finished, this, &FidelityDialog::onFinished);
    updateControls();
    resize(1200, 860);
}

void FidelityDialog::setHoldout(double share)
{
    m_holdout->setValue(share);
}

void FidelityDialog::setFolds(int folds)
{
    m_folds->setValue(folds);
}

void FidelityDialog::setSeed(uint64_t seed)
{
    m_seed->setValue(int(std::min<uint64_t>(seed, INT_MAX)));
}

bool FidelityDialog::start()
{
    QString error;
    if (!m_controller->run(m_experiments, m_holdout->value(), uint64_t(m_seed->value()), &error, m_folds->value())) {
        m_status->setText(tr("Cannot check: %1").arg(error));
        return false;
    }
    m_clock.start();
    m_status->setText(tr("Fidelity check: starting…"));
    updateControls();
    return true;
}

void FidelityDialog::onFinished(bool ok)
{
    updateControls();
    m_check->setFocus();
    if (m_closing) {
        deleteLater();
        return;
    }
    if (ok) {
        m_view->setReport(*m_controller->report());
        m_view->setVisible(true);
        m_status->setText(tr("Checked in %1 s.").arg(double(m_clock.elapsed()) / 1000.0, 0, 'f', 1));
    } else {
        m_status->setText(m_controller->error() == QLatin1String("cancelled")
                              ? tr("Cancelled.")
                              : tr("The check failed: %1").arg(m_controller->error()));
    }
    emit checked(ok);
}

void FidelityDialog::updateControls()
{
    const bool running = m_controller->isRunning();
    m_check->setEnabled(!running);
    m_holdout->setEnabled(!running && m_folds->value() < 2); // cross-fitting holds out each part in turn
    m_folds->setEnabled(!running);
    m_seed->setEnabled(!running);
    m_cancel->setEnabled(running && !m_controller->isCancelling());
    m_cancel->setVisible(running);
    m_busy->setVisible(running);
}

void FidelityDialog::done(int result)
{
    QDialog::done(result);
    if (m_closing)
        return;
    if (!m_deleteWhenClosed) {
        m_controller->cancel();
        return;
    }
    if (m_controller->isRunning()) {
        m_controller->cancel();
        m_closing = true; // onFinished lets it go
    } else {
        deleteLater();
    }
}

} // namespace conclave::ui
