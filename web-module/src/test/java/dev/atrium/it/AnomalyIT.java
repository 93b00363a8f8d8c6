package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The anomaly signals of spec 01: more than 50 failed logins in an hour from one address, and a login success rate
 * under 95 percent, are counted, exposed as metrics and logged as alerts.
 */
@ExtendWith(AtriumServer.class)
class AnomalyIT {

    @Test
    void whenOneAddressFailsMoreThan50TimesInAnHourThenAlertsAreRaisedAndCounted() throws Exception {
        var from = Api.anonymous();
        try (var clock = ServerClock.borrowed()) {
            // start at the beginning of an hour, so all attempts fall into one hourly bucket
            Instant now = clock.now();
            clock.advance(Duration.ofSeconds(3600 - now.getEpochSecond() % 3600 + 1));
            int failures = 0;
            for (int window = 0; window < 11; window++) {
                for (int i = 0; i < 5; i++) {
                    var reply = from.post("/login", Map.of("email", Accounts.uniqueEmail("anomaly"),
                            "password", "Wrong-Passw0rd"));
                    assertThat(reply.status()).isEqualTo(401);
                    failures++;
                }
                clock.advance(Duration.ofSeconds(300));
            }
            assertThat(failures).isEqualTo(55);
        }
        var metrics = Api.anonymous().header("Accept", "text/plain").get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.body()).contains("atrium_security_alerts_total").contains("failures_per_address")
                .contains("success_rate").contains("atrium_login_attempts_total");
        String log = Files.readString(Path.of(System.getProperty("atrium.it.work", "target/it"))
                .resolve("services-server.log"));
        assertThat(log).contains("SECURITY ALERT failures_per_address").contains(from.address());
        assertThat(log).contains("SECURITY ALERT success_rate");
    }
}
