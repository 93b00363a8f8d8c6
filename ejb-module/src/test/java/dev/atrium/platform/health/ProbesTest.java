package dev.atrium.platform.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

class ProbesTest {

    private static HealthCheck check(String name, boolean up) {
        return () -> new HealthCheckResponse(name, up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                java.util.Optional.of(Map.of("backend", "postgresql")));
    }

    @Test
    void whenEveryCheckIsUpThenTheProbeIsUpWithEachCheckByName() {
        var answer = Probes.answer(List.of(check("redis", true), check("database", true)));
        assertThat(answer.up()).isTrue();
        assertThat(answer.status()).isEqualTo("UP");
        assertThat(answer.checks()).extracting(Probes.Check::name).containsExactly("database", "redis");
        assertThat(answer.checks().get(0).data()).containsEntry("backend", "postgresql");
    }

    @Test
    void whenOneCheckIsDownThenTheProbeIsDown() {
        var answer = Probes.answer(List.of(check("database", false), check("redis", true)));
        assertThat(answer.up()).isFalse();
        assertThat(answer.status()).isEqualTo("DOWN");
        assertThat(answer.checks()).extracting(Probes.Check::status).containsExactly("DOWN", "UP");
    }

    @Test
    void whenACheckThrowsThenItCountsAsDownWithoutItsMessage() {
        HealthCheck broken = () -> {
            throw new IllegalStateException("jdbc:postgresql://secret-host/atrium");
        };
        var answer = Probes.answer(List.of(broken, check("redis", true)));
        assertThat(answer.up()).isFalse();
        assertThat(answer.checks()).anySatisfy(c -> {
            assertThat(c.status()).isEqualTo("DOWN");
            assertThat(c.data()).containsEntry("error", "IllegalStateException");
        });
        assertThat(answer.toString()).doesNotContain("secret-host");
    }

    @Test
    void whenThereIsNoCheckThenTheProbeIsUp() {
        assertThat(Probes.answer(List.of()).up()).isTrue();
    }
}
