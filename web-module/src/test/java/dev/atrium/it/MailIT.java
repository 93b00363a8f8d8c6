package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Outgoing mail goes through the {@code mail} queue to a real SMTP server, and survives its outages. */
@ExtendWith(AtriumServer.class)
class MailIT {

    @Test
    void whenTheSmtpServerIsDownThenTheMailIsRedeliveredNotLost() {
        var server = AtriumServer.get();
        String email = Accounts.uniqueEmail("outage");
        server.stopSmtp();
        try {
            var reply = Api.anonymous().post("/register", Map.of("email", email, "username", "outage",
                    "password", "Passw0rdOK"));
            assertThat(reply.status()).isEqualTo(200);
            // the first delivery fails against the stopped server; the broker retries 5 s later
            Accounts.sleep(2500);
        } finally {
            server.startSmtp();
        }
        String text = Accounts.awaitMail(email, Duration.ofSeconds(30));
        assertThat(text).contains("/verify-email?token=");
        assertThat(Api.anonymous().get(Accounts.verificationPath(email)).status()).isEqualTo(200);
    }

    @Test
    void whenRegisteringThenTheVerificationMailCarriesAWorkingLinkToTheBaseUrl() {
        String email = Accounts.uniqueEmail("link");
        Api.anonymous().post("/register", Map.of("email", email, "username", "link", "password", "Passw0rdOK"));
        String text = Accounts.awaitMail(email, Duration.ofSeconds(30));
        assertThat(text).contains(AtriumServer.get().baseUrl() + "/verify-email?token=ey");
        assertThat(text).doesNotContain("Passw0rdOK");
    }
}
