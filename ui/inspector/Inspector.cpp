#include "inspector/Inspector.h"

#include "inspector/AggregatorForm.h"
#include "inspector/CoordinatorForm.h"
#include "inspector/EdgeForm.h"
#include "inspector/EndpointForm.h"
#include "inspector/ExpertForm.h"
#include "inspector/LearnedRouterSummary.h"
#include "inspector/RouterForm.h"
#include "timeline/TimeFormat.h"

#include "document/TeamDocument.h"
#include "editor/KindStyle.h"

#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace conclave::ui {

Inspector::Inspector(TeamDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_stack(new QStackedWidget), m_title(new QLabel(this)),
      m_runLine(new QLabel(this)), m_teamPage(new QWidget), m_teamSummary(new QLabel),
      m_edgeForm(new EdgeForm(document))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextFormat(Qt::PlainText);
    layout->addWidget(m_title);
    m_runLine->setObjectName("inspectorRunLine");
    m_runLine->setTextFormat(Qt::PlainText);
    m_runLine->setWordWrap(true);
    m_runLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runLine->setForegroundRole(QPalette::PlaceholderText);
    m_runLine->hide();
    layout->addWidget(m_runLine);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_stack);
    layout->addWidget(scroll);

    auto* teamLayout = new QVBoxLayout(m_teamPage);
    teamLayout->setContentsMargins(0, 0, 0, 0);
    m_teamSummary->setWordWrap(true);
    m_teamSummary->setTextFormat(Qt::PlainText);
    teamLayout->addWidget(m_teamSummary);
    auto* settings = new QPushButton(tr("Team settings…"), m_teamPage);
    teamLayout->addWidget(settings, 0, Qt::AlignLeft);
    teamLayout->addStretch();
    connect(settings, &QPushButton::clicked, this, &Inspector::teamSettingsRequested);
    m_stack->addWidget(m_teamPage);
    m_stack->addWidget(m_edgeForm);

    m_forms[NodeKind::Input] = new EndpointForm(document, NodeKind::Input);
    m_forms[NodeKind::Output] = new EndpointForm(document, NodeKind::Output);
    m_forms[NodeKind::Router] = new RouterForm(document);
    m_forms[NodeKind::Expert] = new ExpertForm(document);
    m_forms[NodeKind::Coordinator] = new CoordinatorForm(document);
    m_forms[NodeKind::Aggregator] = new AggregatorForm(document);
    for (auto& [kind, form] : m_forms)
        m_stack->addWidget(form);

    // A stack is as wide as its widest page: let only the page shown size the
    // inspector, so one long form (the aggregator's) does not make every other
    // page scroll sideways in a narrow dock.
    connect(m_stack, &QStackedWidget::currentChanged, this, [this](int current) {
        for (int i = 0; i < m_stack->count(); ++i) {
            const auto policy = i == current ? QSizePolicy::Preferred : QSizePolicy::Ignored;
            m_stack->widget(i)->setSizePolicy(policy, policy);
        }
        m_stack->updateGeometry();
    });
    const auto refreshLater = [this] { refresh(); };
    connect(document, &TeamDocument::teamReset, this, &Inspector::showTeam);
    connect(document, &TeamDocument::problemsChanged, this, refreshLater);
    connect(document, &TeamDocument::settingsChanged, this, refreshLater);
    connect(document, &TeamDocument::edgesChanged, this, refreshLater);
    connect(document, &TeamDocument::nodeRenamed, this, [this](const NodeId& from, const NodeId& to) {
        if (m_node && *m_node == from)
            m_node = to;
        refresh();
    });
    connect(document, &TeamDocument::nodeRemoved, this, [this](const NodeId& id) {
        if (m_node && *m_node == id)
            showTeam();
    });
    showTeam();
}

void Inspector::showNode(const NodeId& id)
{
    m_node = id;
    m_edge.reset();
    refresh();
}

void Inspector::showEdge(size_t index)
{
    m_node.reset();
    m_edge = index;
    refresh();
}

void Inspector::showTeam()
{
    m_node.reset();
    m_edge.reset();
    refresh();
}

void Inspector::setRunLine(const NodeId& node, const QString& line)
{
    m_runLineNode = node;
    m_runLine->setText(line);
    updateRunLine();
}

QString Inspector::runLine() const
{
    return m_runLine->isHidden() ? QString() : m_runLine->text();
}

void Inspector::updateRunLine()
{
    m_runLine->setHidden(!m_node || m_node != m_runLineNode || m_runLine->text().isEmpty());
}

void Inspector::setEngineResources(std::shared_ptr<const EngineResources> resources, std::filesystem::path resourcesDir)
{
    static_cast<RouterForm*>(m_forms.at(NodeKind::Router))->setResources(std::move(resources), std::move(resourcesDir));
}

bool Inspector::isSettling() const
{
    return static_cast<RouterForm*>(m_forms.at(NodeKind::Router))->learnedSummary()->isCounting();
}

NodeForm* Inspector::currentNodeForm() const
{
    return qobject_cast<NodeForm*>(m_stack->currentWidget());
}

void Inspector::refresh()
{
    updateRunLine();
    if (m_node) {
        const Node* n = m_document->node(*m_node);
        if (!n) {
            m_node.reset();
            refresh();
            return;
        }
        NodeForm* form = m_forms.at(n->kind);
        m_title->setText(KindStyle::title(n->kind) + QStringLiteral(": ") + QString::fromStdString(n->displayName()));
        form->load(*m_node);
        m_stack->setCurrentWidget(form);
        return;
    }
    if (m_edge && *m_edge < m_document->team().edges.size()) {
        m_title->setText(tr("Edge"));
        m_edgeForm->load(*m_edge);
        m_stack->setCurrentWidget(m_edgeForm);
        return;
    }
    m_edge.reset();
    const auto& team = m_document->team();
    m_title->setText(QString::fromStdString(team.name));
    QString summary = team.description ? QString::fromStdString(*team.description) + "\n\n" : QString();
    summary += TimeFormat::count(int64_t(team.nodes.size()), tr("node"), tr("nodes")) + QStringLiteral(", ") +
               TimeFormat::count(int64_t(team.edges.size()), tr("edge"), tr("edges"));
    summary += '\n' + tr("Select a node to edit it, or drag one in from the palette.");
    m_teamSummary->setText(summary);
    m_stack->setCurrentWidget(m_teamPage);
}

} // namespace conclave::ui
