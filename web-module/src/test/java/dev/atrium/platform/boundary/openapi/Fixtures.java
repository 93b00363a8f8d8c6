package dev.atrium.platform.boundary.openapi;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.json.JsonObject;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.json.bind.annotation.JsonbTransient;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Resources and types using what the application's resources do not (yet), for the generator's unit tests. */
final class Fixtures {

    private Fixtures() {
    }

    enum Colour { RED, DARK_BLUE }

    record Money(@NotNull BigDecimal amount, @Pattern(regexp = "[A-Z]{3}") String currency) {
    }

    record Node(String name, List<Node> children) {
    }

    record Page<T>(List<T> items, int count) {
    }

    record Sample(
            @Min(1) @Max(10) int rating,
            @Positive long positive,
            @PositiveOrZero Integer count,
            @NotBlank @Email String email,
            @NotEmpty List<String> labels,
            Set<UUID> ids,
            Map<String, Integer> scores,
            LocalDate day,
            OffsetDateTime at,
            Colour colour,
            Money price,
            Object anything,
            JsonObject extra,
            @JsonbProperty("renamed") String original,
            @JsonbTransient String hidden,
            String camelCaseName,
            @Schema(description = "Shown", example = "7") Integer documented,
            double ratio) {
    }

    static final class First {
        record Item(String a) {
        }
    }

    static final class Second {
        record Item(int b) {
        }
    }

    @Path("/fixtures")
    @Produces(MediaType.APPLICATION_JSON)
    @Tag(name = "fixtures", description = "Test resources")
    public static class FixtureResource {

        @GET
        @Path("{id: [0-9]{1,5}}/{slug: [a-z-]+}")
        @PermitAll
        @Operation(summary = "One sample")
        public Sample get(@PathParam("id") long id, @PathParam("slug") String slug,
                          @HeaderParam("X-Trace") @DefaultValue("none") String trace,
                          @QueryParam("n") @DefaultValue("5") @Max(50) int n) {
            return null;
        }

        @POST
        @Path("form")
        @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
        @RolesAllowed("admin")
        @APIResponse(responseCode = "201", description = "Created",
                content = @Content(schema = @Schema(implementation = Sample.class)))
        public Response form(@FormParam("name") @NotBlank String name, @FormParam("age") int age) {
            return null;
        }

        @POST
        @Consumes(MediaType.APPLICATION_JSON)
        public Page<Node> json(@Valid @NotNull Page<Sample> body) {
            return null;
        }

        @PUT
        @Path("items")
        public First.Item put(Second.Item body) {
            return null;
        }

        @DELETE
        @Path("{id}")
        public CompletionStage<Void> delete(@PathParam("id") String id) {
            return null;
        }

        @HEAD
        public void head() {
        }

        @GET
        @Path("hidden")
        @Operation(hidden = true)
        public String hidden() {
            return null;
        }

        @GET
        @Path("money")
        @APIResponse(responseCode = "409", description = "Already spent")
        public Money money() {
            return null;
        }

        @GET
        @Path("variants")
        public Money json() {
            return null;
        }

        @GET
        @Path("variants")
        @Produces(MediaType.TEXT_PLAIN)
        public String text() {
            return null;
        }
    }
}
