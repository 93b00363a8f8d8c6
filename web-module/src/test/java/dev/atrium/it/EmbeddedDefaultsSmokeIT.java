package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The platform with no configuration at all: H2, the in-process store, the embedded broker and the mail outbox.
 * A user registers, verifies from the outbox, logs in, and publishes an article that then shows in the list. The
 * server starts as {@code scripts/run} starts it: Payara's launcher with the class data sharing archive, the WAR
 * unpacked. The WAR carries the test sources' batch jobs but none of the test hooks: the product's classes run as
 * shipped, its clock included.
 */
@ExtendWith(AtriumServer.class)
class EmbeddedDefaultsSmokeIT {

    @Test
    void whenNoLanguageModelIsConfiguredThenTheStartLogWarnsOnce() throws Exception {
        var log = java.nio.file.Files.readString(Path.of(System.getProperty("atrium.it.work", "target/it"))
                .resolve("embedded-server.log"));
        String warning = "No language model is configured (ATRIUM_LLM_BASE_URL is not set)";
        assertThat(log.split(java.util.regex.Pattern.quote(warning), -1)).as("the warning, once").hasSize(2);
    }

    @Test
    void whenNoPaymentProcessorIsConfiguredThenEmbeddedIsTakenAndTheLogAndHealthSayTopUpsAreFree() throws Exception {
        var log = java.nio.file.Files.readString(Path.of(System.getProperty("atrium.it.work", "target/it"))
                .resolve("embedded-server.log"));
        String warning = "No payment processor is configured (ATRIUM_BILLING_PROCESSOR is not set or embedded)";
        assertThat(log.split(java.util.regex.Pattern.quote(warning), -1)).as("the warning, once").hasSize(2);
        assertThat(Api.anonymous().get("/health").json().get("payments").asText())
                .isEqualTo("embedded (development: top-ups are free)");
    }

    @Test
    void whenStartedThenTheBrokerAndTheModelStartedBesideTheDeploymentOnThreadsOfTheirOwn() throws Exception {
        List<String> log = java.nio.file.Files.readAllLines(Path.of(System.getProperty("atrium.it.work", "target/it"))
                .resolve("embedded-server.log"));
        assertThat(log).as("the broker's start, begun when CDI began the deployment (Artemis's own lines are quiet)")
                .anyMatch(line -> line.contains("Embedded broker started (started ahead, beside the deployment)"));
        assertThat(log).as("the model's load likewise")
                .anyMatch(line -> line.contains("Embedding model all-minilm-l6-v2-q loaded")
                        && line.contains("_ThreadName=atrium-model-load"));
        assertThat(log).as("and the application took the broker started ahead, stopping none")
                .anyMatch(line -> line.contains("Embedded broker started"))
                .noneMatch(line -> line.contains("started ahead and not taken"));
    }

    @Test
    void whenStartedAsTheRunScriptStartsItThenMostClassesComeFromTheSharedArchive() throws Exception {
        var server = AtriumServer.get();
        assertThat(server.throughLauncher()).isTrue();
        assertThat(server.launchCommand()).as("Payara's launcher, the archive required")
                .contains("-Xshare:on", "fish.payara.micro.impl.PayaraMicroImpl").doesNotContain("-jar")
                .anyMatch(argument -> argument.startsWith("-XX:SharedArchiveFile="));
        assertThat(server.launchCommand()).as("the launcher's JVM settings (docs/benchmarks.md)")
                .contains("-XX:+UseParallelGC", "-XX:MetaspaceSize=256m");
        List<String> loads = java.nio.file.Files.readAllLines(server.classLoadLog());
        long shared = loads.stream().filter(line -> line.contains("source: shared objects file")).count();
        assertThat(shared).as("classes mapped from the archive, of %d loaded", loads.size())
                .isGreaterThan(loads.size() / 2);
        assertThat(loads).as("the runtime's classes among them")
                .anyMatch(line -> line.contains("com.sun.enterprise.v3.server.ApplicationLifecycle ")
                        && line.contains("shared objects file"));
    }

