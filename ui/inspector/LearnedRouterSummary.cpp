#include "inspector/LearnedRouterSummary.h"

#include <QLabel>

namespace conclave::ui {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// Before a line that says why there is no prediction.
constexpr QChar kWarningSign(0x26A0);

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(qRound(share * 100));
}

// "frontier (local/frontier-70b, strong)"
QString routeName(const RouterHeldoutShare::Result& r, size_t i)
{
    const auto& route = r.routes[i];
    QString model = route.model.empty() ? QObject::tr("no model") : q(route.model);
    if (r.strong == i)
        model += QObject::tr(", strong");
    return QStringLiteral("%1 (%2)").arg(q(route.target.str()), model);
}

} // namespace

LearnedRouterSummary::LearnedRouterSummary(QWidget* parent)
    : QObject(parent), m_file(new QLabel(parent)), m_prediction(new QLabel(parent))
{
    m_file->setObjectName(QStringLiteral("routerFileLine"));
    m_prediction->setObjectName(QStringLiteral("predictionLine"));
    for (auto* label : {m_file, m_prediction}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
}

LearnedRouterSummary::~LearnedRouterSummary()
{
    if (m_worker.joinable())
        m_worker.join();
}

void LearnedRouterSummary::setResources(std::shared_ptr<const EngineResources> resources,
                                        std::filesystem::path resourcesDir)
{
    m_resources = std::move(resources);
    m_resourcesDir = std::move(resourcesDir);
    if (!m_latest)
        return;
    const Request again = *m_latest;
    m_latest.reset();
    setRouter(again.team, again.router, again.folder);
}

void LearnedRouterSummary::setRouter(const Team& team, const NodeId& id, const std::filesystem::path& folder)
{
    Request request{team, id, folder};
    if (m_latest == request)
        return;
    const bool otherRouter = !m_latest || !(m_latest->router == id);
    m_latest = std::move(request);
    if (otherRouter) {
        m_warning = false;
        m_file->setText(tr("File: …"));
        m_prediction->setText(tr("Predicting the held-out tasks' routes…"));
    }
    if (m_busy) {
        m_stale = true;
        return;
    }
    start(*m_latest);
}

void LearnedRouterSummary::start(const Request& request)
{
    if (!m_resources) {
        RouterHeldoutShare::Result none;
        none.error = "the studio found no resources folder (models, task sets)";
        display(none);
        emit updated();
        return;
    }
    m_busy = true;
    m_stale = false;
    m_worker = std::thread([this, request, resources = m_resources, dir = m_resourcesDir] {
        auto result = RouterHeldoutShare::compute(request.team, request.router, *resources, dir, request.folder);
        // Queued to the GUI thread; the destructor joins this thread first, and a deleted
        // receiver's posted calls are dropped, so `this` is alive whenever finish() runs.
        QMetaObject::invokeMethod(
            this, [this, result = std::move(result)] { finish(result); }, Qt::QueuedConnection);
    });
}

void LearnedRouterSummary::finish(const RouterHeldoutShare::Result& result)
{
    if (m_worker.joinable())
        m_worker.join();
    m_busy = false;
    if (m_stale && m_latest) {
        start(*m_latest);
        return;
    }
    display(result);
    emit updated();
}

void LearnedRouterSummary::display(const RouterHeldoutShare::Result& r)
{
    QString file = tr("File: %1").arg(r.file.empty() ? tr("none set") : q(r.file.string()));
    if (!r.method.empty()) {
        QStringList models;
        for (const auto& model : r.models)
            models << q(model);
        file += tr(" (%1 over %2)").arg(q(r.method), models.join(QStringLiteral(", ")));
    }
    m_file->setText(file);
    m_file->setToolTip(q(r.file.string()));

    m_warning = !r.error.empty();
    if (m_warning) {
        m_prediction->setText(kWarningSign + tr(" No prediction: %1").arg(q(r.error)));
        return;
    }
    if (r.policy == RoutePolicy::Kind::StrongWeak && r.strong) {
        m_prediction->setText(
            tr("Predicted: %1 of %2 held-out tasks to %3")
                .arg(percent(r.routes[*r.strong].share), QString::number(r.tasks), routeName(r, *r.strong)));
        return;
    }
    QStringList routes;
    for (size_t i = 0; i < r.routes.size(); ++i)
        routes << routeName(r, i) + QLatin1Char(' ') + percent(r.routes[i].share);
    m_prediction->setText(
        tr("Predicted over %1 held-out tasks: %2").arg(QString::number(r.tasks), routes.join(QStringLiteral(", "))));
}

QString LearnedRouterSummary::fileLine() const
{
    return m_file->text();
}

QString LearnedRouterSummary::predictionLine() const
{
    return m_prediction->text();
}

} // namespace conclave::ui
