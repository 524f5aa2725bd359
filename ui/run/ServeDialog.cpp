#include "run/ServeDialog.h"

#include "run/ServeController.h"
#include "run/ServeSnippets.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"

#include "conclave/serve/ApiKeys.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <functional>

namespace conclave::ui {

namespace {

enum Column { TimeColumn, StatusColumn, RunColumn, RunStatusColumn, MsColumn, KeyColumn };
constexpr int kIdRole = Qt::UserRole;

// Red in every theme; otherwise the theme's own text colour.
void paintRed(QLabel* label, bool red)
{
    QPalette palette;
    if (red)
        palette.setColor(QPalette::WindowText, StatusPalette::color(Status::Failed));
    label->setPalette(red ? palette : QPalette());
}

// `text` with a Copy button under it, copying what `copied` gives.
QWidget* withCopyButton(QWidget* text, const QString& name, const std::function<QString()>& copied, QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(text, 1);
    auto* copy = new QPushButton(QObject::tr("Copy"), box);
    copy->setObjectName(name);
    QObject::connect(copy, &QPushButton::clicked, box, [copied] { QGuiApplication::clipboard()->setText(copied()); });
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(copy);
    layout->addLayout(row);
    return box;
}

} // namespace

ServeDialog::ServeDialog(ServeController* controller, QWidget* parent)
    : QDialog(parent), m_controller(controller), m_sampleInput(tr("Hello")), m_team(new QLabel(this)),
      m_port(new QSpinBox(this)), m_keysFile(new QLineEdit(this)), m_keysNote(new QLabel(this)),
      m_startStop(new QPushButton(tr("Start"), this)), m_state(new QLabel(this)), m_error(new QLabel(this)),
      m_url(new QLineEdit(this)), m_snippets(new QTabWidget(this)), m_curl(new QPlainTextEdit(this)),
      m_python(new QPlainTextEdit(this)), m_requests(new QTreeWidget(this)), m_requestsNote(new QLabel(this)),
      m_requestCount(new QLabel(this))
{
    setObjectName("serveDialog");
    setWindowTitle(tr("Serve This Team"));
    setModal(false);
    m_team->setObjectName("serveTeam");
    m_team->setWordWrap(true);
    m_team->setTextFormat(Qt::PlainText);
    m_startStop->setObjectName("serveStart");
    m_startStop->setDefault(true);
    m_state->setObjectName("serveState");
    m_state->setTextFormat(Qt::PlainText);
    m_state->setWordWrap(true);
    m_error->setObjectName("serveError");
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    paintRed(m_error, true);
    m_error->hide();
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_startStop);
    bar->addWidget(m_state, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_team);
    layout->addWidget(buildForm());
    layout->addLayout(bar);
    layout->addWidget(m_error);
    layout->addWidget(buildEndpoint());
    layout->addWidget(buildRequests(), 1);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_startStop, &QPushButton::clicked, this, [this] {
        if (m_controller->state() == ServeController::State::Stopped)
            start();
        else
            stop();
    });
    connect(m_controller, &ServeController::started, this, &ServeDialog::onStarted);
    connect(m_controller, &ServeController::stopped, this, &ServeDialog::onStopped);
    connect(m_controller, &ServeController::requestServed, this, &ServeDialog::onRequest);
    connect(m_controller, &ServeController::errorOccurred, this, &ServeDialog::showError);
    setKeysFile({});
    updateControls();
    resize(800, 680);
}

