package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fresh credentials buy no fresh limits (issue 48, finding 6): the invoke limit counts per user across every API key
 * the user had and the bearer token, and a user issues at most 20 API keys an hour.
 */
@ExtendWith(AtriumServer.class)
class LimitsPerPersonIT {

    private static final int INVOKE_LIMIT = 100;
    private static final int KEYS_PER_HOUR = 20;

    private static String echo;

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        echo = InvokeFixtures.listed(MarketplaceFixtures.staff(), InvokeFixtures.pythonCard("person-echo"),
                InvokeFixtures.PYTHON_ECHO).id();
    }

    @Test
    void whenAHundredInvokesAreSpreadOverThreeKeysAndTheTokenThenTheNextIsRefusedWhicheverTheCredential() {
        var person = Accounts.verified("many-keys");
        try (var clock = ServerClock.borrowed()) {
            long intoWindow = clock.now().getEpochSecond() % 60;
            if (intoWindow > 30) {
                clock.advance(Duration.ofSeconds(61 - intoWindow));
            }
            var credentials = new ArrayList<Api>();
            int made = 0;
            for (int k = 0; k < 4; k++) {
                // three keys, each replacing the one before, then the bearer token
                Api api = k < 3 ? InvokeFixtures.withApiKey(person) : person.api();
                credentials.add(api);
                for (int i = 0; i < INVOKE_LIMIT / 4; i++) {
                    made++;
                    // a refused input counts and costs no sandbox run
                    var reply = InvokeFixtures.invoke(api, echo, Map.of("count", made));
                    assertThat(reply.status()).as("call " + made + ": " + reply).isEqualTo(422);
                    assertThat(reply.header("X-RateLimit-Remaining")).as("one bucket for the person, call " + made)
                            .isEqualTo(Integer.toString(INVOKE_LIMIT - made));
                }
            }

            for (Api api : List.of(credentials.get(2), credentials.get(3))) {
                var limited = InvokeFixtures.invoke(api, echo, Map.of("text", "hello"));

                assertThat(limited.status()).as(limited.toString()).isEqualTo(429);
                assertThat(limited.code()).isEqualTo(42900);
                assertThat(limited.json().at("/error/message").asText()).isEqualTo("Too many invocations");
                assertThat(limited.json().at("/error/details").asText()).contains("per user");
                assertThat(limited.header("X-RateLimit-Limit")).isEqualTo(Integer.toString(INVOKE_LIMIT));
                assertThat(limited.header("X-RateLimit-Remaining")).isEqualTo("0");
                assertThat(limited.header("Retry-After")).isNotBlank();
            }
            var fourthKey = InvokeFixtures.withApiKey(person);
            assertThat(InvokeFixtures.invoke(fourthKey, echo, Map.of("text", "hello")).status())
                    .as("a fresh key buys nothing").isEqualTo(429);
            var other = InvokeFixtures.invoke(Accounts.verified("someone-else").api(), echo, Map.of("text", "hi"));
            assertThat(other.status()).as("another person's bucket: " + other).isEqualTo(200);
        }
    }

    @Test
    void whenThirtyKeysAreRequestedInABurstThenThoseBeyondTheHourlyLimitAreRefused() {
        var person = Accounts.verified("key-minter");
        try (var clock = ServerClock.borrowed()) {
            long intoHour = clock.now().getEpochSecond() % 3600;
            if (intoHour > 3540) {
                clock.advance(Duration.ofSeconds(3601 - intoHour));
            }
            var issued = new ArrayList<String>();
            var refused = new ArrayList<Reply>();
            for (int i = 0; i < 30; i++) {
                var reply = person.api().post("/api-keys");
                if (reply.status() == 201) {
                    issued.add(reply.json().get("api_key").asText());
                } else {
                    refused.add(reply);
                }
            }

            assertThat(issued).hasSize(KEYS_PER_HOUR);
            assertThat(refused).hasSize(30 - KEYS_PER_HOUR).allSatisfy(r -> {
                assertThat(r.status()).as(r.toString()).isEqualTo(429);
                assertThat(r.code()).isEqualTo(42900);
                assertThat(r.json().at("/error/message").asText()).isEqualTo("Too many API keys issued");
                assertThat(Long.parseLong(r.header("Retry-After"))).isBetween(1L, 3600L);
            });
            var me = Api.anonymous().withToken(issued.get(issued.size() - 1)).get("/api/v1/users/me");
            assertThat(me.status()).as("a refused request leaves the current key working: " + me).isEqualTo(200);
            assertThat(Api.anonymous().withToken(issued.get(0)).get("/api/v1/users/me").status())
                    .as("still one active key").isEqualTo(401);
        }
    }
}
