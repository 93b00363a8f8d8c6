package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The model provider behind a gateway that demands an OAuth 2.0 client-credentials token: the server under test gets
 * its token from mock-oauth2-server, the test model server accepts only tokens that server signed for the client.
 */
@ExtendWith(AtriumServer.class)
class ModelGatewayTokenIT {

    @BeforeEach
    void onlyWithServices() {
        assumeFalse(AtriumServer.get().embedded());
    }

    /** A prompt of its own each time, so no answer comes from the response cache. */
    private static Reply chat(Accounts.Account user, String prompt) {
        return user.api().post("/api/chat/completions", Map.of("message", prompt + " " + UUID.randomUUID(),
                "model", TestModelServer.SCRIPTED));
    }

    @Test
    void whenTheGatewayDemandsATokenThenCallsCarryOneAndShareIt() {
        var user = Accounts.verified("gatewaytoken");

        var first = chat(user, "token please");
        var second = chat(user, "token again");

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.json().get("content").asText()).startsWith("Scripted: token please");
        assertThat(second.status()).as(second.toString()).isEqualTo(200);
        var bearers = TestModelServer.bearers();
        assertThat(bearers).hasSizeGreaterThanOrEqualTo(2);
        assertThat(bearers.get(bearers.size() - 1)).isEqualTo(bearers.get(bearers.size() - 2)).isNotBlank();
    }

    @Test
    void whenTheGatewayRejectsTheTokenThenANewOneIsFetchedAndTheCallSucceeds() {
        var user = Accounts.verified("gatewayrevoke");
        assertThat(chat(user, "before revoke").status()).isEqualTo(200);
        var before = TestModelServer.bearers();
        String old = before.get(before.size() - 1);
        TestModelServer.revoke(old);

        var reply = chat(user, "after revoke");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("content").asText()).startsWith("Scripted: after revoke");
        var after = TestModelServer.bearers();
        assertThat(after.subList(before.size(), after.size())).containsExactly(old, after.get(after.size() - 1));
        assertThat(after.get(after.size() - 1)).isNotEqualTo(old);
    }
}
