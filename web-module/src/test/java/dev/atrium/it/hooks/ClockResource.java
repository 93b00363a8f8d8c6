package dev.atrium.it.hooks;

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

import dev.atrium.platform.error.BusinessException;

/**
 * Moves the test server's application clock, for tests of expiries and lockouts. Only with
 * {@code atrium.clock.adjustable=true} and only for administrators; elsewhere it is 404.
 */
@Path("admin/clock")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
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
    MovableClockProducer clocks;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.clock.adjustable", defaultValue = "false")
    boolean adjustable;

    @GET
    public ClockView get() {
        return view();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public ClockView advance(@Valid @NotNull Advance body) {
        view();
        clocks.movable().advance(Duration.ofSeconds(body.advanceSeconds()));
        return view();
    }

    @DELETE
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
