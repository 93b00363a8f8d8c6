package dev.atrium.it;

import static dev.atrium.it.MarketplaceFixtures.approve;
import static dev.atrium.it.MarketplaceFixtures.card;
import static dev.atrium.it.MarketplaceFixtures.submitted;
import static dev.atrium.it.MarketplaceFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Trust is earned from strangers through real invocations (issue 48, DESIGN 16): an unverified agent becomes
 * {@code community} with the 100th successful call by at least 10 distinct verified callers other than its author,
 * once 3 reviews average 4.0 or more, not one call earlier, and the move names the figures in its history. The
 * attacker's way, 100 calls by the author and a few accounts they made, with those accounts' five-star reviews,
 * leaves it {@code unverified}.
 */
@ExtendWith(AtriumServer.class)
class TrustPromotionIT {

    private static Accounts.Account staff;

    @BeforeAll
    static void servicesOnly() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
    }

    @Test
    void whenTheHundredthCallByTenVerifiedStrangersIsRecordedThenTheAgentIsPromotedToCommunity() {
        var author = Accounts.verified("earner");
        String id = submitted(author, card(unique("earner")));
        approve(staff, id);
        // ten callers keep each well inside the invoke limit and the free tier
        var callers = new ArrayList<Accounts.Account>();
        for (int i = 0; i < 10; i++) {
            callers.add(Accounts.verified("caller-" + i));
        }

        for (int i = 0; i < 99; i++) {
            invoke(callers.get(i % 10), id, "call " + i);
        }
        review(callers.get(0), id, 5);
        review(callers.get(1), id, 4);
        review(callers.get(2), id, 4);
        assertThat(trustLevel(id)).as("99 calls, though 3 good reviews").isEqualTo("unverified");

        invoke(callers.get(9), id, "the hundredth");

        assertThat(trustLevel(id)).isEqualTo("community");
        var moves = trustMoves(author, id);
        assertThat(moves).extracting(e -> e.get("reason_code").asText()).containsExactly("unverified_to_community");
        assertThat(moves.get(0).get("reason").asText()).isEqualTo("unverified → community: 100 successful calls by "
                + "10 distinct verified callers other than the author, 3 reviews averaging 4.33, no security incident");
    }

    @Test
    void whenTheAuthorAndAccountsTheyMadeCallAHundredTimesAndReviewThenTheAgentStaysUnverified() {
        var author = Accounts.verified("self-promoter");
        String id = submitted(author, card(unique("self-promoted")));
        approve(staff, id);
        // fresh accounts cost nothing but an e-mail address each: the author's socks, verified like anyone
        var own = List.of(author, Accounts.verified("sock-a"), Accounts.verified("sock-b"),
                Accounts.verified("sock-c"));

        for (int i = 0; i < 100; i++) {
            invoke(own.get(i % own.size()), id, "own call " + i);
        }
        for (var sock : own.subList(1, own.size())) {
            review(sock, id, 5);
        }
        invoke(own.get(1), id, "one more for luck");

        var agent = Api.anonymous().get("/v1/agents/" + id).json();
        assertThat(agent.get("trust_level").asText()).isEqualTo("unverified");
        assertThat(agent.get("review_count").asLong()).isEqualTo(3);
        assertThat(agent.get("avg_rating_exact").asDouble()).isEqualTo(5.0);
        assertThat(trustMoves(author, id)).isEmpty();
    }

    private static void invoke(Accounts.Account caller, String id, String text) {
        var reply = caller.api().post("/v1/agents/" + id + "/invoke", Map.of("text", text));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("result").asText()).isEqualTo(text);
    }

    private static void review(Accounts.Account reviewer, String id, int rating) {
        var reply = reviewer.api().post("/v1/agents/" + id + "/reviews",
                Map.of("rating", rating, "comment", "Works for me"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }

    private static List<JsonNode> trustMoves(Accounts.Account author, String id) {
        var reply = author.api().get("/v1/agents/" + id + "/history?sort=created_at&limit=100");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var moves = new ArrayList<JsonNode>();
        for (JsonNode event : reply.json().get("items")) {
            if (event.get("action").asText().equals("trust_changed")) {
                moves.add(event);
            }
        }
        return moves;
    }

    private static String trustLevel(String id) {
        var reply = Api.anonymous().get("/v1/agents/" + id);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().get("trust_level").asText();
    }
}
