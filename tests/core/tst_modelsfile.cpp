// A local-moe backend's models_file (io/ModelsFile, its checks in the
// validator, its place in BackendFactory::resolveProfiles): where a path is
// found, catalog ← models_file ← inline models field by field, the exact
// problems of a missing or bad file, and a team saved with models_file as
// written. An openai backend's models_file: read and written back, checked
// with the same messages, and resolved for the gate alone.
#include <QtTest>

#include "support/ValidatorTestKit.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/session/Engine.h"

#include <QTemporaryDir>

using namespace validatortest;

namespace {

// A team of one expert on `model`, on a local backend with `backend` as its block.
json teamWith(const json& backend, const std::string& model)
{
    json block = backend;
    block["kind"] = "local-moe";
    return json{{"conclave", 1},
                {"name", "t"},
                {"backends", {{"local", block}}},
                {"nodes", json::array({{{"id", "in"}, {"kind", "input"}},
                                       {{"id", "e"}, {"kind", "expert"}, {"model", model}, {"prompt", "{{input}}"}},
                                       {{"id", "out"}, {"kind", "output"}}})},
                {"edges", json::array({{{"from", "in"}, {"to", "e"}}, {{"from", "e"}, {"to", "out"}}})}};
}

// The same expert on an openai backend "oa" with `backend` as the rest of its block.
json endpointTeam(const json& backend, const std::string& model)
{
    json block = backend;
    block["kind"] = "openai";
    block["base_url"] = "http://127.0.0.1:9/v1";
    auto team = teamWith(json::object(), model);
    team["conclave"] = 3;
    team["backends"] = json{{"oa", block}};
    return team;
}

Team loadTeam(const json& document)
{
    auto loaded = teamFromJson(document);
    if (!loaded.team)
        qFatal("the test team does not load");
    return std::move(*loaded.team);
}

void writeFile(const QString& path, const std::string& text)
{
    if (const auto error = writeFileAtomically(path.toStdString(), text))
        qFatal("%s", error->c_str());
}

std::set<std::string> catalogModels()
{
    const auto catalog = LocalModelCatalog::load(CONCLAVE_RESOURCES "/models/local-models.json");
    if (!catalog.catalog)
        qFatal("the catalog does not load");
    return catalog.catalog->names();
}

EngineResources engineResources()
{
    std::vector<std::string> errors;
    auto resources = EngineResources::load(CONCLAVE_RESOURCES, errors);
    if (!errors.empty())
        qFatal("%s", errors.front().c_str());
    return resources;
}

} // namespace

