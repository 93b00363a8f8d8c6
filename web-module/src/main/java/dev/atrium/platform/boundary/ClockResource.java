package dev.atrium.platform.boundary;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.time.ClockProducer;

/**
 * Moves this instance's application clock, for tests of expiries and lockouts on a running server. It exists only
 * when {@code atrium.clock.adjustable=true} (never in production) and only for administrators; elsewhere it is 404.
 */
@Path("admin/clock")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
@Tag(name = "operations")
public class ClockResource {

    /**
     * How far to move the clock: forward, or back by at most 31 days (a token or a record made "in the past", as
     * code that reads the system's time, such as a subsystem's MicroProfile JWT, then sees it).
     */
    public record Advance(@NotNull @Min(-31L * 24 * 3600) Long advanceSeconds) {
    }

    /** The application's time and how far it is from the system's. */
    public record ClockView(Instant now, long offsetSeconds) {
    }

    @Inject
    ClockProducer clocks;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.clock.adjustable", defaultValue = "false")
    boolean adjustable;

    @GET
    @Operation(summary = "The application clock (test deployments only)")
    public ClockView get() {
        return view();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Move the application clock forward, or back by at most 31 days (test deployments only)")
    public ClockView advance(@Valid @NotNull Advance body) {
        view();
        clocks.movable().advance(Duration.ofSeconds(body.advanceSeconds()));
        return view();
    }

    @DELETE
    @Operation(summary = "Put the application clock back to system time (test deployments only)")
    public ClockView reset() {
        view();
        clocks.movable().reset();
        return view();
    }

    private ClockView view() {
        if (!adjustable) {
            throw BusinessException.notFound("Resource");
        }
        return new ClockView(clock.instant(), clocks.movable().offset().toSeconds());
    }
}
