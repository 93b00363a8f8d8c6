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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Trust is earned through real invocations: an unverified agent becomes {@code community} with its 100th recorded
 * call (no reviews yet, no incident), not one call earlier, and the move is in its history.
 */
@ExtendWith(AtriumServer.class)
class TrustPromotionIT {

    @Test
    void whenTheHundredthCallIsRecordedThenTheAgentIsPromotedToCommunity() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        var staff = MarketplaceFixtures.staff();
        var author = Accounts.verified("earner");
        String id = submitted(author, card(unique("earner")));
        approve(staff, id);
        // two callers keep each well inside the invoke limit and the free tier
        var callers = List.of(Accounts.verified("caller-a"), Accounts.verified("caller-b"));

        for (int i = 0; i < 99; i++) {
            invoke(callers.get(i % 2), id, "call " + i);
        }
        assertThat(trustLevel(id)).isEqualTo("unverified");

        invoke(callers.get(1), id, "the hundredth");

        assertThat(trustLevel(id)).isEqualTo("community");
        var reply = author.api().get("/v1/agents/" + id + "/history?sort=created_at&limit=100");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var moves = new ArrayList<String>();
        for (JsonNode event : reply.json().get("items")) {
            if (event.get("action").asText().equals("trust_changed")) {
                moves.add(event.get("reason_code").asText());
            }
        }
        assertThat(moves).containsExactly("unverified_to_community");
    }

    private static void invoke(Accounts.Account caller, String id, String text) {
        var reply = caller.api().post("/v1/agents/" + id + "/invoke", Map.of("text", text));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("result").asText()).isEqualTo(text);
    }

    private static String trustLevel(String id) {
        var reply = Api.anonymous().get("/v1/agents/" + id);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().get("trust_level").asText();
    }
}