    @Test
    void whenStartedAsTheRunScriptStartsItThenTheWarIsDeployedUnpackedWithNoCopyInTheRuntimeDirectory()
            throws Exception {
        List<String> command = AtriumServer.get().launchCommand();
        Path deployed = Path.of(command.get(command.indexOf("--contextroot") - 1));
        assertThat(deployed).as("the WAR unpacked by scripts/launcher").isDirectory();
        assertThat(deployed.resolve("WEB-INF/web.xml")).isRegularFile();
        // a WAR file is copied into the runtime directory and unzipped there at every start
        Path applications = Path.of(command.get(command.indexOf("--rootdir") + 1)).resolve("applications");
        assertThat(applications.resolve(deployed.getFileName().toString())).doesNotExist();
        try (var files = java.nio.file.Files.walk(applications)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .doesNotContain(deployed.getFileName() + ".war");
        }
        assertThat(Api.anonymous().get("/openapi").status()).as("the application answers from it").isEqualTo(200);
    }

    @Test
    void whenStartedWithoutConfigurationThenTheWholeContentFlowWorks() {
        assertThat(AtriumServer.get().embedded()).isTrue();
        var api = Api.anonymous();
        var health = api.get("/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().at("/backends/database").asText()).isEqualTo("h2");
        assertThat(health.json().at("/backends/redis").asText()).isEqualTo("in-process");
        assertThat(health.json().get("models").asText()).as("no language model configured").isEqualTo("echo only");

        var account = Accounts.verified("smoke");
        var created = account.api().post("/api/v1/articles", Map.of("title", "Hello from the embedded default",
                "body", "It all runs in one JVM.", "tags", List.of("smoke")));
        assertThat(created.status()).isEqualTo(201);
        long id = created.json().get("id").asLong();
        assertThat(account.api().post("/api/v1/articles/" + id + "/publish").status()).isEqualTo(200);

        var list = api.get("/api/v1/articles?tag=smoke").json();
        assertThat(list.get("total").asLong()).isEqualTo(1);
        assertThat(list.get("items").get(0).get("title").asText()).isEqualTo("Hello from the embedded default");
        assertThat(AtriumServer.get().dataDir().resolve("db").toFile().list()).isNotEmpty();
        // the embedding model loaded at deploy: its tokenizer's library where the launcher's ENGINE_CACHE_DIR says
        assertThat(AtriumServer.get().dataDir().resolve("native/tokenizers").toFile().list()).isNotEmpty();
    }

    @Test
    void whenTheProductRunsAsShippedThenItHasNoTestHookAndItsOwnClockServesRateLimitedRequests() {
        var admin = Accounts.admin();
        var clock = admin.api().get("/admin/clock");
        assertThat(clock.status()).as("no settable clock in the product: " + clock).isEqualTo(404);
        assertThat(clock.code()).isEqualTo(40400);
        // every API request is counted against a bucket by the product's clock (EarSmokeIT met a 500 here once)
        var articles = Api.anonymous().get("/api/v1/articles");
        assertThat(articles.status()).as(articles.toString()).isEqualTo(200);
        assertThat(articles.headers().firstValue("X-RateLimit-Remaining")).isPresent();
        var wrong = Api.anonymous().post("/api/v1/auth/login", Map.of("email", "nobody@example.com",
                "password", "not-the-password"));
        assertThat(wrong.status()).as(wrong.toString()).isEqualTo(401);
        assertThat(wrong.code()).as("a wrong password, in the envelope").isEqualTo(10002);
    }

    @Test
    void whenTheEmbeddedProcessorTakesATopUpThenItIsCreditedAtOnce() {
        var account = Accounts.verified("smoke-topup");
        assertThat(account.api().get("/v1/me/balance").json().get("balance").decimalValue())
                .isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);

        var topUp = account.api().post("/v1/billing/top-ups", Map.of("amount", 5));

        assertThat(topUp.status()).as(topUp.toString()).isEqualTo(201);
        assertThat(topUp.json().get("status").asText()).isEqualTo("succeeded");
        assertThat(topUp.json().get("processor").asText()).isEqualTo("embedded");
        var balance = account.api().get("/v1/me/balance").json();
        assertThat(balance.get("balance").decimalValue()).isEqualByComparingTo("25.00");
        assertThat(account.api().get("/v1/me/ledger").json().get("items")).extracting(i -> i.get("kind").asText())
                .containsExactly("top_up", "signup_credit");
    }
}