QWidget* ServeDialog::buildForm()
{
    auto* form = new QWidget(this);
    auto* layout = new QFormLayout(form);
    layout->setContentsMargins(0, 0, 0, 0);
    m_port->setObjectName("servePort");
    m_port->setRange(0, 65535);
    m_port->setValue(8080);
    m_port->setSpecialValueText(tr("0: any free port"));
    m_port->setToolTip(tr("The port on 127.0.0.1 the endpoint listens on; 0 picks any free one"));
    m_keysFile->setObjectName("serveKeysFile");
    m_keysFile->setPlaceholderText(tr("none: no key asked for (this machine only)"));
    m_keysFile->setToolTip(tr("One key a line, # comments: KEY [name=N] [teams=a,b] [rpm=N] [concurrency=N] "
                              "[budget_usd_per_day=X]; readable by its owner only (chmod 600)"));
    connect(m_keysFile, &QLineEdit::editingFinished, this, [this] { setKeysFile(m_keysFile->text()); });
    m_chooseKeys = new QPushButton(tr("Choose…"), form);
    m_chooseKeys->setObjectName("serveChooseKeys");
    connect(m_chooseKeys, &QPushButton::clicked, this, &ServeDialog::chooseKeysFile);
    m_clearKeys = new QPushButton(tr("Clear"), form);
    m_clearKeys->setObjectName("serveClearKeys");
    connect(m_clearKeys, &QPushButton::clicked, this, [this] { setKeysFile({}); });
    auto* file = new QHBoxLayout;
    file->addWidget(m_keysFile, 1);
    file->addWidget(m_chooseKeys);
    file->addWidget(m_clearKeys);
    m_keysNote->setObjectName("serveKeysNote");
    m_keysNote->setTextFormat(Qt::PlainText);
    m_keysNote->setWordWrap(true);
    m_keysNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The note under its file, in one row: a form's own row for a wrapped label leaves gaps.
    auto* keys = new QVBoxLayout;
    keys->setSpacing(2);
    keys->addLayout(file);
    keys->addWidget(m_keysNote);
    auto* port = new QHBoxLayout;
    m_port->setMinimumWidth(m_port->fontMetrics().horizontalAdvance(m_port->specialValueText()) + 48);
    port->addWidget(m_port);
    port->addStretch(1);
    layout->addRow(tr("Port:"), port);
    layout->addRow(tr("Keys file:"), keys);
    return form;
}

QGroupBox* ServeDialog::buildEndpoint()
{
    m_endpoint = new QGroupBox(tr("Endpoint"), this);
    m_endpoint->setObjectName("serveEndpoint");
    m_url->setObjectName("serveUrl");
    m_url->setReadOnly(true);
    auto* copyUrl = new QPushButton(tr("Copy"), m_endpoint);
    copyUrl->setObjectName("serveCopyUrl");
    connect(copyUrl, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_url->text()); });
    auto* urlRow = new QHBoxLayout;
    urlRow->addWidget(new QLabel(tr("Base URL:"), m_endpoint));
    urlRow->addWidget(m_url, 1);
    urlRow->addWidget(copyUrl);

    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (auto* snippet : {m_curl, m_python}) {
        snippet->setReadOnly(true);
        snippet->setFont(fixed);
        snippet->setLineWrapMode(QPlainTextEdit::NoWrap);
        // The longer snippet (Python's with a key, 10 lines) whole, with room for a scroll bar.
        snippet->setFixedHeight(QFontMetrics(fixed).lineSpacing() * 11 + 2 * snippet->frameWidth() + 8);
    }
    m_curl->setObjectName("serveCurl");
    m_python->setObjectName("servePython");
    m_snippets->setObjectName("serveSnippets");
    m_snippets->setDocumentMode(true);
    m_snippets->addTab(withCopyButton(
                           m_curl, "serveCopyCurl", [this] { return m_curl->toPlainText(); }, this),
                       tr("curl"));
    m_snippets->addTab(withCopyButton(
                           m_python, "serveCopyPython", [this] { return m_python->toPlainText(); }, this),
                       tr("Python (openai)"));
    auto* layout = new QVBoxLayout(m_endpoint);
    layout->addLayout(urlRow);
    layout->addWidget(m_snippets);
    return m_endpoint;
}

