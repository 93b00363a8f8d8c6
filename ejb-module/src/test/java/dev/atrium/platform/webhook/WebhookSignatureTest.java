package dev.atrium.platform.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

class WebhookSignatureTest {

    private static final byte[] SECRET = "whsec_0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final byte[] BODY = "{\"event\":\"payment.succeeded\",\"id\":\"evt_1\"}"
            .getBytes(StandardCharsets.UTF_8);
    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    @Test
    void whenSignedWithTheSecretWithinTheWindowThenAccepted() {
        String header = WebhookSignature.sign(SECRET, NOW.getEpochSecond() - 10, BODY);
        assertThatCode(() -> WebhookSignature.verify(SECRET, header, BODY, NOW, WebhookSignature.DEFAULT_TOLERANCE))
                .doesNotThrowAnyException();
    }

    @Test
    void whenTheBodyIsChangedThenRejected() {
        String header = WebhookSignature.sign(SECRET, NOW.getEpochSecond(), BODY);
        byte[] tampered = "{\"event\":\"payment.succeeded\",\"id\":\"evt_2\"}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> WebhookSignature.verify(SECRET, header, tampered, NOW, Duration.ofSeconds(300)))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.UNAUTHENTICATED));
    }

    @Test
    void whenSignedWithAnotherSecretThenRejected() {
        String header = WebhookSignature.sign("other".getBytes(StandardCharsets.UTF_8), NOW.getEpochSecond(), BODY);
        assertThatThrownBy(() -> WebhookSignature.verify(SECRET, header, BODY, NOW, Duration.ofSeconds(300)))
                .isInstanceOf(BusinessException.class);
    }

    @Test
    void whenTheTimestampIsOutsideTheWindowThenRefusedAsAReplay() {
        String old = WebhookSignature.sign(SECRET, NOW.getEpochSecond() - 301, BODY);
        assertThatThrownBy(() -> WebhookSignature.verify(SECRET, old, BODY, NOW, Duration.ofSeconds(300)))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.BAD_REQUEST));
        String future = WebhookSignature.sign(SECRET, NOW.getEpochSecond() + 301, BODY);
        assertThatThrownBy(() -> WebhookSignature.verify(SECRET, future, BODY, NOW, Duration.ofSeconds(300)))
                .isInstanceOf(BusinessException.class);
    }

    @Test
    void whenTheTimestampIsChangedThenTheSignatureNoLongerMatches() {
        String header = WebhookSignature.sign(SECRET, NOW.getEpochSecond(), BODY)
                .replace("t=" + NOW.getEpochSecond(), "t=" + (NOW.getEpochSecond() - 1));
        assertThatThrownBy(() -> WebhookSignature.verify(SECRET, header, BODY, NOW, Duration.ofSeconds(300)))
                .isInstanceOf(BusinessException.class);
    }

    @Test
    void whenSeveralSignaturesAreSentDuringSecretRotationThenOneMatchingIsEnough() {
        String good = WebhookSignature.sign(SECRET, NOW.getEpochSecond(), BODY);
        String header = "t=" + NOW.getEpochSecond() + ",v1=" + "00".repeat(32) + "," + good.split(",")[1];
        assertThatCode(() -> WebhookSignature.verify(SECRET, header, BODY, NOW, Duration.ofSeconds(300)))
                .doesNotThrowAnyException();
    }

    @Test
    void whenTheHeaderIsMissingOrMalformedThenRejected() {
        for (String header : new String[] {null, "", "garbage", "t=abc,v1=zz", "v1=00"}) {
            assertThatThrownBy(() -> WebhookSignature.verify(SECRET, header, BODY, NOW, Duration.ofSeconds(300)))
                    .as(String.valueOf(header)).isInstanceOf(BusinessException.class);
        }
    }
}