class TestModelsFile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void resolve_data()
    {
        QTest::addColumn<QString>("written");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("expected");
        QTest::newRow("beside the team") << "fitted.json"
                                         << "/teams"
                                         << "/teams/fitted.json";
        QTest::newRow("in a sub-folder") << "models/fitted.json"
                                         << "/teams"
                                         << "/teams/models/fitted.json";
        QTest::newRow("up a folder") << "../fitted.json"
                                     << "/teams/mine"
                                     << "/teams/fitted.json";
        QTest::newRow("absolute") << "/data/fitted.json"
                                  << "/teams"
                                  << "/data/fitted.json";
        QTest::newRow("no folder: the current directory") << "fitted.json"
                                                          << ""
                                                          << "fitted.json";
        QTest::newRow("relative folder") << "fitted.json"
                                         << "teams"
                                         << "teams/fitted.json";
    }

    void resolve()
    {
        QFETCH(QString, written);
        QFETCH(QString, folder);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(ModelsFile::resolve(written.toStdString(), folder.toStdString()).string()),
                 expected);
    }

    // What `above` sets wins, domain by domain for skills; the rest of `below` stays.
    void overlayIsFieldByField()
    {
        ModelProfile below;
        below.skills = std::map<std::string, double>{{"math", 0.5}, {"facts", 0.6}};
        below.ttftMs = Distribution{100, 200};
        below.failureRate = 0.1;
        ModelProfile above;
        above.skills = std::map<std::string, double>{{"math", 0.9}};
        above.failureRate = 0.0;
        above.errorAgreement = 0.4;
        ModelProfile other;
        other.contextTokens = 1024;
        const auto out = ModelsFile::overlay({{"a", below}}, {{"a", above}, {"b", other}});
        QCOMPARE(out.size(), size_t(2));
        const auto& a = out.at("a");
        QCOMPARE(*a.skills, (std::map<std::string, double>{{"facts", 0.6}, {"math", 0.9}}));
        QVERIFY(a.ttftMs == (Distribution{100, 200}));
        QCOMPARE(*a.failureRate, 0.0);
        QCOMPARE(*a.errorAgreement, 0.4);
        QVERIFY(!a.contextTokens);
        QVERIFY(out.at("b") == other);
    }

    void writtenFileReadsBack()
    {
        ModelProfile p;
        p.skills = std::map<std::string, double>{{"math", 0.75}};
        p.trials = std::map<std::string, int64_t>{{"math", 400}};
        const ModelsFile::Profiles models{{"real/gpt-x", p}};
        const auto text = ModelsFile::toJsonText(models);
        QCOMPARE(QString::fromStdString(text), QStringLiteral("{\n  \"models\": {\n    \"real/gpt-x\": {\n"
                                                              "      \"skills\": {\n        \"math\": 0.75\n      },\n"
                                                              "      \"trials\": {\n        \"math\": 400\n      }\n"
                                                              "    }\n  }\n}\n"));
        const auto back = ModelsFile::fromJsonText(text);
        QVERIFY(back.file);
        QVERIFY(back.file->models() == models);
        QVERIFY(LocalModelCatalog::fromJsonText(text).catalog->models() == models);
    }

    // The new fields overlay one by one too, each wholly (a confidence or synthesis is one record).
    void overlayTakesTheJointFields()
    {
        ModelProfile below;
        below.difficultyWeight = 0.5;
        below.confidence = ConfidenceProfile{{0.9, 0.1, {}}, {0.8, 0.1, {}}};
        below.loadSlope = 0.2;
        below.fitted = std::vector<std::string>{"skills"};
        ModelProfile above;
        above.synthesis = SynthesisProfile{{0.1, 0.7}, 0.3};
        above.loadSlope = 0.0;
        above.calibratedFrom = std::vector<CalibrationSource>{{"e", 10}};
        const auto a = ModelsFile::overlay({{"a", below}}, {{"a", above}}).at("a");
        QCOMPARE(a.difficultyWeight, std::optional<double>(0.5));
        QVERIFY(a.confidence == below.confidence);
        QVERIFY(a.synthesis == above.synthesis);
        QCOMPARE(a.loadSlope, std::optional<double>(0.0));
        QVERIFY(a.fitted == below.fitted);
        QVERIFY(a.calibratedFrom == above.calibratedFrom);
    }

    // A file using the new fields says "format": 2 first; one without them has no format, as before.
    void formatTwoWhenTheNewFieldsAreUsed()
    {
        ModelProfile p;
        p.loadSlope = 0.5;
        const auto text = ModelsFile::toJsonText({{"m", p}});
        QCOMPARE(QString::fromStdString(text),
                 QStringLiteral("{\n  \"format\": 2,\n  \"models\": {\n    \"m\": {\n"
                                "      \"load_slope\": 0.5\n    }\n  }\n}\n"));
        const auto back = ModelsFile::fromJsonText(text);
        QVERIFY(back.file);
        QCOMPARE(back.file->models().at("m").loadSlope, std::optional<double>(0.5));
        QVERIFY(ModelsFile::toJsonText({{"m", ModelProfile{}}}).find("format") == std::string::npos);
    }

    void formatProblems_data()
    {
        QTest::addColumn<QString>("fileText");
        QTest::addColumn<QStringList>("expected"); // the reader's problems
        QTest::newRow("1") << R"({"format": 1, "models": {}})" << QStringList();
        QTest::newRow("2") << R"({"format": 2, "models": {"m": {"difficulty_weight": 1}}})" << QStringList();
        QTest::newRow("newer") << R"({"format": 3, "models": {"m": {"shape": "new"}}})"
                               << QStringList{err("/format", "models file format 3 is newer than this build reads (2); "
                                                             "upgrade Conclave to read it")};
        QTest::newRow("huge") << R"({"format": 18446744073709551615, "models": {}})"
                              << QStringList{err("/format", "models file format 18446744073709551615 is newer than "
                                                            "this build reads (2); upgrade Conclave to read it")};
        QTest::newRow("fraction") << R"({"format": 1.5, "models": {}})"
                                  << QStringList{err("/format",
                                                     "expected a models file format from 1 to 2, got 1.5")};
        QTest::newRow("text") << R"({"format": "2", "models": {}})"
                              << QStringList{err("/format", "expected a models file format from 1 to 2, got \"2\"")};
        QTest::newRow("zero") << R"({"format": 0, "models": {}})"
                              << QStringList{err("/format", "expected a models file format from 1 to 2, got 0")};
    }

    void formatProblems()
    {
        QFETCH(QString, fileText);
        QFETCH(QStringList, expected);
        const auto read = ModelsFile::fromJsonText(fileText.toStdString());
        QCOMPARE(render(read.problems), expected);
        QCOMPARE(bool(read.file), expected.isEmpty());
    }

    void problems_data()
    {
        QTest::addColumn<QString>("fileText"); // empty: no file
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("expected");
        const auto file = m_dir.filePath(QStringLiteral("fitted.json")).toStdString();
        const std::string where = "/backends/local/models_file";
        const std::string of = "models file of backend \"local\": " + file;
        QTest::newRow("good") << R"({"models": {"real/x": {"failure_rate": 0.1}}})"
                              << "real/x" << QStringList();
        QTest::newRow("a catalog model") << R"({"models": {}})"
                                         << "local/generalist-7b" << QStringList();
        QTest::newRow("missing") << ""
                                 << "real/x" << QStringList{err(where, of + ": no such file")};
        QTest::newRow("syntax") << R"({"models": )"
                                << "real/x"
                                << QStringList{err(where, of + ":1:12: syntax error while parsing value - unexpected "
                                                               "end of input; expected '[', '{', or a literal")};
        QTest::newRow("nested 257 deep") << R"({"models": {"real/x": {"skills": )" + QString(255, '[') +
                                                QString(255, ']') + "}}}"
                                         << "real/x"
                                         << QStringList{err(where, of + ":1:287: nesting is deeper than 256 levels")};
        QTest::newRow("no models") << R"({"model": {}})"
                                   << "real/x"
                                   << QStringList{err(where, of + ": /models: expected an object of model profiles")};
        QTest::newRow("a mistyped field")
            << R"({"models": {"real/x": {"failure_rate": "often"}}})"
            << "real/x"
            << QStringList{err(where, of + ": /models/real~1x/failure_rate: expected a number from 0 to 1, "
                                           "got \"often\"")};
        QTest::newRow("out of range")
            << R"({"models": {"real/x": {"failure_rate": 1.5, "error_agreement": 2}}})"
            << "real/x"
            << QStringList{err(where, of + ": /models/real~1x/failure_rate: expected a number from 0 to 1, got 1.5"),
                           err(where, of + ": /models/real~1x/error_agreement: expected a number from 0 to 1, got 2")};
        QTest::newRow("an unknown key") << R"({"models": {"real/x": {"vram_gb": 16}}})"
                                        << "real/x"
                                        << QStringList{warn(where, of + ": /models/real~1x/vram_gb: unknown key for a "
                                                                        "model profile; it is kept as is")};
        QTest::newRow("a model in neither")
            << R"({"models": {"real/x": {}}})"
            << "real/y"
            << QStringList{err("/nodes/1/model",
                               "unknown local model \"real/y\"; the local-moe backend has " + catalogNames(),
                               {.node = "e"})};
    }

    // A team whose models file cannot be read reports that, once, and takes its model names on trust.
    void problems()
    {
        QFETCH(QString, fileText);
        QFETCH(QString, model);
        QFETCH(QStringList, expected);
        const auto path = m_dir.filePath(QStringLiteral("fitted.json"));
        QFile::remove(path);
        if (!fileText.isEmpty())
            writeFile(path, fileText.toStdString());
        const auto team = loadTeam(teamWith({{"models_file", "fitted.json"}}, model.toStdString()));
        ValidationContext context;
        context.localModels = catalogModels();
        context.teamFolder = m_dir.path().toStdString();
        QCOMPARE(render(validate(team, context)), expected);
    }

    void emptyPath()
    {
        const auto team = loadTeam(teamWith({{"models_file", ""}}, "local/generalist-7b"));
        QCOMPARE(render(validate(team)),
                 QStringList{err("/backends/local/models_file", "expected the path of a models file, got \"\"")});
    }

    // catalog ← models_file ← inline models, field by field.
    void resolutionOrder()
    {
        writeFile(m_dir.filePath(QStringLiteral("order.json")), R"({"models": {
            "local/generalist-7b": {"skills": {"math": 0.11, "facts": 0.22}, "failure_rate": 0.05,
                                    "ttft_ms": {"median": 900, "p95": 1800}},
            "real/x": {"skills": {"math": 0.33}, "context_tokens": 2048}}})");
        const json inlineModels{{"local/generalist-7b", {{"skills", {{"facts", 0.44}}}, {"failure_rate", 0.0}}}};
        const auto team =
            loadTeam(teamWith({{"models_file", "order.json"}, {"models", inlineModels}}, "local/generalist-7b"));
        const auto resources = engineResources();
        const auto& catalog = resources.localModels.at("local/generalist-7b");
        Engine engine(resources, 1);
        const auto prepared = engine.prepare(team, m_dir.path().toStdString());
        QVERIFY2(prepared.team, prepared.error.c_str());
        const auto& profiles = *prepared.team->localProfiles.at(BackendName("local"));
        const auto& g = profiles.at("local/generalist-7b");
        QCOMPARE(g.skill("math"), 0.11);                       // the file over the catalog
        QCOMPARE(g.skill("facts"), 0.44);                      // inline over the file
        QCOMPARE(g.skill("code"), catalog.skills->at("code")); // the catalog where neither says
        QCOMPARE(g.failureRate, 0.0);                          // inline over the file
        QVERIFY(g.ttftMs == (Distribution{900, 1800}));        // the file
        QVERIFY(g.tokensPerS == *catalog.tokensPerS);          // the catalog
        QCOMPARE(profiles.at("real/x").skill("math"), 0.33);
        QCOMPARE(profiles.at("real/x").contextTokens, std::optional<int64_t>(2048));
    }

    void engineRefusesAMissingFile()
    {
        const auto team = loadTeam(teamWith({{"models_file", "absent.json"}}, "local/generalist-7b"));
        Engine engine(engineResources(), 1);
        const auto folder = m_dir.path().toStdString();
        const auto prepared = engine.prepare(team, folder);
        QVERIFY(!prepared.team);
        QCOMPARE(QString::fromStdString(prepared.error),
                 QString::fromStdString("the team is invalid: /backends/local/models_file: models file of backend "
                                        "\"local\": " +
                                        folder + "/absent.json: no such file"));
    }

    // A team not read from a file finds a relative models_file in the current directory.
    void noFolderMeansTheCurrentDirectory()
    {
        writeFile(m_dir.filePath(QStringLiteral("here.json")),
                  R"({"models": {"real/here": {"skills": {"math": 0.5}}}})");
        const auto team = loadTeam(teamWith({{"models_file", "here.json"}}, "real/here"));
        Engine engine(engineResources(), 1);
        const auto before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_dir.path()));
        const auto prepared = engine.prepare(team);
        QVERIFY(QDir::setCurrent(before));
        QVERIFY2(prepared.team, prepared.error.c_str());
        QCOMPARE(prepared.team->localProfiles.at(BackendName("local"))->at("real/here").skill("math"), 0.5);
    }

    // Load → save keeps models_file as written and never copies the file's profiles in.
    void saveKeepsThePath()
    {
        writeFile(m_dir.filePath(QStringLiteral("kept.json")), R"({"models": {"real/k": {"skills": {"math": 0.5}}}})");
        const auto teamPath = m_dir.filePath(QStringLiteral("kept.team.json")).toStdString();
        writeFile(QString::fromStdString(teamPath),
                  teamWith({{"models_file", "kept.json"}, {"seed", 3}}, "real/k").dump());
        const auto loaded = loadTeamFile(teamPath);
        QVERIFY(loaded.team);
        QCOMPARE(*loaded.team->backends.at(BackendName("local")).modelsFile, std::string("kept.json"));
        QVERIFY(!loaded.team->backends.at(BackendName("local")).models);
        QVERIFY(!saveTeamFile(*loaded.team, teamPath));
        const auto text = readFileText(teamPath, 1 << 20).text.value_or("");
        QVERIFY(text.find("\"models_file\": \"kept.json\"") != std::string::npos);
        QVERIFY(text.find("real/k\": {") == std::string::npos);
        const auto again = loadTeamFile(teamPath);
        QVERIFY(again.team);
        QVERIFY(*again.team == *loaded.team);
    }

    // On an openai backend models_file is read (format 3) and written back where a local-moe backend's is.
    void openAiRoundTrip()
    {
        // (Keys sorted: not the canonical order.)
        const json oaBlock{{"kind", "openai"},
                           {"base_url", "http://x/v1"},
                           {"models_file", "m.json"},
                           {"prices", {{"m", {{"input", 1}, {"output", 2}}}}}};
        const auto loaded = teamFromJsonText(json{
            {"conclave", 1},
            {"name", "t"},
            {"backends", {{"oa", oaBlock}}},
            {"nodes", json::array()},
            {"edges", json::array()}}.dump());
        QVERIFY(loaded.problems.empty());
        QVERIFY(loaded.team);
        const auto& oa = loaded.team->backends.at(BackendName("oa"));
        QCOMPARE(oa.modelsFile, std::optional<std::string>("m.json"));
        QVERIFY(oa.extra.is_null());
        QCOMPARE(formatVersionNeeded(*loaded.team), int64_t(3));
        const auto text = teamToJsonText(*loaded.team);
        QCOMPARE(text, std::string("{\n"
                                   "  \"conclave\": 3,\n"
                                   "  \"name\": \"t\",\n"
                                   "  \"backends\": {\n"
                                   "    \"oa\": {\n"
                                   "      \"kind\": \"openai\",\n"
                                   "      \"models_file\": \"m.json\",\n"
                                   "      \"base_url\": \"http://x/v1\",\n"
                                   "      \"prices\": {\n"
                                   "        \"m\": {\n"
                                   "          \"input\": 1,\n"
                                   "          \"output\": 2\n"
                                   "        }\n"
                                   "      }\n"
                                   "    }\n"
                                   "  },\n"
                                   "  \"nodes\": [],\n"
                                   "  \"edges\": []\n"
                                   "}\n"));
        const auto again = teamFromJsonText(text);
        QVERIFY(again.team);
        QVERIFY(*again.team == *loaded.team);
        // Without it, an openai team keeps its version.
        auto without = *loaded.team;
        without.backends.at(BackendName("oa")).modelsFile.reset();
        QCOMPARE(formatVersionNeeded(without), int64_t(1));
    }

    // An openai backend's models file is checked as a local-moe backend's is, with the same messages.
    void openAiProblems_data()
    {
        QTest::addColumn<QString>("fileText"); // empty: no file
        QTest::addColumn<QStringList>("expected");
        const auto file = m_dir.filePath(QStringLiteral("skills.json")).toStdString();
        const std::string where = "/backends/oa/models_file";
        const std::string of = "models file of backend \"oa\": " + file;
        QTest::newRow("good") << R"({"models": {"real/x": {"skills": {"math": 0.9}}}})" << QStringList();
        QTest::newRow("missing") << "" << QStringList{err(where, of + ": no such file")};
        QTest::newRow("out of range")
            << R"({"models": {"real/x": {"skills": {"math": 1.5}}}})"
            << QStringList{err(where, of + ": /models/real~1x/skills/math: expected a number from 0 to 1, got 1.5")};
    }

    void openAiProblems()
    {
        QFETCH(QString, fileText);
        QFETCH(QStringList, expected);
        const auto path = m_dir.filePath(QStringLiteral("skills.json"));
        QFile::remove(path);
        if (!fileText.isEmpty())
            writeFile(path, fileText.toStdString());
        const auto team = loadTeam(endpointTeam({{"models_file", "skills.json"}}, "real/x"));
        ValidationContext context;
        context.localModels = catalogModels();
        context.teamFolder = m_dir.path().toStdString();
        QCOMPARE(render(validate(team, context)), expected);
    }

    void openAiEmptyPath()
    {
        const auto team = loadTeam(endpointTeam({{"models_file", ""}}, "real/x"));
        QCOMPARE(render(validate(team)),
                 QStringList{err("/backends/oa/models_file", "expected the path of a models file, got \"\"")});
    }

    void engineRefusesAMissingOpenAiFile()
    {
        const auto team = loadTeam(endpointTeam({{"models_file", "absent.json"}}, "real/x"));
        Engine engine(engineResources(), 1);
        const auto folder = m_dir.path().toStdString();
        const auto prepared = engine.prepare(team, folder);
        QVERIFY(!prepared.team);
        QCOMPARE(QString::fromStdString(prepared.error),
                 QString::fromStdString("the team is invalid: /backends/oa/models_file: models file of backend "
                                        "\"oa\": " +
                                        folder + "/absent.json: no such file"));
    }

    // The gate's profiles of an openai backend: only the models its file names, a catalog model's
    // resolved as a local backend's would be (the catalog's under the file's); no simulator's profiles.
    void openAiGateProfiles()
    {
        writeFile(m_dir.filePath(QStringLiteral("endpoint.json")), R"({"models": {
            "local/math-13b": {"skills": {"math": 0.11}},
            "real/x": {"skills": {"writing": 0.8}}}})");
        const auto team = loadTeam(endpointTeam({{"models_file", "endpoint.json"}}, "real/x"));
        const auto resources = engineResources();
        Engine engine(resources, 1);
        const auto prepared = engine.prepare(team, m_dir.path().toStdString());
        QVERIFY2(prepared.team, prepared.error.c_str());
        QVERIFY(prepared.team->localProfiles.empty());
        QCOMPARE(prepared.team->gateProfiles.size(), size_t(1));
        const auto& profiles = *prepared.team->gateProfiles.at(BackendName("oa"));
        QCOMPARE(profiles.size(), size_t(2)); // not local/tiny-1b and the rest of the catalog
        const auto& math = profiles.at("local/math-13b");
        QCOMPARE(math.skill("math"), 0.11);                                                          // the file
        QCOMPARE(math.skill("code"), resources.localModels.at("local/math-13b").skills->at("code")); // the catalog
        QCOMPARE(profiles.at("real/x").skill("writing"), 0.8);
        QCOMPARE(profiles.at("real/x").skill("math"), 0.5); // said nowhere
        // A local team has none.
        const auto local = engine.prepare(loadTeam(teamWith(json::object(), "local/math-13b")));
        QVERIFY2(local.team, local.error.c_str());
        QVERIFY(local.team->gateProfiles.empty());
    }

private:
    static std::string catalogNames()
    {
        std::string out;
        for (const auto& name : catalogModels())
            out += (out.empty() ? "" : ", ") + name;
        return out;
    }

    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestModelsFile)
#include "tst_modelsfile.moc"