QGroupBox* ServeDialog::buildRequests()
{
    auto* box = new QGroupBox(tr("Requests"), this);
    m_requests->setObjectName("serveRequests");
    m_requests->setRootIsDecorated(false);
    m_requests->setUniformRowHeights(true);
    m_requests->setAlternatingRowColors(true);
    m_requests->setHeaderLabels({tr("Time"), tr("Status"), tr("Run"), tr("Run status"), tr("ms"), tr("Key")});
    m_requests->setToolTip(tr("Each request that reached a run, once the run is stored; double-click to open it"));
    m_requests->header()->setStretchLastSection(false); // ms stays beside the run, whichever columns show
    m_requests->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_requests, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit openRunRequested(RunId(item->data(RunColumn, kIdRole).toString().toStdString()));
    });
    m_requestsNote->setObjectName("serveRequestsNote");
    m_requestsNote->setWordWrap(true);
    m_requestsNote->setAlignment(Qt::AlignCenter);
    m_requestCount->setObjectName("serveRequestCount");
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_requests, 1);
    layout->addWidget(m_requestsNote, 1);
    layout->addWidget(m_requestCount);
    return box;
}

void ServeDialog::setOpenTeam(const QString& name, const QString& modelId, bool asOnScreen)
{
    if (m_controller->isServing())
        return; // the line names the team served until it stops
    m_team->setText(asOnScreen
                        ? tr("Serves the open team “%1” as it is on screen, as the model “%2”.").arg(name, modelId)
                        : tr("Serves the open team “%1” as the model “%2”.").arg(name, modelId));
}

void ServeDialog::setSampleInput(const QString& input)
{
    m_sampleInput = input.isEmpty() ? tr("Hello") : input;
    updateSnippets();
}

bool ServeDialog::setKeysFile(const QString& path)
{
    if (m_keysFile->text() != path)
        m_keysFile->setText(path);
    if (path.isEmpty()) {
        m_keysNote->setText(tr("No key asked for: anyone on this machine may call the endpoint."));
        paintRed(m_keysNote, false);
        return true;
    }
    const auto loaded = ApiKeys::loadFile(path.toStdString());
    if (!loaded.keys) {
        m_keysNote->setText(QString::fromStdString(loaded.error));
        paintRed(m_keysNote, true);
        return false;
    }
    QStringList names;
    for (const auto& key : loaded.keys->keys())
        names << QString::fromStdString(key.name);
    m_keysNote->setText(tr("%1: %2; clients send Authorization: Bearer KEY.")
                            .arg(TimeFormat::count(int64_t(names.size()), tr("key"), tr("keys")), names.join(", ")));
    paintRed(m_keysNote, false);
    return true;
}

void ServeDialog::chooseKeysFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Keys file"), m_keysFile->text());
    if (!path.isEmpty())
        setKeysFile(path);
}

bool ServeDialog::start()
{
    m_error->hide();
    if (!setKeysFile(m_keysFile->text()))
        return false;
    emit startRequested(quint16(m_port->value()), m_keysFile->text());
    return m_controller->state() == ServeController::State::Running;
}

void ServeDialog::stop()
{
    m_controller->stop();
    updateControls();
}

void ServeDialog::showError(const QString& error)
{
    m_error->setText(error);
    m_error->show();
    updateControls();
}

void ServeDialog::onStarted()
{
    m_error->hide();
    m_team->setText(tr("Serving the open team as it was at Start, as the model “%1”; stop and start again to serve "
                       "later edits.")
                        .arg(m_controller->modelId()));
    m_url->setText(m_controller->url());
    m_requests->setColumnHidden(KeyColumn, !m_controller->hasKeys()); // every key's name, or none
    updateSnippets();
    updateControls();
}

void ServeDialog::onStopped(int cancelled)
{
    if (cancelled > 0)
        showError(
            tr("%1 cut short when the drain ended.").arg(TimeFormat::count(cancelled, tr("run was"), tr("runs were"))));
    updateControls();
    if (m_closeWhenStopped) {
        m_closeWhenStopped = false;
        QDialog::done(QDialog::Rejected);
    }
}

