package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Users' reviews through the running server: eligibility counted from the reviewer's own successful uses, one review
 * per user (a new one replaces the old), the agent's averages, the author refused, the list, and hostile bodies.
 */
@ExtendWith(AtriumServer.class)
class AgentReviewsIT {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);

    private static Accounts.Account staff;
    private static InvokeFixtures.Listed agent;

    @BeforeAll
    static void setUp() {
        staff = MarketplaceFixtures.staff();
        ObjectNode card = InvokeFixtures.pythonCard("reviewed");
        agent = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
    }

    private static void use(Accounts.Account user, int times, String text) {
        for (int i = 0; i < times; i++) {
            var reply = InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", text));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        }
    }

    private static Reply review(Accounts.Account user, Object body) {
        return user.api().post("/v1/agents/" + agent.id() + "/reviews", body);
    }

    @Test
    void whenAUserHasFewerThanThreeSuccessfulUsesThenForbiddenAfterTheThirdTheReviewCountsAndReplaces() {
        var user = Accounts.verified("reviewer-a");
        use(user, 2, "hi");
        use(user, 1, "fail");

        var early = review(user, Map.of("rating", 5, "comment", "Great"));
        assertThat(early.status()).as(early.toString()).isEqualTo(403);
        assertThat(early.json().at("/error/code").asInt()).isEqualTo(40301);
        assertThat(early.json().at("/error/details").asText()).contains("you have 2");

        use(user, 1, "hi");
        var first = review(user, Map.of("rating", 4, "comment", "Does what it says"));
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(first.json().get("usage_count").asLong()).isEqualTo(3);
        assertThat(first.json().get("verified_purchase").asBoolean()).as("charged for every call").isTrue();
        var second = review(user, Map.of("rating", 2, "comment", "Got slower"));
        assertThat(second.status()).as(second.toString()).isEqualTo(200);
        assertThat(second.json().get("id").asText()).isEqualTo(first.json().get("id").asText());

        var other = Accounts.verified("reviewer-b");
        use(other, 3, "hi");
        assertThat(review(other, Map.of("rating", 5, "comment", "")).status()).isEqualTo(201);

        var record = Api.anonymous().get("/v1/agents/" + agent.id()).json();
        assertThat(record.get("review_count").asLong()).isEqualTo(2);
        assertThat(record.get("avg_rating_exact").asDouble()).isEqualTo(3.5);
        assertThat(record.get("avg_rating").asInt()).as("3.5 rounds half up").isEqualTo(4);

        var list = Api.anonymous().get("/v1/agents/" + agent.id() + "/reviews?sort=rating");
        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        assertThat(list.json().get("items")).extracting(n -> n.get("rating").asInt()).containsExactly(2, 5);
        var fives = Api.anonymous().get("/v1/agents/" + agent.id() + "/reviews?rating=5");
        assertThat(fives.json().get("items")).hasSize(1);
    }

    @Test
    void whenTheAuthorReviewsOrTheAgentIsUnknownThenRefused() {
        assertThat(review(agent.author(), Map.of("rating", 5, "comment", "Mine is great")).status()).isEqualTo(403);
        var user = Accounts.verified("reviewer-c");
        var unknown = user.api().post("/v1/agents/00000000-0000-0000-0000-000000000000/reviews",
                Map.of("rating", 5, "comment", "x"));
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(Api.anonymous().post("/v1/agents/" + agent.id() + "/reviews", Map.of("rating", 5,
                "comment", "x")).status()).isEqualTo(401);
    }

    @Test
    void whenTheBodyIsHostileThenAClearClientErrorNeverAServerError() {
        var user = Accounts.verified("reviewer-d");
        use(user, 3, "hi");
        var bodies = new ArrayList<Object>(List.of(
                Map.of("rating", 4.5, "comment", "fraction"),
                Map.of("rating", 0, "comment", "zero"), Map.of("rating", 6, "comment", "six"),
                Map.of("rating", 99999999999L, "comment", "huge"), Map.of("comment", "no rating"),
                Map.of("rating", 3), Map.of("rating", 3, "comment", "x".repeat(4001)),
                Map.of("rating", 3, "comment", "nul \u0000 inside"), Map.of("rating", 3, "comment", "bell \u0007"),
                Map.of("rating", 3, "comment", Map.of("nested", List.of(1, 2))), List.of(1, 2, 3), "just text",
                Map.of("rating", List.of(5), "comment", "array")));
        var random = new Random(SEED);
        for (int i = 0; i < 20; i++) {
            var text = new StringBuilder();
            for (int j = 0; j < random.nextInt(30); j++) {
                text.append((char) random.nextInt(0x80));
            }
            bodies.add("{\"rating\": " + text + ", \"comment\": \"" + text + "\"}");
        }
        var failures = new ArrayList<String>();
        for (Object body : bodies) {
            Reply reply = body instanceof String s ? user.api().send("POST", "/v1/agents/" + agent.id()
                    + "/reviews", s.getBytes(java.nio.charset.StandardCharsets.UTF_8), "application/json")
                    : review(user, body);
            if (reply.status() < 400 || reply.status() > 499 || reply.json().at("/error/code").asInt() <= 0) {
                failures.add(body + " → " + reply);
            }
        }
        assertThat(failures).isEmpty();
        assertThat(review(user, Map.of("rating", 3, "comment", "tabs\tand\nnew lines are fine")).status())
                .isEqualTo(201);
    }
}
