package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 17: the security signals as alerts. Each signal is driven over HTTP; each episode gives one alert record,
 * one mail to the administrators, one audit entry; a second burst within the cool-down raises no second alert but
 * counts on the open one; administrators list and acknowledge alerts.
 */
@ExtendWith(AtriumServer.class)
class SecurityAlertsIT {

    @Test
    void whenAUserRefreshesTooOftenThenOneAlertIsRaisedMailedAuditedAndAcknowledged() {
        var user = Accounts.verified("storm");
        String subject = "user:" + user.id();
        try (var clock = ServerClock.borrowed()) {
            var client = Api.anonymous();
            alignTo(clock, 600);
            refreshes(client, user, 31);
            var alerts = alerts(admin(), "refresh_frequency", subject);
            assertThat(alerts.get("total").asLong()).isEqualTo(1);
            var alert = alerts.get("items").get(0);
            assertThat(alert.get("status").asText()).isEqualTo("open");
            assertThat(alert.get("count").asInt()).isEqualTo(1);

            // a second storm in the next window, within the cool-down: counted on the open alert, not raised
            clock.advance(Duration.ofMinutes(10));
            refreshes(client, user, 31);
            alerts = alerts(admin(), "refresh_frequency", subject);
            assertThat(alerts.get("total").asLong()).isEqualTo(1);
            assertThat(alerts.get("items").get(0).get("count").asInt()).isEqualTo(2);
        }
        awaitAdminMail("refresh_frequency", subject);
        assertThat(adminMails("refresh_frequency", subject)).isEqualTo(1);
        var admin = admin();

        var audit = admin.api().get("/admin/audit-logs?action=security_alert&user_id=" + user.id()).json();
        assertThat(audit.get("total").asLong()).isEqualTo(1);

        long id = alerts(admin, "refresh_frequency", subject).get("items").get(0).get("id").asLong();
        var nosy = Accounts.verified("nosy");
        assertThat(nosy.api().post("/admin/alerts/" + id + "/ack").status()).isEqualTo(403);
        assertThat(nosy.api().get("/admin/alerts").status()).isEqualTo(403);
        var acked = admin.api().post("/admin/alerts/" + id + "/ack");
        assertThat(acked.status()).as(acked.toString()).isEqualTo(200);
        assertThat(acked.json().get("status").asText()).isEqualTo("acknowledged");
        assertThat(acked.json().get("acknowledged_by").asLong()).isEqualTo(admin.id());
        assertThat(admin.api().post("/admin/alerts/" + id + "/ack").json().get("acknowledged_by").asLong())
                .isEqualTo(admin.id());
        assertThat(admin.api().get("/admin/alerts?status=open&subject=" + enc(subject)).json().get("total").asLong())
                .isZero();
        assertThat(admin.api().get("/admin/audit-logs?action=security_alert_ack&user_id=" + user.id()).json()
                .get("total").asLong()).isEqualTo(1);
        var missing = admin.api().post("/admin/alerts/999999999/ack");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().get("error").get("code").asInt()).isEqualTo(40400);
    }

    @Test
    void whenAUserLogsInFromAnotherPrefixWithinAnHourThenOneLocationAlertIsRaised() {
        var user = Accounts.verified("roamer");
        String subject = "user:" + user.id();
        for (String from : new String[] {"172.16.1.1", "2001:db8:7::1", "192.168.3.4"}) {
            Accounts.login(Api.anonymous().header("X-Forwarded-For", from), user.email(), user.username());
        }
        var admin = admin();
        var alerts = alerts(admin, "location_change", subject);
        assertThat(alerts.get("total").asLong()).isEqualTo(1);
        assertThat(alerts.get("items").get(0).get("count").asInt()).isGreaterThanOrEqualTo(2);
        awaitAdminMail("location_change", subject);
        assertThat(admin.api().get("/admin/audit-logs?action=security_alert&user_id=" + user.id()).json()
                .get("total").asLong()).isEqualTo(1);
    }

    @Test
    void whenPasswordResetsFloodThenOneAlertPerAccountAndOnePerAddress() {
        var user = Accounts.verified("flood");
        var r = ThreadLocalRandom.current();
        String address = "100.64." + r.nextInt(256) + "." + (1 + r.nextInt(254));
        var from = Api.anonymous().header("X-Forwarded-For", address);
        try (var clock = ServerClock.borrowed()) {
            alignTo(clock, 3600);
            for (int i = 0; i < 12; i++) {
                var reply = from.post("/password/forgot", Map.of("email", user.email()));
                assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            }
        }
        var admin = admin();
        assertThat(alerts(admin, "password_reset_frequency", "user:" + user.id()).get("total").asLong())
                .isEqualTo(1);
        var byAddress = alerts(admin, "password_reset_frequency", "address:" + address);
        assertThat(byAddress.get("total").asLong()).isEqualTo(1);
        // requests 6 to 12 crossed the threshold: the first raised the alert, the other six counted on it
        assertThat(byAddress.get("items").get(0).get("count").asInt()).isEqualTo(7);
        awaitAdminMail("password_reset_frequency", "address:" + address);
        awaitAdminMail("password_reset_frequency", "user:" + user.id());
        assertThat(admin.api().get("/admin/audit-logs?action=security_alert&ip_address=" + address).json()
                .get("total").asLong()).isEqualTo(1);
    }

    @Test
    void whenAlertsAreFilteredByStatusThenOnlyThatStatusIsListed() {
        var reply = admin().api().get("/admin/alerts?status=acknowledged&limit=100");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        reply.json().get("items").forEach(a -> assertThat(a.get("status").asText()).isEqualTo("acknowledged"));
    }

    /** From one client: a refresh token used from two networks within minutes would be revoked. */
    private static void refreshes(Api client, Accounts.Account user, int times) {
        for (int i = 0; i < times; i++) {
            var reply = client.post("/refresh", Map.of("refresh_token", user.refreshToken()));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        }
    }

    /** Moves the server clock just past the start of the next window, so a burst falls into one window. */
    private static void alignTo(ServerClock clock, long windowSeconds) {
        Instant now = clock.now();
        clock.advance(Duration.ofSeconds(windowSeconds - now.getEpochSecond() % windowSeconds + 1));
    }

    /**
     * A fresh administrator login (tests move the clock past access tokens' lifetime), from addresses of one /16
     * so the administrator's own logins raise no location alert, and from a new address each time so they stay
     * under the per-address login limit.
     */
    static Accounts.Account admin() {
        var r = ThreadLocalRandom.current();
        String address = "10.0." + r.nextInt(256) + "." + (1 + r.nextInt(254));
        return Accounts.login(Api.anonymous().header("X-Forwarded-For", address), AtriumServer.ADMIN_EMAIL, "admin");
    }

    static JsonNode alerts(Accounts.Account admin, String kind, String subject) {
        var reply = admin.api().get("/admin/alerts?kind=" + kind + "&subject=" + enc(subject));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    static long adminMails(String kind, String subject) {
        return Accounts.mails(AtriumServer.ADMIN_EMAIL).stream()
                .filter(text -> text.contains("Kind: " + kind) && text.matches("(?s).*Subject: " + subject + "\\s.*"))
                .count();
    }

    static void awaitAdminMail(String kind, String subject) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (adminMails(kind, subject) == 0) {
            assertThat(System.nanoTime()).as("a mail to the administrator about " + kind + " " + subject)
                    .isLessThan(deadline);
            Accounts.sleep(100);
        }
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
