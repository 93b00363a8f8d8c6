package dev.atrium.it;

import static dev.atrium.it.MarketplaceFixtures.approve;
import static dev.atrium.it.MarketplaceFixtures.awaitSearch;
import static dev.atrium.it.MarketplaceFixtures.card;
import static dev.atrium.it.MarketplaceFixtures.ids;
import static dev.atrium.it.MarketplaceFixtures.submitted;
import static dev.atrium.it.MarketplaceFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Trust and safety of issues 9 and 48 through the running server: self-service publishing, no trust at approval, the
 * administrator's trust moves, and security reports by users who called the agent, which suspend it pending review
 * (trust kept) until a reviewer reinstates it. The automatic promotion is TrustPromotionIT.
 */
@ExtendWith(AtriumServer.class)
class TrustAndReportsIT {

    private static Accounts.Account staff;

    private final Api anonymous = Api.anonymous();

    @BeforeAll
    static void servicesOnly() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
    }

    private static List<JsonNode> history(Accounts.Account who, String id) {
        var reply = who.api().get("/v1/agents/" + id + "/history?sort=created_at&limit=100");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var events = new ArrayList<JsonNode>();
        reply.json().get("items").forEach(events::add);
        return events;
    }

    private static List<String> codes(List<JsonNode> events, String action) {
        return events.stream().filter(e -> e.get("action").asText().equals(action))
                .map(e -> e.get("reason_code").asText()).toList();
    }

    private Reply trust(Accounts.Account who, String id, String level, String note) {
        var body = new HashMap<String, Object>();
        body.put("level", level);
        if (note != null) {
            body.put("note", note);
        }
        return who.api().post("/v1/admin/agents/" + id + "/trust", body);
    }

    private static Reply report(Accounts.Account who, String id, String reason, String details) {
        return who.api().post("/v1/agents/" + id + "/reports", Map.of("reason", reason, "details", details));
    }

    /** A verified user who called the agent successfully once: whose report counts. */
    private static Accounts.Account caller(String prefix, String id) {
        var user = Accounts.verified(prefix);
        var reply = user.api().post("/v1/agents/" + id + "/invoke", Map.of("text", "hello"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return user;
    }

    private static Reply reinstate(Accounts.Account who, String id, String note) {
        return who.api().post("/v1/admin/agents/" + id + "/reinstate", Map.of("note", note));
    }

    private String status(Accounts.Account author, String id) {
        return author.api().get("/v1/agents/" + id).json().get("status").asText();
    }

    @Test
    void whenAPlainVerifiedUserSubmitsThenAcceptedWithoutAnyRoleGranted() {
        var author = Accounts.verified("self-service");

        String id = submitted(author, card(unique("self-served")));

        var mine = author.api().get("/v1/me/agents");
        assertThat(mine.status()).as(mine.toString()).isEqualTo(200);
        assertThat(mine.json().at("/items/0/id").asText()).isEqualTo(id);
        assertThat(mine.json().at("/items/0/trust_level").asText()).isEqualTo("unverified");
        assertThat(author.api().get("/me/permissions").json().get("roles")).extracting(JsonNode::asText)
                .containsExactly("user");
    }

    @Test
    void whenTheEmailIsNotVerifiedThenNoSignInSoNoPublishing() {
        String email = Accounts.uniqueEmail("unverified");
        var registered = anonymous.post("/register", Map.of("email", email, "username",
                "unv-" + UUID.randomUUID().toString().substring(0, 8), "password", Accounts.PASSWORD));
        assertThat(registered.status()).as(registered.toString()).isEqualTo(200);

        var login = anonymous.post("/login", Map.of("email", email, "password", Accounts.PASSWORD));

        assertThat(login.status()).as(login.toString()).isEqualTo(403);
        assertThat(login.json().at("/error/message").asText()).contains("not verified");
        assertThat(MarketplaceFixtures.submit(anonymous, card(unique("never")), MarketplaceFixtures.HELLO_BUNDLE)
                .status()).isEqualTo(401);
    }

    @Test
    void whenTheApprovalCarriesATrustLevelThenRefusedAndTheApprovedAgentStaysUnverified() {
        var author = Accounts.verified("hopeful");
        String id = submitted(author, card(unique("trust-me")));

        var granting = staff.api().post("/v1/admin/agents/" + id + "/approve",
                Map.of("trust_level", "official", "note", "looks fine"));

        assertThat(granting.status()).as(granting.toString()).isEqualTo(422);
        assertThat(granting.json().at("/error/details").asText()).contains("trust_level")
                .contains("never granted at approval");
        assertThat(author.api().get("/v1/agents/" + id).json().get("status").asText()).isEqualTo("pending");

        approve(staff, id);

        var agent = anonymous.get("/v1/agents/" + id).json();
        assertThat(agent.get("trust_level").asText()).isEqualTo("unverified");
        assertThat(codes(history(author, id), "trust_changed")).isEmpty();
    }

    @Test
    void whenAnAdministratorMovesTrustThenOneStepUpAtATimeAndEachMoveIsRecorded() {
        var author = Accounts.verified("audited");
        String id = submitted(author, card(unique("audited")));
        approve(staff, id);

        var skipping = trust(staff, id, "official", "skip the line");
        assertThat(skipping.status()).as(skipping.toString()).isEqualTo(409);
        assertThat(skipping.json().at("/error/message").asText()).contains("community first");
        assertThat(trust(staff, id, "community", null).status()).isEqualTo(422);
        assertThat(trust(staff, id, "gold", "no such level").status()).isEqualTo(422);
        assertThat(trust(staff, UUID.randomUUID().toString(), "community", "nobody").status()).isEqualTo(404);

        var community = trust(staff, id, "community_verified", "incident cleared after review");
        assertThat(community.status()).as(community.toString()).isEqualTo(200);
        assertThat(community.json().get("trust_level").asText()).isEqualTo("community");
        var official = trust(staff, id, "official", "deep review and security audit passed");
        assertThat(official.status()).as(official.toString()).isEqualTo(200);
        assertThat(official.json().get("trust_level").asText()).isEqualTo("official");
        assertThat(trust(staff, id, "official", "again").status()).isEqualTo(409);
        var demoted = trust(staff, id, "unverified", "audit finding: undeclared telemetry");
        assertThat(demoted.status()).as(demoted.toString()).isEqualTo(200);
        assertThat(demoted.json().get("trust_level").asText()).isEqualTo("unverified");

        var events = history(author, id);
        assertThat(codes(events, "trust_changed")).containsExactly("unverified_to_community",
                "community_to_official", "official_to_unverified");
        JsonNode promotion = events.stream().filter(e -> "community_to_official".equals(e.get("reason_code")
                .asText())).findFirst().orElseThrow();
        assertThat(promotion.get("actor_id").asLong()).isEqualTo(staff.id());
        assertThat(promotion.get("reason").asText()).isEqualTo(
                "community → official: deep review and security audit passed");
        assertThat(promotion.get("from_status").asText()).isEqualTo("active");
        assertThat(promotion.get("to_status").asText()).isEqualTo("active");
    }

    @Test
    void whenNotAnAdministratorThenTrustMovesAndReportListsAreRefused() {
        var author = Accounts.verified("ambitious");
        String id = submitted(author, card(unique("self-promoted")));
        approve(staff, id);

        var self = trust(author, id, "community", "I trust myself");
        assertThat(self.status()).as(self.toString()).isEqualTo(403);
        assertThat(self.json().at("/error/message").asText()).contains("agent:trust");
        assertThat(trust(Accounts.verified("bystander"), id, "community", "why not").status()).isEqualTo(403);
        assertThat(anonymous.post("/v1/admin/agents/" + id + "/trust", Map.of("level", "community", "note", "x"))
                .status()).isEqualTo(401);
        assertThat(author.api().get("/v1/admin/agents/" + id + "/reports").status()).isEqualTo(403);
        assertThat(anonymous.get("/v1/agents/" + id).json().get("trust_level").asText()).isEqualTo("unverified");
    }

    @Test
    void whenReportedThenOncePerUserNeverByTheAuthorOnlyWhileListed() {
        var author = Accounts.verified("reported");
        String pending = submitted(author, card(unique("unreviewed")));
        String id = submitted(author, card(unique("reportable")));
        approve(staff, id);
        var reporter = caller("reporter", id);

        var first = report(reporter, id, "undeclared_access", "It read files outside its directory");
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(first.json().get("agent_id").asText()).isEqualTo(id);
        assertThat(first.json().get("user_id").asLong()).isEqualTo(reporter.id());
        assertThat(first.json().get("reason").asText()).isEqualTo("undeclared_access");
        assertThat(first.json().get("id").asText()).isNotBlank();

        var again = report(reporter, id, "other", "Still bad");
        assertThat(again.status()).as(again.toString()).isEqualTo(409);
        var own = report(author, id, "other", "I report myself");
        assertThat(own.status()).as(own.toString()).isEqualTo(403);
        assertThat(report(reporter, pending, "other", "not listed yet").status()).isEqualTo(404);
        assertThat(report(reporter, UUID.randomUUID().toString(), "other", "nobody").status()).isEqualTo(404);
        assertThat(report(reporter, id, "it-is-evil", "unknown reason").status()).isEqualTo(422);
        assertThat(reporter.api().post("/v1/agents/" + id + "/reports", Map.of("reason", "other")).status())
                .isEqualTo(422);
        assertThat(anonymous.post("/v1/agents/" + id + "/reports", Map.of("reason", "other", "details", "x"))
                .status()).isEqualTo(401);
        assertThat(anonymous.get("/v1/agents/" + id).json().get("status").asText()).isEqualTo("active");
    }

    @Test
    void whenThreeDistinctCallersReportThenSuspendedOutOfSearchPendingReviewWithTrustKept() {
        var author = Accounts.verified("exfiltrator");
        String category = unique("exfil");
        String capability = unique("harvest-secrets");
        String id = submitted(author, card(unique("harvester"), "Secret Harvester",
                "Summarizes your documents and quietly keeps a copy of them.", category, List.of(capability)));
        approve(staff, id);
        assertThat(trust(staff, id, "community", "clean record so far").status()).isEqualTo(200);
        String query = "q=" + capability + "&category=" + category;
        assertThat(ids(awaitSearch(anonymous, query, r -> ids(r).contains(id)))).contains(id);
        var victims = List.of(caller("victim-a", id), caller("victim-b", id), caller("victim-c", id),
                caller("victim-d", id));

        for (var victim : victims.subList(0, 2)) {
            var reply = report(victim, id, "data_exfiltration", "It sent my document away");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        }
        assertThat(anonymous.get("/v1/agents/" + id).status()).isEqualTo(200);
        var third = report(victims.get(2), id, "credential_theft", "It asked for my password");
        assertThat(third.status()).as(third.toString()).isEqualTo(201);

        assertThat(anonymous.get("/v1/agents/" + id).status()).isEqualTo(404);
        var record = author.api().get("/v1/agents/" + id).json();
        assertThat(record.get("status").asText()).isEqualTo("suspended");
        assertThat(record.get("trust_level").asText()).as("reports are claims, not an incident")
                .isEqualTo("community");
        assertThat(ids(awaitSearch(anonymous, query, r -> !ids(r).contains(id)))).doesNotContain(id);
        assertThat(anonymous.get("/v1/agents?category=" + category).json().get("total").asLong()).isZero();

        var events = history(author, id);
        JsonNode takedown = events.stream().filter(e -> "taken_down".equals(e.get("action").asText())).findFirst()
                .orElseThrow();
        assertThat(takedown.get("reason_code").asText()).isEqualTo("security_reports");
        assertThat(takedown.get("reason").asText()).contains("pending review");
        assertThat(takedown.get("actor_id").asLong()).isZero();
        assertThat(takedown.get("from_status").asText()).isEqualTo("active");
        assertThat(takedown.get("to_status").asText()).isEqualTo("suspended");
        assertThat(codes(events, "incident")).isEmpty();
        assertThat(codes(events, "trust_changed")).containsExactly("unverified_to_community");
        assertThat(report(victims.get(3), id, "other", "too late").status()).isEqualTo(404);
        var alerts = staff.api().get("/admin/alerts?kind=agent_reports&subject=agent:" + id).json();
        assertThat(alerts.get("total").asLong()).isEqualTo(1);
        assertThat(alerts.at("/items/0/details").asText()).contains("security_reports")
                .contains("trust community kept");

        var reports = staff.api().get("/v1/admin/agents/" + id + "/reports?sort=created_at");
        assertThat(reports.status()).as(reports.toString()).isEqualTo(200);
        assertThat(reports.json().get("total").asLong()).isEqualTo(3);
        assertThat(reports.json().get("items")).extracting(r -> r.get("reason").asText())
                .containsExactly("data_exfiltration", "data_exfiltration", "credential_theft");
        assertThat(staff.api().get("/v1/admin/agents/" + id + "/reports?reason=credential_theft").json()
                .get("total").asLong()).isEqualTo(1);
        assertThat(staff.api().get("/v1/admin/agents/" + UUID.randomUUID() + "/reports").status()).isEqualTo(404);
    }

    @Test
    void whenThreeStrangersWhoNeverCalledTheAgentReportThenRefusedAndTheAgentStaysActive() {
        var author = Accounts.verified("official-author");
        String id = submitted(author, card(unique("well-trusted")));
        approve(staff, id);
        assertThat(trust(staff, id, "community", "audited").status()).isEqualTo(200);
        assertThat(trust(staff, id, "official", "deep review and security audit passed").status()).isEqualTo(200);

        for (String prefix : List.of("stranger-a", "stranger-b", "stranger-c")) {
            var reply = report(Accounts.verified(prefix), id, "malicious_code", "I heard it is evil");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
            assertThat(reply.json().at("/error/message").asText()).contains("called this agent successfully");
        }

        var record = anonymous.get("/v1/agents/" + id);
        assertThat(record.status()).isEqualTo(200);
        assertThat(record.json().get("status").asText()).isEqualTo("active");
        assertThat(record.json().get("trust_level").asText()).isEqualTo("official");
        assertThat(staff.api().get("/v1/admin/agents/" + id + "/reports").json().get("total").asLong()).isZero();
        assertThat(codes(history(author, id), "taken_down")).isEmpty();
    }

    @Test
    void whenReinstatedThenActiveWithTheSameTrustAndAFourthReportAloneDoesNotSuspend() {
        var author = Accounts.verified("wrongly-accused");
        String id = submitted(author, card(unique("accused")));
        approve(staff, id);
        assertThat(trust(staff, id, "community", "clean record so far").status()).isEqualTo(200);
        var callers = List.of(caller("accuser-a", id), caller("accuser-b", id), caller("accuser-c", id),
                caller("accuser-d", id));
        for (var accuser : callers.subList(0, 3)) {
            assertThat(report(accuser, id, "malicious_code", "Looks odd").status()).isEqualTo(201);
        }
        assertThat(status(author, id)).isEqualTo("suspended");

        var approving = staff.api().post("/v1/admin/agents/" + id + "/approve", Map.of());
        assertThat(approving.status()).as(approving.toString()).isEqualTo(409);
        assertThat(approving.json().at("/error/message").asText()).contains("/reinstate");
        assertThat(reinstate(author, id, "I am innocent").status()).isEqualTo(403);
        assertThat(staff.api().post("/v1/admin/agents/" + id + "/reinstate", Map.of()).status()).isEqualTo(422);
        assertThat(reinstate(staff, UUID.randomUUID().toString(), "nobody").status()).isEqualTo(404);

        var reinstated = reinstate(staff, id, "Reviewed the reports: the agent only reads its own files");

        assertThat(reinstated.status()).as(reinstated.toString()).isEqualTo(200);
        assertThat(reinstated.json().get("status").asText()).isEqualTo("active");
        assertThat(reinstated.json().get("trust_level").asText()).isEqualTo("community");
        assertThat(anonymous.get("/v1/agents/" + id).json().get("trust_level").asText()).isEqualTo("community");
        assertThat(reinstate(staff, id, "again").status()).isEqualTo(409);
        var events = history(author, id);
        assertThat(events).extracting(e -> e.get("action").asText()).containsSubsequence("taken_down",
                "reinstated");
        JsonNode reinstatement = events.stream().filter(e -> "reinstated".equals(e.get("action").asText()))
                .findFirst().orElseThrow();
        assertThat(reinstatement.get("actor_id").asLong()).isEqualTo(staff.id());
        assertThat(reinstatement.get("reason_code").asText()).isEqualTo("security_reports");
        assertThat(reinstatement.get("from_status").asText()).isEqualTo("suspended");
        assertThat(reinstatement.get("to_status").asText()).isEqualTo("active");
        assertThat(reinstatement.get("reason").asText()).contains("only reads its own files");

        var fourth = report(callers.get(3), id, "malicious_code", "Still looks odd to me");

        assertThat(fourth.status()).as(fourth.toString()).isEqualTo(201);
        assertThat(status(author, id)).as("reports count afresh after a reinstatement").isEqualTo("active");
        assertThat(anonymous.get("/v1/agents/" + id).status()).isEqualTo(200);
    }

    @Test
    void whenOneUserReportsMoreThanFiveTimesAnHourThen429InTheEnvelope() {
        var busy = Accounts.verified("busy-reporter");
        for (int i = 0; i < 5; i++) {
            assertThat(report(busy, UUID.randomUUID().toString(), "other", "probe " + i).status()).isEqualTo(404);
        }

        var sixth = report(busy, UUID.randomUUID().toString(), "other", "one too many");

        assertThat(sixth.status()).as(sixth.toString()).isEqualTo(429);
        assertThat(sixth.json().at("/error/code").asInt()).isEqualTo(42900);
        assertThat(sixth.json().at("/error/details").asText()).contains("5 reports an hour");
        assertThat(Long.parseLong(sixth.header("Retry-After"))).isPositive();
    }
}
