package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the invoke gateway keeps between calls never outlives a change that must stop a call: an agent taken down
 * right after it served, or a caller moved back to the free tier after their free tokens ran out, is refused on the
 * very next call, through the running server.
 */
@ExtendWith(AtriumServer.class)
class InvokeServingIT {

    private static Accounts.Account staff;

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
    }

    @Test
    void whenAnAgentThatJustServedIsTakenDownThenItsNextCallIs404ByIdAndByName() {
        var card = InvokeFixtures.pythonCard("served-takedown");
        String name = card.get("name").asText();
        String id = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO).id();
        var caller = Accounts.verified("served-caller").api();
        for (int i = 0; i < 3; i++) {
            var served = InvokeFixtures.invoke(caller, i % 2 == 0 ? id : name, Map.of("text", "hello"));
            assertThat(served.status()).as(served.toString()).isEqualTo(200);
        }

        var takenDown = staff.api().post("/v1/admin/agents/" + id + "/takedown", Map.of("reason",
                "hidden_charging", "details", "Charges per token after the free quota without saying so"));
        assertThat(takenDown.status()).as(takenDown.toString()).isEqualTo(200);

        assertThat(InvokeFixtures.invoke(caller, id, Map.of("text", "hello")).status()).isEqualTo(404);
        assertThat(InvokeFixtures.invoke(caller, name, Map.of("text", "hello")).status()).isEqualTo(404);
    }

    @Test
    void whenACallerIsMovedBackToTheFreeTierAfterUsingItUpThenTheNextCallIsRefusedWith402() {
        String echo = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("served-tier"),
                InvokeFixtures.PYTHON_ECHO).id();
        var user = Accounts.verified("served-tier");
        var caller = InvokeFixtures.withApiKey(user);
        var big = InvokeFixtures.invoke(caller, echo, Map.of("text", "big"));
        assertThat(big.status()).as("started under the limit, so finished").isEqualTo(200);
        assertThat(InvokeFixtures.invoke(caller, echo, Map.of("text", "hello")).status())
                .as("the free tokens are used up").isEqualTo(402);
        var admin = Accounts.admin().api();

        assertThat(admin.patch("/api/admin/users/" + user.id(), Map.of("tier", "pro")).status()).isEqualTo(200);
        var paid = InvokeFixtures.invoke(caller, echo, Map.of("text", "hello"));
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        assertThat(admin.patch("/api/admin/users/" + user.id(), Map.of("tier", "free")).status()).isEqualTo(200);
        var refused = InvokeFixtures.invoke(caller, echo, Map.of("text", "hello"));

        assertThat(refused.status()).as(refused.toString()).isEqualTo(402);
        assertThat(refused.json().get("error").get("code").asInt()).isEqualTo(40200);
    }
}
