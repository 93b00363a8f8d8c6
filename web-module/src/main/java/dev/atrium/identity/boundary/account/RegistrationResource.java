package dev.atrium.identity.boundary.account;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
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
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.MessageResponse;
import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.identity.control.account.RegistrationService;
import dev.atrium.platform.boundary.ClientAddress;

/** Spec 01: {@code POST /register} and {@code GET /verify-email}; {@code POST /verify-email/resend}. */
@Path("/")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class RegistrationResource {

    @EJB
    RegistrationService registration;

    @Inject
    HttpServletRequest servletRequest;

    @Inject
    ClientAddress addresses;

    @POST
    @Path("register")
    @PermitAll
    @CsrfExempt
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
    @Operation(summary = "Verify the e-mail address with the token of the latest verification link; this never "
            + "lifts an administrator's deactivation")
    public MessageResponse verify(@QueryParam("token") String token) {
        var user = registration.verify(token, Origins.of(servletRequest, addresses));
        return new MessageResponse(user.isActive() ? "E-mail verified: the account is active"
                : "E-mail verified, but the account is deactivated by an administrator");
    }

    @POST
    @Path("verify-email/resend")
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Mail a new verification link to an unverified account, invalidating the earlier one; "
            + "202 whatever the address, at most 3 mails an hour per account")
    @APIResponse(responseCode = "202", description = "Accepted (whether or not a mail goes out)",
            content = @Content(schema = @Schema(implementation = MessageResponse.class)))
    public Response resend(@Valid @NotNull VerificationResendRequest body) {
        registration.resend(body.email(), Origins.of(servletRequest, addresses));
        return Response.accepted(new MessageResponse(
                "If an unverified account exists for this address, a new verification link has been sent")).build();
    }
}
