package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 17: one refresh token used from two networks (/16, /48) within the window (10 minutes) is the classic sign
 * of a stolen refresh token. It raises one {@code refresh_token_two_addresses} alert per episode, mailed to the
 * administrators, and revokes the token, so the thief and the user alike must log in again. The test server trusts
 * {@code X-Forwarded-For} from loopback, so each client speaks from the address it names.
 */
@ExtendWith(AtriumServer.class)
class RefreshTheftAlertIT {

    private static final String KIND = "refresh_token_two_addresses";

    @Test
    void whenOneRefreshTokenIsUsedFromTwoNetworksThenOneAlertOneMailAndBothMustLogInAgain() {
        var user = Accounts.verified("stolen");
        String subject = "user:" + user.id();
        var home = Api.anonymous().header("X-Forwarded-For", "198.51.100.20");
        var thief = Api.anonymous().header("X-Forwarded-For", "203.0.113.66");

        long audited = securityAlertAudits(SecurityAlertsIT.admin(), user.id());
        assertThat(refresh(home, user.refreshToken()).status()).isEqualTo(200);
        assertThat(refresh(home, user.refreshToken()).status()).isEqualTo(200);
        var stolen = refresh(thief, user.refreshToken());
        assertThat(stolen.status()).as(stolen.toString()).isEqualTo(401);
        assertThat(stolen.code()).isEqualTo(40100);
        assertThat(stolen.body()).doesNotContain(user.refreshToken());
        // revoked for everyone: the user's own next refresh is refused too
        assertThat(refresh(home, user.refreshToken()).status()).isEqualTo(401);
        assertThat(refresh(thief, user.refreshToken()).status()).isEqualTo(401);

        var first = SecurityAlertsIT.admin();
        assertThat(securityAlertAudits(first, user.id())).isEqualTo(audited + 1);
        var alerts = SecurityAlertsIT.alerts(first, KIND, subject);
        assertThat(alerts.get("total").asLong()).isEqualTo(1);
        var alert = alerts.get("items").get(0);
        assertThat(alert.get("status").asText()).isEqualTo("open");
        assertThat(alert.get("count").asInt()).isEqualTo(1);
        assertThat(alert.get("details").asText()).contains("user " + user.id(), "198.51.100.20",
                "198.51.0.0/16", "203.0.113.66", "203.0.0.0/16", "revoked").doesNotContain(user.refreshToken());

        // logging in again gives a refresh token that works (the login from another network than the user's
        // first raises a location alert of its own); stolen again within the cool-down, the new token is refused
        // and counted on the open alert, with no second alert and no second mail
        var again = Accounts.login(home, user.email(), user.username());
        assertThat(refresh(home, again.refreshToken()).status()).isEqualTo(200);
        assertThat(refresh(thief, again.refreshToken()).status()).isEqualTo(401);
        var admin = SecurityAlertsIT.admin();
        alerts = SecurityAlertsIT.alerts(admin, KIND, subject);
        assertThat(alerts.get("total").asLong()).isEqualTo(1);
        assertThat(alerts.get("items").get(0).get("count").asInt()).isEqualTo(2);

        SecurityAlertsIT.awaitAdminMail(KIND, subject);
        assertThat(SecurityAlertsIT.adminMails(KIND, subject)).isEqualTo(1);
        assertThat(Accounts.mails(AtriumServer.ADMIN_EMAIL)).noneMatch(m -> m.contains(user.refreshToken())
                || m.contains(again.refreshToken()));
    }

    @Test
    void whenTheOtherAddressIsInTheSameNetworkThenNoAlertAndTheTokenKeepsWorking() {
        var user = Accounts.verified("commuter");
        for (String from : new String[] {"198.18.1.1", "198.18.200.9", "198.18.1.1", "::ffff:198.18.7.7"}) {
            var reply = refresh(Api.anonymous().header("X-Forwarded-For", from), user.refreshToken());
            assertThat(reply.status()).as(from + ": " + reply).isEqualTo(200);
        }
        var v6 = Accounts.verified("commuter6");
        for (String from : new String[] {"2001:db8:41:1::1", "2001:db8:41:ffff::2"}) {
            var reply = refresh(Api.anonymous().header("X-Forwarded-For", from), v6.refreshToken());
            assertThat(reply.status()).as(from + ": " + reply).isEqualTo(200);
        }
        var admin = SecurityAlertsIT.admin();
        assertThat(SecurityAlertsIT.alerts(admin, KIND, "user:" + user.id()).get("total").asLong()).isZero();
        assertThat(SecurityAlertsIT.alerts(admin, KIND, "user:" + v6.id()).get("total").asLong()).isZero();
    }

    @Test
    void whenTheOtherNetworkComesAfterTheWindowThenNoAlertAndTheTokenKeepsWorking() {
        var user = Accounts.verified("traveller");
        try (var clock = ServerClock.borrowed()) {
            assertThat(refresh(Api.anonymous().header("X-Forwarded-For", "192.0.2.10"), user.refreshToken())
                    .status()).isEqualTo(200);
            clock.advance(Duration.ofMinutes(10).plusSeconds(30));
            var later = refresh(Api.anonymous().header("X-Forwarded-For", "100.100.5.5"), user.refreshToken());
            assertThat(later.status()).as(later.toString()).isEqualTo(200);
        }
        assertThat(SecurityAlertsIT.alerts(SecurityAlertsIT.admin(), KIND, "user:" + user.id()).get("total")
                .asLong()).isZero();
    }

    /** Audit entries of alerts about this user (its first login may have raised a location alert already). */
    private static long securityAlertAudits(Accounts.Account admin, long userId) {
        var reply = admin.api().get("/admin/audit-logs?action=security_alert&user_id=" + userId);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().get("total").asLong();
    }

    private static Reply refresh(Api from, String refreshToken) {
        return from.post("/refresh", Map.of("refresh_token", refreshToken));
    }
}
