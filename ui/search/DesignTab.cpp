#include "search/DesignTab.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/TeamScene.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace conclave::ui {

DesignTab::DesignTab(std::set<std::string> localModels, QWidget* parent)
    : QWidget(parent), m_document(new TeamDocument(this)), m_scene(new TeamScene(m_document, this)),
      m_view(new CanvasView(m_scene, this)), m_summary(new QLabel(this)),
      m_open(new QPushButton(tr("Open in Editor"), this)),
      m_compare(new QPushButton(tr("Compare with Open Team"), this))
{
    setObjectName("designTab");
    m_document->setLocalModels(std::move(localModels));
    m_view->setInteractive(false); // a result to look at; Open in Editor to change it
    m_summary->setObjectName("designTabSummary");
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_open->setObjectName("designTabOpen");
    m_compare->setObjectName("designTabCompare");
    m_open->setToolTip(tr("Make this design the open team (as File > Open does)"));
    m_compare->setToolTip(tr("An experiment of the open team and this design on the search's test tasks"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 6, 8, 2);
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_open);
    bar->addWidget(m_compare);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(m_open, &QPushButton::clicked, this, [this] { emit openInEditor(m_file); });
    connect(m_compare, &QPushButton::clicked, this, [this] { emit compareRequested(m_file); });
}

QString DesignTab::load(const QString& file, const QString& summary)
{
    const QString error = m_document->load(file);
    if (!error.isEmpty())
        return error;
    m_file = file;
    m_summary->setText(summary);
    m_summary->setToolTip(file);
    m_fitted = false;
    if (isVisible())
        m_view->fitToTeam();
    return {};
}

// Framed once it has its size: a tab is laid out when first shown.
void DesignTab::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_fitted) {
        m_fitted = true;
        QTimer::singleShot(0, this, [this] { m_view->fitToTeam(); });
    }
}

} // namespace conclave::ui
