#include "inspector/EdgeForm.h"

#include "document/TeamDocument.h"

#include "conclave/validate/ConnectionRules.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace conclave::ui {

EdgeForm::EdgeForm(TeamDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_summary(new QLabel(this)), m_when(new QLineEdit(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    form->addRow(m_summary);
    m_when->setToolTip(tr("The route label (when): the router fires this edge when it picks this label"));
    form->addRow(tr("Route label"), m_when);
    layout->addLayout(form);
    layout->addStretch();
    connect(m_when, &QLineEdit::editingFinished, this, [this] {
        if (!m_index)
            return;
        const QString text = m_when->text().trimmed();
        m_document->requestSetRouteLabel(*m_index, text.isEmpty() ? std::nullopt
                                                                  : std::optional<std::string>(text.toStdString()));
    });
}

void EdgeForm::load(size_t index)
{
    const auto& edges = m_document->team().edges;
    if (index >= edges.size())
        return;
    m_index = index;
    const auto& e = edges[index];
    const Node* from = m_document->node(e.from);
    const bool routed = !e.isMember() && from && from->kind == NodeKind::Router;
    m_summary->setText((e.isMember() ? tr("Member edge: %1 calls %2 in its meetings")
                        : routed     ? tr("Route from router %1 to %2")
                                     : tr("Edge from %1 to %2"))
                           .arg(QString::fromStdString(e.from.str()), QString::fromStdString(e.to.str())));
    m_when->setEnabled(routed);
    // Optional on a broadcast router's edge: it only names the route.
    m_when->setPlaceholderText(routed && !ConnectionRules::needsRouteLabel(*from)
                                   ? tr("none needed: %1 fires every edge").arg(QString::fromStdString(e.from.str()))
                                   : QString());
    const QString when = e.when ? QString::fromStdString(*e.when) : QString();
    if (m_when->text() != when)
        m_when->setText(when);
}

} // namespace conclave::ui
