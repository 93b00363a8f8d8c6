package dev.atrium.identity.boundary;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.PasswordService;
import dev.atrium.identity.control.SessionService;
import dev.atrium.platform.boundary.ClientAddress;

/** Password change ({@code /me/password}) and reset ({@code /password/forgot}, {@code /password/reset}). */
@Path("/")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class PasswordResource {

    @Inject
    PasswordService passwords;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @POST
    @Path("me/password")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change one's password; ends all earlier sessions and tokens and hands out new ones")
    @APIResponse(responseCode = "200", description = "Changed",
            content = @Content(schema = @Schema(implementation = PasswordChangedResponse.class)))
    public Response change(@Valid @NotNull PasswordChangeRequest body) {
        var result = passwords.change(Callers.required(request), body.oldPassword(), body.newPassword(),
                Origins.of(request, addresses));
        if (result.session() != null) {
            return Response.ok(new PasswordChangedResponse("Password changed", null, null, null))
                    .cookie(LoginResource.sessionCookie(result.session().id(),
                            (int) SessionService.LIFETIME.toSeconds())).build();
        }
        return Response.ok(new PasswordChangedResponse("Password changed", result.tokens().accessToken(),
                result.tokens().refreshToken(), "bearer")).build();
    }

    @POST
    @Path("password/forgot")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Mail a reset link valid 30 minutes; the answer is the same whether the address exists")
    public MessageResponse forgot(@Valid @NotNull PasswordForgotRequest body) {
        passwords.forgot(body.email(), Origins.of(request, addresses));
        return new MessageResponse("If an account exists for this address, a reset link has been sent");
    }

    @POST
    @Path("password/reset")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a new password with the token of a reset link; ends all the user's sessions")
    public MessageResponse reset(@Valid @NotNull PasswordResetRequest body) {
        passwords.reset(body.token(), body.newPassword(), Origins.of(request, addresses));
        return new MessageResponse("Password reset: log in with the new password");
    }
}
