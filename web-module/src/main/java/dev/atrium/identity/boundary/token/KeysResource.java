package dev.atrium.identity.boundary.token;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.identity.control.account.AccessAdminService;
import dev.atrium.identity.entity.SigningKey;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.ListEnvelope;

/** The signing key ring: which keys exist, and rotation on demand. */
@Path("admin/keys")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity-admin")
@RequiresPermission("key:rotate")
public class KeysResource {

    /** A key without its material. */
    public record KeyView(String kid, String algorithm, String status, Instant createdAt, Instant retiredAt,
                          Instant dropAfter) {

        static KeyView from(SigningKey k) {
            return new KeyView(k.kid(), k.algorithm(), k.status().name().toLowerCase(Locale.ROOT),
                    k.createdAt(), k.retiredAt(), k.dropAfter());
        }
    }

    /** Which algorithm to rotate; both when absent. */
    public record RotateRequest(@Pattern(regexp = "HS256|RS256") String algorithm) {
    }

    /** One rotation: the algorithm and its new current key. */
    public record Rotated(String algorithm, String kid) {
    }

    /** The rotations done. */
    public record RotateResponse(List<Rotated> rotated) {
    }

    @EJB
    AccessAdminService admin;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @GET
    @Operation(summary = "The keys of the ring: current and previous, per algorithm")
    public ListEnvelope<KeyView> list() {
        var keys = admin.keys().stream().map(KeyView::from).toList();
        return new ListEnvelope<>(keys, keys.size(), 1, Math.max(1, keys.size()),
                Map.of("self", "/admin/keys"));
    }

    @POST
    @Path("rotate")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Rotate now: a new current key; the old one verifies until its tokens have expired")
    public RotateResponse rotate(@Valid RotateRequest body) {
        List<String> algorithms = body == null || body.algorithm() == null ? List.of("HS256", "RS256")
                : List.of(body.algorithm());
        var rotated = admin.rotateKeys(algorithms, Callers.required(request), Origins.of(request, addresses));
        return new RotateResponse(rotated.entrySet().stream().map(e -> new Rotated(e.getKey(), e.getValue())).toList());
    }
}
