#include "studio/MainWindow.h"

#include "document/TeamDocument.h"

#include "conclave/model/NodeKind.h"

#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTreeWidget>

namespace conclave::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new TeamDocument(this)), m_nodes(new QTreeWidget(this)),
      m_problems(new QListWidget(this))
{
    setWindowTitle(tr("Conclave Studio"));
    resize(1100, 700);

    m_nodes->setHeaderLabels({tr("Node"), tr("Kind"), tr("Model / strategy")});
    m_nodes->setRootIsDecorated(false);
    m_nodes->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setCentralWidget(m_nodes);

    auto* dock = new QDockWidget(tr("Problems"), this);
    dock->setObjectName("problemsDock");
    dock->setWidget(m_problems);
    addDockWidget(Qt::BottomDockWidgetArea, dock);

    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open..."), QKeySequence::Open, this, &MainWindow::openWithDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    connect(m_document, &TeamDocument::teamReset, this, &MainWindow::refresh);
    statusBar()->showMessage(tr("Open a team with File > Open"));
}

bool MainWindow::openFile(const QString& path, bool interactive)
{
    const QString error = m_document->load(path);
    if (error.isEmpty())
        return true;
    if (interactive)
        QMessageBox::warning(this, tr("Cannot open team"), error);
    statusBar()->showMessage(tr("Cannot open %1").arg(QFileInfo(path).fileName()));
    return false;
}

void MainWindow::openWithDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open team"), QString(), tr("Teams (*.team.json *.json)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::refresh()
{
    const auto& team = m_document->team();
    setWindowTitle(tr("%1 - Conclave Studio").arg(QString::fromStdString(team.name)));
    m_nodes->clear();
    for (const auto& node : team.nodes) {
        const auto& c = node.config;
        QString detail;
        if (c.call.model)
            detail = QString::fromStdString(*c.call.model);
        else if (c.routerStrategy)
            detail = QString::fromUtf8(toString(*c.routerStrategy));
        else if (c.aggregatorStrategy)
            detail = QString::fromUtf8(toString(*c.aggregatorStrategy));
        else if (c.mode)
            detail = QString::fromUtf8(toString(*c.mode));
        new QTreeWidgetItem(m_nodes, {QString::fromStdString(node.displayName()), QString::fromUtf8(toString(node.kind)),
                                      detail});
    }
    m_problems->clear();
    const auto name = QFileInfo(m_document->filePath()).fileName().toStdString();
    for (const auto& problem : m_document->problems())
        m_problems->addItem(QString::fromStdString(formatProblem(problem, name)));
    if (m_document->problems().empty())
        m_problems->addItem(tr("No problems"));
    statusBar()->showMessage(tr("%1 nodes, %2 edges").arg(team.nodes.size()).arg(team.edges.size()));
}

} // namespace conclave::ui
