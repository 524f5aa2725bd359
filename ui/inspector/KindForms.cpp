#include "inspector/KindForms.h"

#include "inspector/RouteTableText.h"

#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>

namespace conclave::ui {

namespace {

QLabel* note(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

} // namespace

EndpointForm::EndpointForm(TeamDocument* document, NodeKind kind, QWidget* parent) : NodeForm(document, kind, parent)
{
    form()->addRow(note(kind == NodeKind::Input
                            ? tr("The run's input text. Prompts refer to it as {{input}}. A team has exactly one.")
                            : tr("The run's final answer: the result of its one incoming edge."),
                        this));
}

RouterForm::RouterForm(TeamDocument* document, QWidget* parent)
    : NodeForm(document, NodeKind::Router, parent), m_routes(new QPlainTextEdit(this))
{
    auto* f = addSection(tr("Routing"));
    addEnum<RouterStrategy>(f, tr("Strategy"), QStringLiteral("strategy"),
                            [](NodeConfig& c) -> auto& { return c.routerStrategy; });
    addInt(f, tr("Top k"), QStringLiteral("top_k"), 1, 1000, [](NodeConfig& c) -> auto& { return c.topK; });
    addDouble(f, tr("Min weight"), QStringLiteral("min_weight"), 0, 1, 0.05,
              [](NodeConfig& c) -> auto& { return c.minWeight; });
    addText(f, tr("Default route"), QStringLiteral("default"), [](NodeConfig& c) -> auto& { return c.defaultRoute; });
    m_routes->setPlaceholderText(tr("label: keyword, another, /regex/"));
    m_routes->setFixedHeight(m_routes->fontMetrics().lineSpacing() * 4 + 12);
    m_routes->setToolTip(tr("Keyword strategy: one route per line, \"label: keywords\""));
    f->addRow(tr("Routes"), m_routes);
    registerField(QStringLiteral("routes"), m_routes);
    connect(m_routes, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_routes->hasFocus())
            return; // only the user's typing is an edit
        const RouteTable table = RouteTableText::parse(m_routes->toPlainText());
        commit(
            [&](NodeConfig& c) {
                if (table.empty())
                    c.routes.reset();
                else
                    c.routes = table;
            },
            902);
    });
    addLoader([this](const Node& n) {
        if (m_routes->hasFocus())
            return;
        const QString text = n.config.routes ? RouteTableText::format(*n.config.routes) : QString();
        if (m_routes->toPlainText() != text)
            m_routes->setPlainText(text);
    });
    f->addRow(note(tr("all: every edge fires. keyword: edges whose label's keywords match. moe_gate: the top k "
                      "experts by gate weight. llm: the model names one edge label."),
                   this));
    addModelCall(true);
}

ExpertForm::ExpertForm(TeamDocument* document, QWidget* parent) : NodeForm(document, NodeKind::Expert, parent)
{
    addModelCall(true);
    auto* f = addSection(tr("Voting"));
    addDouble(f, tr("Weight"), QStringLiteral("weight"), 0, 1000, 0.1, [](NodeConfig& c) -> auto& { return c.weight; });
}

CoordinatorForm::CoordinatorForm(TeamDocument* document, QWidget* parent)
    : NodeForm(document, NodeKind::Coordinator, parent)
{
    auto* f = addSection(tr("Meeting"));
    addEnum<CoordinatorMode>(f, tr("Mode"), QStringLiteral("mode"), [](NodeConfig& c) -> auto& { return c.mode; });
    addInt(f, tr("Max rounds"), QStringLiteral("max_rounds"), 1, 100,
           [](NodeConfig& c) -> auto& { return c.maxRounds; });
    addDouble(f, tr("Consensus"), QStringLiteral("consensus"), 0, 1, 0.05,
              [](NodeConfig& c) -> auto& { return c.consensus; });
    addDouble(f, tr("Threshold"), QStringLiteral("threshold"), 0, 1, 0.05,
              [](NodeConfig& c) -> auto& { return c.threshold; });
    f->addRow(note(tr("Members are the experts its dashed member edges lead to (drag from the diamond port)."),
                   this));
    addModelCall(true);
}

AggregatorForm::AggregatorForm(TeamDocument* document, QWidget* parent)
    : NodeForm(document, NodeKind::Aggregator, parent)
{
    auto* f = addSection(tr("Aggregation"));
    addEnum<AggregatorStrategy>(f, tr("Strategy"), QStringLiteral("strategy"),
                                [](NodeConfig& c) -> auto& { return c.aggregatorStrategy; });
    addInt(f, tr("Quorum"), QStringLiteral("quorum"), 1, 10000, [](NodeConfig& c) -> auto& { return c.quorum; });
    addDouble(f, tr("Min confidence"), QStringLiteral("min_confidence"), 0, 1, 0.05,
              [](NodeConfig& c) -> auto& { return c.minConfidence; });
    addInt(f, tr("Deadline"), QStringLiteral("deadline_ms"), 1, 3600000,
           [](NodeConfig& c) -> auto& { return c.deadlineMs; }, tr("ms"));
    addModelCall(true);
}

} // namespace conclave::ui