void ServeDialog::onRequest(const ServedRequest& request)
{
    auto* item = new QTreeWidgetItem;
    const QString id = QString::fromStdString(request.runId);
    item->setText(TimeColumn,
                  QDateTime::fromMSecsSinceEpoch(request.arrivedUnixMs).toString(QStringLiteral("HH:mm:ss")));
    item->setText(StatusColumn, QString::number(request.httpStatus));
    item->setText(RunColumn, id);
    item->setData(RunColumn, kIdRole, id);
    item->setText(RunStatusColumn, QString::fromUtf8(toString(request.runStatus).data()));
    item->setText(MsColumn, QString::number(request.ms, 'f', 1));
    item->setText(KeyColumn, QString::fromStdString(request.keyName));
    item->setTextAlignment(StatusColumn, Qt::AlignRight | Qt::AlignVCenter);
    item->setTextAlignment(MsColumn, Qt::AlignRight | Qt::AlignVCenter);
    if (request.httpStatus >= 400)
        item->setForeground(StatusColumn, StatusPalette::color(Status::Failed));
    m_requests->insertTopLevelItem(0, item); // newest first
    while (m_requests->topLevelItemCount() > kMaxRows)
        delete m_requests->takeTopLevelItem(m_requests->topLevelItemCount() - 1);
    ++m_served;
    updateControls();
}

void ServeDialog::updateSnippets()
{
    if (m_controller->port() == 0)
        return;
    const QString model = m_controller->modelId();
    m_curl->setPlainText(ServeSnippets::curl(m_controller->url(), model, m_sampleInput, m_controller->hasKeys()));
    m_python->setPlainText(ServeSnippets::python(m_controller->url(), model, m_sampleInput, m_controller->hasKeys()));
}

void ServeDialog::updateControls()
{
    const auto state = m_controller->state();
    const bool stopped = state == ServeController::State::Stopped;
    m_startStop->setText(stopped ? tr("Start") : tr("Stop"));
    m_startStop->setEnabled(state != ServeController::State::Stopping);
    m_port->setEnabled(stopped);
    m_keysFile->setEnabled(stopped);
    m_chooseKeys->setEnabled(stopped);
    m_clearKeys->setEnabled(stopped);
    switch (state) {
    case ServeController::State::Running:
        m_state->setText(tr("Serving on %1").arg(m_controller->url()));
        break;
    case ServeController::State::Stopping:
        m_state->setText(tr("Stopping: runs in flight may finish for %1 s, then are cancelled…")
                             .arg(ServeController::kDrainMs / 1000));
        break;
    case ServeController::State::Stopped:
        m_state->setText(m_controller->port() == 0 ? tr("Not serving.")
                                                   : tr("Stopped; port %1 is closed.").arg(m_controller->port()));
        break;
    }
    // The endpoint stays in sight once it has been, greyed while nothing listens.
    m_endpoint->setVisible(m_controller->port() != 0);
    m_endpoint->setEnabled(state == ServeController::State::Running);
    const bool empty = m_requests->topLevelItemCount() == 0;
    m_requests->setVisible(!empty);
    m_requestsNote->setVisible(empty);
    m_requestsNote->setText(stopped && m_controller->port() == 0
                                ? tr("Start serving: each request to the endpoint shows here once its run is stored, "
                                     "and in the run history (Served).")
                                : tr("No request yet: call the endpoint with a snippet above. Each request shows "
                                     "here once its run is stored, and in the run history (Served)."));
    m_requestCount->setText(TimeFormat::count(m_served, tr("request"), tr("requests")) +
                            (m_served > kMaxRows ? tr(" (the newest %1 shown)").arg(kMaxRows) : QString()));
    m_requestCount->setVisible(!empty);
}

void ServeDialog::done(int result)
{
    if (m_controller->isServing()) { // stop first; close once the drain has ended
        m_closeWhenStopped = true;
        stop();
        return;
    }
    QDialog::done(result);
}

} // namespace conclave::ui
