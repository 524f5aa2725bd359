// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets, and Problem.h reaches it through StrongId.h.
#include <QtTest>

#include "conclave/local/TaskSet.h"

#include <string>
#include <vector>

using namespace conclave;

class TestTaskSetJsonl : public QObject {
    Q_OBJECT

private slots:
    void writesWhatLoadReadsBack();
    void everyBundledSetRoundTrips();
};

void TestTaskSetJsonl::writesWhatLoadReadsBack()
{
    std::vector<Task> tasks(2);
    tasks[0] = Task{.id = "m1", .domain = "math", .prompt = "What is 2 + 2?", .answer = "4", .tolerance = 0.5,
                    .difficulty = -0.25, .metadata = {{"source", "hand"}}};
    tasks[1] = Task{.id = "f1", .domain = "facts", .prompt = "Pick \"b\"\nnow", .answer = "b", .choices = {"a", "b"}};
    const auto text = TaskSet::toJsonl(tasks);
    const std::string expected =
        "{\"id\":\"m1\",\"domain\":\"math\",\"prompt\":\"What is 2 + 2?\",\"answer\":\"4\",\"tolerance\":0.5,"
        "\"difficulty\":-0.25,\"source\":\"hand\"}\n"
        "{\"id\":\"f1\",\"domain\":\"facts\",\"prompt\":\"Pick \\\"b\\\"\\nnow\",\"answer\":\"b\",\"choices\":[\"a\",\"b\"]}\n";
    QCOMPARE(text, expected);
    const auto back = TaskSet::fromJsonLines(text);
    QVERIFY(back.tasks);
    QCOMPARE(back.tasks->tasks(), tasks);
}

void TestTaskSetJsonl::everyBundledSetRoundTrips()
{
    const auto dir = std::filesystem::path(CONCLAVE_RESOURCES);
    const auto names = TaskSet::bundledNames(dir);
    QVERIFY(names.size() >= 6);
    for (const auto& name : names) {
        const auto loaded = TaskSet::load(*TaskSet::bundled(dir, name));
        QVERIFY(loaded.tasks);
        const auto back = TaskSet::fromJsonLines(TaskSet::toJsonl(loaded.tasks->tasks()));
        QVERIFY(back.tasks);
        QCOMPARE(back.tasks->tasks().size(), loaded.tasks->tasks().size());
        QCOMPARE(back.tasks->contentHash(), loaded.tasks->contentHash());
    }
}

QTEST_GUILESS_MAIN(TestTaskSetJsonl)
#include "tst_tasksetjsonl.moc"
