package dev.atrium.it;

import static dev.atrium.it.MarketplaceFixtures.approve;
import static dev.atrium.it.MarketplaceFixtures.card;
import static dev.atrium.it.MarketplaceFixtures.developer;
import static dev.atrium.it.MarketplaceFixtures.file;
import static dev.atrium.it.MarketplaceFixtures.submit;
import static dev.atrium.it.MarketplaceFixtures.submitted;
import static dev.atrium.it.MarketplaceFixtures.symlink;
import static dev.atrium.it.MarketplaceFixtures.tarGz;
import static dev.atrium.it.MarketplaceFixtures.unique;
import static dev.atrium.it.MarketplaceFixtures.zip;
import static dev.atrium.it.MarketplaceFixtures.zipEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/** The registry of spec 03: submission and its validation, archive checks, review, takedown, reading, history. */
@ExtendWith(AtriumServer.class)
class MarketplaceIT {

    private static Accounts.Account staff;

    private final Api anonymous = Api.anonymous();

    @BeforeAll
    static void servicesOnly() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
    }

    private static List<String> pointers(Reply reply) {
        var pointers = new ArrayList<String>();
        reply.json().get("errors").forEach(e -> pointers.add(e.get("pointer").asText()));
        return pointers;
    }

    private static List<String> actions(Reply history) {
        var actions = new ArrayList<String>();
        history.json().get("items").forEach(e -> actions.add(e.get("action").asText()));
        return actions;
    }

    @Test
    void whenADeveloperSubmitsAValidCardThenItIsPendingReviewFor24Hours() {
        var dev = developer(staff, "submitter");
        String name = unique("summarizer");
        Instant before = Instant.now();

        var reply = submit(dev.api(), card(name), MarketplaceFixtures.HELLO_BUNDLE);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        JsonNode answer = reply.json();
        assertThat(answer.get("status").asText()).isEqualTo("pending_review");
        Instant due = Instant.parse(answer.get("estimated_review").asText());
        assertThat(due).isBetween(before.plus(Duration.ofHours(24)).minusSeconds(5),
                Instant.now().plus(Duration.ofHours(24)).plusSeconds(5));
        assertThat(answer.at("/smoke_tests/status").asText()).isEqualTo("passed");
        assertThat(answer.get("checks")).extracting(c -> c.get("status").asText()).doesNotContain("failed");
        String id = answer.get("agent_id").asText();
        assertThat(reply.header("Location")).isEqualTo("/v1/agents/" + id);

        var record = dev.api().get("/v1/agents/" + id).json();
        assertThat(record.get("status").asText()).isEqualTo("pending");
        assertThat(record.get("trust_level").asText()).isEqualTo("unverified");
        assertThat(record.get("author_id").asLong()).isEqualTo(dev.id());
        assertThat(record.get("author_name").asText()).isEqualTo(dev.username());
        assertThat(record.get("version").asText()).isEqualTo("1.0.0");
        assertThat(record.get("downloads").asLong()).isZero();
        assertThat(record.get("avg_rating").asInt()).isZero();
        assertThat(record.get("smoke_tests").asText()).isEqualTo("passed");
        assertThat(record.at("/agent_card/name").asText()).isEqualTo(name);
        assertThat(record.get("capabilities")).extracting(JsonNode::asText).containsExactly("do-one-thing");
        assertThat(record.at("/pricing/model").asText()).isEqualTo("per_call");

        assertThat(anonymous.get("/v1/agents/" + id).status()).isEqualTo(404);
        assertThat(Accounts.verified("other").api().get("/v1/agents/" + id).status()).isEqualTo(404);
        assertThat(staff.api().get("/v1/agents/" + id).status()).isEqualTo(200);
        var mine = dev.api().get("/v1/me/agents").json();
        assertThat(mine.get("total").asLong()).isEqualTo(1);
        assertThat(mine.at("/items/0/id").asText()).isEqualTo(id);

        var queue = staff.api().get("/v1/admin/submissions?status=pending_review&agent_id=" + id).json();
        assertThat(queue.get("total").asLong()).isEqualTo(1);
        assertThat(queue.at("/items/0/name").asText()).isEqualTo(name);
        assertThat(queue.at("/items/0/smoke_tests/status").asText()).isEqualTo("passed");
        assertThat(queue.at("/items/0/checks/0/name").asText()).isEqualTo("smoke_tests");
        assertThat(queue.at("/items/0/bundle_size").asLong()).isPositive();
    }

    @Test
    void whenTheCardBreaksTheSchemaThenRejectedListingEveryErrorWithItsPointer() {
        var dev = developer(staff, "sloppy");
        var card = card(unique("broken"));
        card.put("name", "Not A Slug").put("version", "1.0").put("quality_score", 9).remove("description");
        card.withObject("/input_schema").putObject("properties").putObject("text").put("type", "strin");

        var reply = submit(dev.api(), card, MarketplaceFixtures.HELLO_BUNDLE);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(422);
        assertThat(reply.json().get("status").asText()).isEqualTo("rejected");
        assertThat(reply.code()).isEqualTo(40001);
        assertThat(pointers(reply)).contains("/name", "/version", "/quality_score", "/description")
                .anyMatch(p -> p.startsWith("/input_schema/properties/text/type"));
        reply.json().get("errors").forEach(e -> {
            assertThat(e.get("part").asText()).isEqualTo("card");
            assertThat(e.get("message").asText()).isNotBlank();
        });
        assertThat(dev.api().get("/v1/me/agents").json().get("total").asLong()).isZero();
    }

    @Test
    void whenTheCardIsNotJsonOrMissingThenMalformedOrInvalid() {
        var dev = developer(staff, "garbled");

        var notJson = submit(dev.api(), "{this is not json", MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(notJson.status()).as(notJson.toString()).isEqualTo(400);
        assertThat(notJson.code()).isEqualTo(40000);
        assertThat(notJson.json().at("/error/details").asText()).startsWith("card:");

        var notAnObject = submit(dev.api(), "[1, 2]", MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(notAnObject.status()).isEqualTo(422);
        assertThat(notAnObject.json().get("status").asText()).isEqualTo("rejected");
        assertThat(pointers(notAnObject)).containsExactly("");

        var noCard = dev.api().send("POST", "/v1/agents", "--b\r\nContent-Disposition: form-data; name=\"bundle\""
                + "\r\n\r\nxyz\r\n--b--\r\n", "multipart/form-data; boundary=b");
        assertThat(noCard.status()).as(noCard.toString()).isEqualTo(422);
        assertThat(noCard.json().at("/error/details").asText()).contains("card");
    }

    @Test
    void whenATestCaseDoesNotFitTheInputSchemaOrTheBundleLacksAnEntrypointThenRejected() {
        var dev = developer(staff, "careless");
        var card = card(unique("mismatch"));
        card.withArray("/test_cases").addObject().put("name", "wrong").putObject("expected");
        ((com.fasterxml.jackson.databind.node.ObjectNode) card.get("test_cases").get(1)).putObject("input")
                .put("text", 42);
        card.withObject("/runtime").remove("entrypoint");
        card.withObject("/runtime").put("docker_image", "registry.example/agents/x:1.0.0");

        var reply = submit(dev.api(), card, MarketplaceFixtures.HELLO_BUNDLE);

        assertThat(reply.status()).isEqualTo(422);
        assertThat(pointers(reply)).contains("/test_cases/1/input/text", "/runtime/entrypoint");
    }

    @Test
    void whenTheAgentRunsFromAnImageThenNoBundleIsNeeded() {
        var dev = developer(staff, "imager");
        var card = card(unique("image-agent"));
        card.withObject("/runtime").remove("entrypoint");
        card.withObject("/runtime").put("docker_image", "registry.example/agents/image-agent:1.0.0");

        var reply = submit(dev.api(), card, null);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        // no container runtime runs images here: the smoke tests are not run, and say why
        assertThat(reply.json().at("/smoke_tests/status").asText()).isEqualTo("not_run");
        assertThat(reply.json().at("/smoke_tests/detail").asText()).contains("image");
        String id = reply.json().get("agent_id").asText();
        assertThat(dev.api().get("/v1/agents/" + id).json().get("docker_image").asText())
                .isEqualTo("registry.example/agents/image-agent:1.0.0");
        var withoutBoth = card(unique("nothing-to-run"));
        assertThat(pointers(submit(dev.api(), withoutBoth, null))).containsExactly("/runtime/docker_image");
    }

    @Test
    void whenTheBundleTriesToEscapeThenRejectedNamingTheEntry() {
        var dev = developer(staff, "attacker");
        Map<String, byte[]> attacks = Map.of(
                "../../etc/cron.d/x", tarGz(tar -> file(tar, "../../etc/cron.d/x", "* * * * * root sh")),
                "/etc/passwd", zip(z -> zipEntry(z, "/etc/passwd", "root::0:0", false)),
                "lib/escape", tarGz(tar -> {
                    file(tar, "main.py", "print(1)");
                    symlink(tar, "lib/escape", "../../../root/.ssh");
                }),
                "home", zip(z -> zipEntry(z, "home", "/home", true)));

        attacks.forEach((entry, bundle) -> {
            var reply = submit(dev.api(), card(unique("sneaky")), bundle);

            assertThat(reply.status()).as(entry + ": " + reply).isEqualTo(422);
            assertThat(reply.json().get("status").asText()).isEqualTo("rejected");
            JsonNode error = reply.json().at("/errors/0");
            assertThat(error.get("part").asText()).isEqualTo("bundle");
            assertThat(error.get("pointer").asText()).isEqualTo(entry);
        });
        var notAnArchive = submit(dev.api(), card(unique("sneaky")), "MZ\u0090 an executable".getBytes());
        assertThat(notAnArchive.status()).isEqualTo(422);
        assertThat(notAnArchive.json().at("/errors/0/message").asText()).contains(".tar.gz or .zip");
        assertThat(dev.api().get("/v1/me/agents").json().get("total").asLong()).isZero();
    }

    @Test
    void whenTheBundleIsOverTheLimitThen413() {
        var dev = developer(staff, "hoarder");
        byte[] big = new byte[(int) AtriumServer.BUNDLE_MAX_BYTES + 1];
        new java.util.Random(1).nextBytes(big);

        var reply = submit(dev.api(), card(unique("huge")), big);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(413);
        assertThat(reply.code()).isEqualTo(41300);
    }

    @Test
    void whenNotSignedInOrNotAReviewerThenRefused() {
        assertThat(submit(anonymous, card(unique("nope")), MarketplaceFixtures.HELLO_BUNDLE).status())
                .isEqualTo(401);
        assertThat(anonymous.get("/v1/me/agents").status()).isEqualTo(401);
        var dev = developer(staff, "ambitious");
        String id = submitted(dev, card(unique("self-approval")));
        var selfApproval = dev.api().post("/v1/admin/agents/" + id + "/approve", Map.of());
        assertThat(selfApproval.status()).isEqualTo(403);
        assertThat(selfApproval.json().at("/error/message").asText()).contains("agent:review");
        assertThat(dev.api().get("/v1/admin/submissions").status()).isEqualTo(403);
    }

    @Test
    void whenApprovedThenActiveVisibleToAllAndTheMoveIsRecorded() {
        var dev = developer(staff, "approved");
        String id = submitted(dev, card(unique("approvable")));

        var approved = staff.api().post("/v1/admin/agents/" + id + "/approve",
                Map.of("note", "Clear description, fair price"));

        assertThat(approved.status()).as(approved.toString()).isEqualTo(200);
        assertThat(approved.json().get("status").asText()).isEqualTo("active");
        assertThat(approved.json().get("trust_level").asText()).isEqualTo("unverified");
        assertThat(anonymous.get("/v1/agents/" + id).status()).isEqualTo(200);
        var history = dev.api().get("/v1/agents/" + id + "/history?sort=created_at");
        assertThat(actions(history)).containsExactly("submitted", "approved");
        JsonNode approval = history.json().at("/items/1");
        assertThat(approval.get("from_status").asText()).isEqualTo("pending");
        assertThat(approval.get("to_status").asText()).isEqualTo("active");
        assertThat(approval.get("actor_id").asLong()).isEqualTo(staff.id());
        assertThat(approval.get("reason").asText()).isEqualTo("Clear description, fair price");
        assertThat(approval.get("created_at").asText()).endsWith("Z");
        var decided = staff.api().get("/v1/admin/submissions?agent_id=" + id).json();
        assertThat(decided.at("/items/0/status").asText()).isEqualTo("approved");
        assertThat(decided.at("/items/0/decided_by").asLong()).isEqualTo(staff.id());
        assertThat(staff.api().post("/v1/admin/agents/" + id + "/approve", Map.of()).status())
                .isEqualTo(409);
    }

    @Test
    void whenRejectedThenTheAuthorReadsTheReasonsAndMayResubmitANewVersion() {
        var dev = developer(staff, "rejected");
        var card = card(unique("rejectable"));
        String id = submitted(dev, card);

        var rejected = staff.api().post("/v1/admin/agents/" + id + "/reject",
                Map.of("reasons", List.of("The description promises OCR the agent does not do", "No pricing page")));

        assertThat(rejected.status()).as(rejected.toString()).isEqualTo(200);
        assertThat(rejected.json().get("status").asText()).isEqualTo("rejected");
        assertThat(anonymous.get("/v1/agents/" + id).status()).isEqualTo(404);
        var history = dev.api().get("/v1/agents/" + id + "/history?sort=created_at").json();
        assertThat(history.at("/items/1/action").asText()).isEqualTo("rejected");
        assertThat(history.at("/items/1/reason").asText()).contains("promises OCR", "No pricing page");
        assertThat(staff.api().post("/v1/admin/agents/" + id + "/reject", Map.of("reasons", List.of()))
                .status()).isEqualTo(422);

        card.put("version", "1.0.1");
        var resubmitted = submit(dev.api(), card, MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(resubmitted.status()).as(resubmitted.toString()).isEqualTo(202);
        assertThat(resubmitted.json().get("agent_id").asText()).isEqualTo(id);
        var record = dev.api().get("/v1/agents/" + id).json();
        assertThat(record.get("status").asText()).isEqualTo("pending");
        assertThat(record.get("version").asText()).isEqualTo("1.0.1");
    }

    @Test
    void whenTakenDownThenSuspendedAndAFixedVersionGoesBackThroughReview() {
        var dev = developer(staff, "takedown");
        var card = card(unique("takedownable"));
        String id = submitted(dev, card);
        approve(staff, id);
        var admin = staff.api();

        assertThat(admin.post("/v1/admin/agents/" + id + "/takedown", Map.of("reason", "being_rude",
                "details", "x")).status()).isEqualTo(422);
        var takenDown = admin.post("/v1/admin/agents/" + id + "/takedown", Map.of("reason", "hidden_charging",
                "details", "Charges per token after the free quota without saying so"));

        assertThat(takenDown.status()).as(takenDown.toString()).isEqualTo(200);
        assertThat(takenDown.json().get("status").asText()).isEqualTo("suspended");
        assertThat(anonymous.get("/v1/agents/" + id).status()).isEqualTo(404);
        assertThat(admin.post("/v1/admin/agents/" + id + "/takedown", Map.of("reason", "hidden_charging",
                "details", "again")).status()).isEqualTo(409);

        card.put("version", "1.1.0");
        assertThat(submit(dev.api(), card, MarketplaceFixtures.HELLO_BUNDLE).status()).isEqualTo(202);
        assertThat(dev.api().get("/v1/agents/" + id).json().get("status").asText()).isEqualTo("pending");
        approve(staff, id);

        var history = dev.api().get("/v1/agents/" + id + "/history?sort=created_at");
        assertThat(actions(history)).containsExactly("submitted", "approved", "taken_down", "resubmitted",
                "approved");
        JsonNode takedown = history.json().at("/items/2");
        assertThat(takedown.get("reason_code").asText()).isEqualTo("hidden_charging");
        assertThat(takedown.get("reason").asText()).contains("free quota");
        assertThat(takedown.get("from_status").asText()).isEqualTo("active");
        assertThat(takedown.get("to_status").asText()).isEqualTo("suspended");
        assertThat(history.json().at("/items/3/version").asText()).isEqualTo("1.1.0");
        assertThat(history.json().at("/items/3/actor_id").asLong()).isEqualTo(dev.id());
        assertThat(Accounts.verified("nosy").api().get("/v1/agents/" + id + "/history").status()).isEqualTo(404);
    }

    @Test
    void whenTheNameIsTakenOrTheVersionNotHigherThenConflict() {
        var owner = developer(staff, "owner");
        var card = card(unique("contested"));
        submitted(owner, card);

        var squatter = developer(staff, "squatter");
        var taken = submit(squatter.api(), card, MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(taken.status()).as(taken.toString()).isEqualTo(409);
        assertThat(taken.json().at("/error/message").asText()).contains("taken");

        var sameVersion = submit(owner.api(), card, MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(sameVersion.status()).isEqualTo(409);
        assertThat(sameVersion.json().at("/error/message").asText()).contains("higher");
    }

    @Test
    void whenAFreeTierDeveloperPublishesAFourthAgentThenRefused() {
        var dev = developer(staff, "prolific");
        for (int i = 0; i < 3; i++) {
            submitted(dev, card(unique("agent" + i)));
        }

        var fourth = submit(dev.api(), card(unique("agent4")), MarketplaceFixtures.HELLO_BUNDLE);

        assertThat(fourth.status()).as(fourth.toString()).isEqualTo(403);
        assertThat(fourth.json().at("/error/message").asText()).contains("at most 3");
    }

    @Test
    void whenListingThenActiveOnlyWithFiltersAndSorting() {
        String category = unique("cat");
        var low = card(unique("low-quality"), "Low", "An agent of modest quality for list tests.", category,
                List.of("list-things"));
        low.put("quality_score", 1.5);
        var high = card(unique("high-quality"), "High", "An agent of high quality for list tests.", category,
                List.of("list-things"));
        high.put("quality_score", 4.8);
        String lowId = MarketplaceFixtures.listed(staff, low);
        String highId = MarketplaceFixtures.listed(staff, high);
        var dev = developer(staff, "lister");
        String pendingId = submitted(dev, card(unique("pending-one"), "Pending", "Not reviewed yet, for lists.",
                category, List.of("list-things")));

        var byQuality = anonymous.get("/v1/agents?category=" + category + "&sort=-quality_score").json();
        assertThat(byQuality.get("total").asLong()).isEqualTo(2);
        assertThat(byQuality.get("items")).extracting(n -> n.get("id").asText())
                .containsExactlyInAnyOrder(highId, lowId);
        assertThat(byQuality.get("items")).as("a card's own quality score is never taken: neutral until measured")
                .extracting(n -> n.get("quality_score").asDouble()).containsOnly(2.5);
        // equal measured quality (none yet) and freshness: the two rank alike, and the cursor walks both once
        var byRanking = anonymous.get("/v1/agents?category=" + category + "&sort=ranking_score&limit=1").json();
        var next = anonymous.get("/v1/agents?category=" + category + "&sort=ranking_score&limit=1&cursor="
                + byRanking.get("next_cursor").asText()).json();
        assertThat(List.of(byRanking.at("/items/0/id").asText(), next.at("/items/0/id").asText()))
                .containsExactlyInAnyOrder(lowId, highId);
        assertThat(anonymous.get("/v1/agents?category=" + category + "&sort=-downloads,created_at").status())
                .isEqualTo(200);
        assertThat(anonymous.get("/v1/agents?category=" + category + "&author_id=" + dev.id()).json()
                .get("total").asLong()).isZero();
        assertThat(anonymous.get("/v1/agents?category=" + category + "&trust_level=unverified").json()
                .get("total").asLong()).isEqualTo(2);
        assertThat(anonymous.get("/v1/agents?category=" + category + "&trust_level=official").json()
                .get("total").asLong()).isZero();

        assertThat(anonymous.get("/v1/agents?status=pending").status()).isEqualTo(403);
        var pending = staff.api().get("/v1/agents?category=" + category + "&status=pending").json();
        assertThat(pending.get("items")).extracting(n -> n.get("id").asText()).containsExactly(pendingId);
        assertThat(dev.api().get("/v1/me/agents?status=pending").json().at("/items/0/id").asText())
                .isEqualTo(pendingId);
    }

    @Test
    void whenTheSchemaIsAskedForThenTheDraft2020TwelveCardSchemaIsServed() {
        var reply = anonymous.get("/v1/schemas/agent-card");

        assertThat(reply.status()).isEqualTo(200);
        JsonNode schema = reply.json();
        assertThat(schema.get("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(schema.get("required")).extracting(JsonNode::asText).contains("name", "version", "capabilities");
        assertThat(schema.at("/properties/trust_level/enum")).extracting(JsonNode::asText)
                .contains("community_verified");
    }
}
