#include "inspector/RouterForm.h"

#include "inspector/RouteTableText.h"

#include <QFormLayout>
#include <QPlainTextEdit>

namespace conclave::ui {

RouterForm::RouterForm(TeamDocument* document, QWidget* parent)
    : NodeForm(document, NodeKind::Router, parent), m_routes(new QPlainTextEdit(this))
{
    auto* f = addSection(tr("Routing"));
    addEnum<RouterStrategy>(
        f, tr("Strategy"), QStringLiteral("strategy"), [](NodeConfig & c) -> auto& { return c.routerStrategy; });
    addInt(
        f, tr("Top k"), QStringLiteral("top_k"), 1, 1000, [](NodeConfig & c) -> auto& { return c.topK; });
    addDouble(
        f, tr("Min weight"), QStringLiteral("min_weight"), 0, 1, 0.05,
        [](NodeConfig & c) -> auto& { return c.minWeight; });
    addText(
        f, tr("Default route"), QStringLiteral("default"), [](NodeConfig & c) -> auto& { return c.defaultRoute; });
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
            kRoutesKey);
    });
    addLoader([this](const Node& n) {
        if (m_routes->hasFocus())
            return;
        const QString text = n.config.routes ? RouteTableText::format(*n.config.routes) : QString();
        if (m_routes->toPlainText() != text)
            m_routes->setPlainText(text);
    });
    addNote(tr("all: every edge fires. keyword: edges whose label's keywords match. moe_gate: the top k "
               "experts by gate weight. llm: the model names one edge label."));
    addModelCall(true);
}

} // namespace conclave::ui
