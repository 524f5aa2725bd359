#include "inspector/RouterForm.h"

#include "conclave/model/RouterStrategies.h"
#include "document/TeamDocument.h"
#include "inspector/LearnedRouterSummary.h"
#include "inspector/RouteTableText.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>

#include <algorithm>

namespace conclave::ui {

namespace {

// Spin boxes need a finite top (and size themselves to it); no router count or weight comes near it.
constexpr double kSpinMax = 1000;

template <class T> auto slotOf(const RouterField& field)
{
    const auto member = std::get<std::optional<T> NodeConfig::*>(field.slot);
    return [member](NodeConfig& c) -> std::optional<T>& { return c.*member; };
}

} // namespace

RouterForm::RouterForm(TeamDocument* document, QWidget* parent)
    : NodeForm(document, NodeKind::Router, parent), m_summary(new LearnedRouterSummary(this))
{
    auto* f = addSection(tr("Routing"));
    addEnum<RouterStrategy>(
        f, tr("Strategy"), QStringLiteral("strategy"), [](NodeConfig & c) -> auto& { return c.routerStrategy; });
    for (const RouterField* field : RouterStrategies::fields())
        m_fields.emplace_back(field, addField(f, *field));
    // A router without a strategy yet shows every field.
    addLoader([this, f](const Node& n) {
        const auto& strategy = n.config.routerStrategy;
        const RouterStrategyDescriptor* s = strategy ? &RouterStrategies::of(*strategy) : nullptr;
        for (const auto& [field, widget] : m_fields)
            f->setRowVisible(widget, !s || s->field(field->key));
    });
    f->addRow(m_summary->fileLabel());
    f->addRow(m_summary->predictionLabel());
    addLoader([this, f](const Node& n) {
        const bool learned = n.config.routerStrategy == RouterStrategy::Learned;
        f->setRowVisible(m_summary->fileLabel(), learned);
        f->setRowVisible(m_summary->predictionLabel(), learned);
        if (learned)
            m_summary->setRouter(this->document()->team(), n.id, this->document()->folder());
    });
    QString note;
    for (const auto& s : RouterStrategies::all())
        note += (note.isEmpty() ? "" : " ") + QString::fromUtf8(s.name) + ": " + QString::fromUtf8(s.summary) + ".";
    addNote(note);
    addModelCall(true);
}

void RouterForm::setResources(std::shared_ptr<const EngineResources> resources, std::filesystem::path resourcesDir)
{
    m_summary->setResources(std::move(resources), std::move(resourcesDir));
}

QWidget* RouterForm::addField(QFormLayout* form, const RouterField& field)
{
    const auto label = QString::fromUtf8(field.label);
    const auto key = QString::fromUtf8(field.key);
    const auto& rule = field.rule;
    switch (field.kind) {
    case FieldKind::Integer: {
        const double min = rule.minExclusive ? rule.min + 1 : rule.min;
        return addInt(form, label, key, int(min), int(std::min(rule.max, kSpinMax)), slotOf<int64_t>(field));
    }
    case FieldKind::Number: {
        const double max = std::min(rule.max, kSpinMax);
        return addDouble(form, label, key, rule.min, max, max <= 1 ? 0.05 : 1.0, slotOf<double>(field));
    }
    case FieldKind::RouteMap:
        return addRouteTable(form, field);
    case FieldKind::String:
    case FieldKind::Path:
    case FieldKind::Enum:
    case FieldKind::NodeRef:
    case FieldKind::RouteLabel:
        break;
    }
    auto* edit = addText(form, label, key, slotOf<std::string>(field));
    if (field.kind == FieldKind::Enum)
        edit->setToolTip(QString::fromUtf8(rule.expected));
    return edit;
}

QWidget* RouterForm::addRouteTable(QFormLayout* form, const RouterField& field)
{
    auto* routes = new QPlainTextEdit(this);
    const auto table = slotOf<RouteTable>(field);
    routes->setPlaceholderText(tr("label: keyword, another, /regex/"));
    routes->setFixedHeight(routes->fontMetrics().lineSpacing() * 4 + 12);
    routes->setToolTip(tr("One route per line, \"label: keywords\""));
    form->addRow(QString::fromUtf8(field.label), routes);
    registerField(QString::fromUtf8(field.key), routes);
    connect(routes, &QPlainTextEdit::textChanged, this, [this, routes, table] {
        if (!routes->hasFocus())
            return; // only the user's typing is an edit
        const RouteTable parsed = RouteTableText::parse(routes->toPlainText());
        commit(
            [&](NodeConfig& c) {
                if (parsed.empty())
                    table(c).reset();
                else
                    table(c) = parsed;
            },
            kRoutesKey);
    });
    addLoader([routes, table](const Node& n) {
        if (routes->hasFocus())
            return;
        NodeConfig copy = n.config;
        const auto& value = table(copy);
        const QString text = value ? RouteTableText::format(*value) : QString();
        if (routes->toPlainText() != text)
            routes->setPlainText(text);
    });
    return routes;
}

} // namespace conclave::ui
