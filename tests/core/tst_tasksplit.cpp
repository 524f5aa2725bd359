// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets.
#include <QtTest>

#include "conclave/experiment/TaskSplit.h"

#include <string>
#include <vector>

using namespace conclave;

class TestTaskSplit : public QObject {
    Q_OBJECT

private slots:
    void partsFollowTheFractions();
    void aTasksPartIsItsOwn();
    void seedAndSetChangeTheSplit();
    void badFractionsAreRefused_data();
    void badFractionsAreRefused();
    void holdoutShare();
};

void TestTaskSplit::partsFollowTheFractions()
{
    std::string error;
    const auto split = TaskSplit::parse("0.5/0.25/0.25", 3, error);
    QVERIFY2(split, error.c_str());
    std::vector<int> counts(3, 0);
    for (int i = 0; i < 4000; ++i)
        ++counts[split->partOf("0123456789abcdef", "t" + std::to_string(i))];
    // Exact for these keys, and near 2,000 / 1,000 / 1,000 as a uniform hash gives.
    QCOMPARE(counts, (std::vector<int>{2016, 987, 997}));
    const double u = split->position("0123456789abcdef", "t0");
    QVERIFY(u >= 0 && u < 1);
    QCOMPARE(split->partOf("0123456789abcdef", "t0"), size_t(u < 0.5 ? 0 : u < 0.75 ? 1 : 2));
}

void TestTaskSplit::aTasksPartIsItsOwn()
{
    // The part depends on the task's key only: the same whatever else is split.
    std::string error;
    const auto split = TaskSplit::holdout(0.3, 11, error);
    QVERIFY(split);
    const auto first = split->partOf("hash", "math-17");
    for (int i = 0; i < 50; ++i)
        split->partOf("hash", "other-" + std::to_string(i));
    QCOMPARE(split->partOf("hash", "math-17"), first);
    QCOMPARE(TaskSplit::holdout(0.3, 11, error)->partOf("hash", "math-17"), first);
}

void TestTaskSplit::seedAndSetChangeTheSplit()
{
    std::string error;
    const auto a = TaskSplit::holdout(0.5, 1, error);
    const auto b = TaskSplit::holdout(0.5, 2, error);
    int differ = 0;
    int differBySet = 0;
    for (int i = 0; i < 1000; ++i) {
        const auto id = "t" + std::to_string(i);
        differ += a->partOf("set", id) != b->partOf("set", id) ? 1 : 0;
        differBySet += a->partOf("set", id) != a->partOf("other set", id) ? 1 : 0;
    }
    QCOMPARE(differ, 507);
    QCOMPARE(differBySet, 508); // about half, as two independent halvings give
}

void TestTaskSplit::badFractionsAreRefused_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("one part") << "1" << "a split needs at least two parts";
    QTest::newRow("not a number") << "0.5/half" << "\"half\" is not a number; give fractions separated by '/', e.g. 0.5/0.25/0.25";
    QTest::newRow("empty part") << "0.5//0.5" << "\"\" is not a number; give fractions separated by '/', e.g. 0.5/0.25/0.25";
    QTest::newRow("zero") << "1/0" << "part 2 is 0; each part must be a fraction above 0 and at most 1";
    QTest::newRow("sum") << "0.5/0.4" << "the parts sum to 0.9; they must sum to 1";
}

void TestTaskSplit::badFractionsAreRefused()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    std::string error;
    QVERIFY(!TaskSplit::parse(text.toStdString(), 1, error));
    QCOMPARE(QString::fromStdString(error), message);
}

void TestTaskSplit::holdoutShare()
{
    std::string error;
    const auto split = TaskSplit::holdout(0.25, 5, error);
    QVERIFY(split);
    QCOMPARE(split->fractions(), (std::vector<double>{0.75, 0.25}));
    QVERIFY(!TaskSplit::holdout(1, 5, error));
    QCOMPARE(error, std::string("the held-out share is 1; it must be above 0 and below 1"));
}

QTEST_GUILESS_MAIN(TestTaskSplit)
#include "tst_tasksplit.moc"
