package dev.atrium.identity.boundary;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.RegistrationService;
import dev.atrium.platform.boundary.ClientAddress;

/** Spec 01: {@code POST /register} and {@code GET /verify-email}. */
@Path("/")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class RegistrationResource {

    @Inject
    RegistrationService registration;

    @Inject
    HttpServletRequest servletRequest;

    @Inject
    ClientAddress addresses;

    @POST
    @Path("register")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register; the account stays inactive until the e-mailed link is followed")
    public MessageResponse register(@Valid @NotNull RegisterRequest request) {
        registration.register(request.email(), request.username(), request.password(),
                Origins.of(servletRequest, addresses));
        return new MessageResponse("Registered: follow the link sent by e-mail to activate the account");
    }

    @GET
    @Path("verify-email")
    @PermitAll
    @Operation(summary = "Activate an account with the token of the verification link")
    public MessageResponse verify(@QueryParam("token") String token) {
        registration.verify(token, Origins.of(servletRequest, addresses));
        return new MessageResponse("E-mail verified: the account is active");
    }
}
