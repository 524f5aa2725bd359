// LongerCall: a simulated call conditioned on lasting longer than the time a
// cut-short call was served (docs/whatif.md) — its own draws when they last
// longer, else fresh ones until one does, else it ends right at that time.
#include <QtTest>

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/local/LongerCall.h"

#include <map>

using namespace conclave;

namespace {

// A responder whose call lasts what its draw key hashes to (0–999 ms), and says which key it drew.
class HashedLatency : public CallResponder {
public:
    SimulatedCall respond(const ModelRequest& request) const override
    {
        SimulatedCall call;
        call.totalMs = double(DeterministicRandom::key({request.drawKey()}, 7) % 1000);
        call.ttftMs = call.totalMs / 2;
        call.reply.ok = true;
        call.reply.text = request.drawKey();
        call.reply.plannedMs = call.totalMs;
        return call;
    }
    double costOf(std::string_view, int64_t, int64_t) const override { return 0; }
};

ModelRequest requestWith(const std::string& draw)
{
    ModelRequest request;
    request.model = "m";
    request.salt = "e";
    request.draw = draw;
    return request;
}

} // namespace

class TestLongerCall : public QObject {
    Q_OBJECT

private slots:
    // A call that lasts longer under its own draws keeps them.
    void aLongEnoughCallKeepsItsOwnDraws()
    {
        const HashedLatency responder;
        const auto request = requestWith("expert:0");
        const auto own = responder.respond(request);
        const auto call = LongerCall::draw(responder, request, own.totalMs - 1);
        QCOMPARE(call.totalMs, own.totalMs);
        QCOMPARE(QString::fromStdString(call.reply.text), QString("expert:0"));
    }

    // Otherwise every call drawn lasts longer than the time served, the same one for the same request,
    // and the first of the fresh draws that does.
    void aShortCallIsDrawnAgainUntilItLastsLonger()
    {
        const HashedLatency responder;
        int redrawn = 0;
        for (int i = 0; i < 200; ++i) {
            const auto request = requestWith("expert:" + std::to_string(i));
            const double served = 600;
            const auto call = LongerCall::draw(responder, request, served);
            QVERIFY(call.totalMs > served);
            QCOMPARE(LongerCall::draw(responder, request, served).totalMs, call.totalMs);
            if (responder.respond(request).totalMs > served)
                continue;
            ++redrawn;
            int k = 1;
            while (responder.respond(requestWith(request.draw + "|longer " + std::to_string(k))).totalMs <= served)
                ++k;
            QCOMPARE(QString::fromStdString(call.reply.text),
                     QString::fromStdString(request.draw + "|longer " + std::to_string(k)));
        }
        QVERIFY(redrawn > 50); // about 60 % of calls last 600 ms or less
    }

    // Beyond anything the profile gives, it ends right at the time served, its first token not after.
    void beyondTheProfileItEndsAtTheTimeServed()
    {
        const HashedLatency responder;
        const auto call = LongerCall::draw(responder, requestWith("expert:0"), 5000);
        QCOMPARE(call.totalMs, 5000.0);
        QCOMPARE(call.reply.plannedMs, 5000.0);
        QVERIFY(call.ttftMs <= call.totalMs);
    }
};

QTEST_GUILESS_MAIN(TestLongerCall)
#include "tst_longercall.moc"
