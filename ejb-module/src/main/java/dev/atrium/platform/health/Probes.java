package dev.atrium.platform.health;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;

/**
 * The MicroProfile Health probes ({@code /health/live}, {@code /health/ready}, {@code /health/started}) from the
 * application's {@link Liveness}, {@link Readiness} and {@link Startup} checks. The application answers them itself
 * rather than Payara's MicroProfile Health service: that service takes the whole {@code /health} context, where the
 * spec's own {@code /health} answer lives (server-config/payara/atrium.asadmin disables it). The answer is the
 * specification's format: {@code UP} only when every check is up, a check that throws counts as {@code DOWN}.
 */
@ApplicationScoped
public class Probes {

    /** The probe's answer in MicroProfile Health's JSON format. */
    public record Answer(String status, List<Check> checks) {

        public boolean up() {
            return "UP".equals(status);
        }
    }

    /** One check; {@code data} is null when it has none (left out of the JSON). */
    public record Check(String name, String status, Map<String, Object> data) {
    }

    @Inject
    @Liveness
    Instance<HealthCheck> liveness;

    @Inject
    @Readiness
    Instance<HealthCheck> readiness;

    @Inject
    @Startup
    Instance<HealthCheck> startup;

    public Answer live() {
        return answer(liveness);
    }

    public Answer ready() {
        return answer(readiness);
    }

    public Answer started() {
        return answer(startup);
    }

    static Answer answer(Iterable<HealthCheck> checks) {
        var results = new ArrayList<Check>();
        for (HealthCheck check : checks) {
            results.add(run(check));
        }
        results.sort(Comparator.comparing(Check::name));
        boolean up = results.stream().allMatch(c -> "UP".equals(c.status()));
        return new Answer(up ? "UP" : "DOWN", List.copyOf(results));
    }

    private static Check run(HealthCheck check) {
        try {
            HealthCheckResponse response = check.call();
            return new Check(response.getName(), response.getStatus().name(), response.getData().orElse(null));
        } catch (RuntimeException e) {
            return new Check(check.getClass().getName(), "DOWN", Map.of("error", e.getClass().getSimpleName()));
        }
    }
}
