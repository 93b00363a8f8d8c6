package dev.atrium.platform.boundary.version;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.boundary.ListEnvelope;

/**
 * {@code GET /admin/api-deprecations}: the API prefixes {@code atrium.api.deprecations} marks deprecated, for the
 * operators' console; {@code retired} once the sunset has passed (the prefix answers 410 then).
 */
@Path("admin/api-deprecations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
@Tag(name = "operations")
public class DeprecationsResource {

    /** A deprecated prefix, its dates and its successor. */
    public record DeprecationView(String prefix, Instant since, Instant sunset, String successor, boolean retired) {

        static DeprecationView from(ApiVersions.Deprecation d, Instant now) {
            return new DeprecationView(d.prefix(), d.since(), d.sunset(), d.successor(), !now.isBefore(d.sunset()));
        }
    }

    @Inject
    ApiVersions versions;

    @Inject
    Clock clock;

    @GET
    @Operation(summary = "Deprecated API prefixes: since when, their sunset, their successor, whether retired")
    public ListEnvelope<DeprecationView> list() {
        var now = clock.instant();
        var items = versions.all().stream().map(d -> DeprecationView.from(d, now)).toList();
        return new ListEnvelope<>(items, items.size(), 1, Math.max(1, items.size()),
                Map.of("self", "/admin/api-deprecations"));
    }
}
