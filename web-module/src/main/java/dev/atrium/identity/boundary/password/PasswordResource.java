package dev.atrium.identity.boundary.password;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
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
import dev.atrium.identity.boundary.login.LoginResource;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.identity.control.login.SessionService;
import dev.atrium.identity.control.password.PasswordService;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.HtmlPages;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** Password change ({@code /me/password}) and reset ({@code /password/forgot}, {@code /password/reset}). */
@Path("/")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class PasswordResource {

    @EJB
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
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Mail a reset link valid 30 minutes; the answer is the same whether the address exists")
    public MessageResponse forgot(@Valid @NotNull PasswordForgotRequest body) {
        passwords.forgot(body.email(), Origins.of(request, addresses));
        return new MessageResponse("If an account exists for this address, a reset link has been sent");
    }

    /**
     * The page the mailed link opens: a plain form (no script) posting the token and the new password back to
     * {@code POST /password/reset} as a form. It needs no CSRF token: the reset token is the credential and an
     * attacker does not know it; no cookie is involved.
     */
    @GET
    @Path("password/reset")
    @PermitAll
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The page the reset link opens: a form to choose the new password")
    @APIResponse(responseCode = "200", description = "The form", content = @Content(mediaType = MediaType.TEXT_HTML))
    public Response resetPage(@QueryParam("token") String token) {
        if (!PasswordService.wellFormedResetToken(token)) {
            return invalidLinkPage();
        }
        return resetForm(200, token, null);
    }

    @POST
    @Path("password/reset")
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The reset form's submission: sets the new password and answers a page")
    @APIResponse(responseCode = "200", description = "Changed", content = @Content(mediaType = MediaType.TEXT_HTML))
    public Response resetByForm(@FormParam("token") String token, @FormParam("new_password") String newPassword,
                                @FormParam("confirm_password") String confirmation) {
        if (!PasswordService.wellFormedResetToken(token)) {
            return invalidLinkPage();
        }
        if (newPassword == null || newPassword.isEmpty() || newPassword.length() > 256) {
            return resetForm(400, token, "Enter a new password of at most 256 characters.");
        }
        if (!newPassword.equals(confirmation)) {
            return resetForm(400, token, "The two passwords differ.");
        }
        try {
            passwords.reset(token, newPassword, Origins.of(request, addresses));
        } catch (BusinessException refused) {
            if (refused.problem() == Problem.VALIDATION) {
                return resetForm(400, token, refused.details() == null ? refused.getMessage() : refused.details());
            }
            return invalidLinkPage();
        }
        return HtmlPages.page(200, "Password changed",
                "<p>Your password has been changed. Log in with the new password.</p>");
    }

    private static Response resetForm(int status, String token, String error) {
        String message = error == null ? "" : "<p class=\"error\" role=\"alert\">" + HtmlPages.escape(error)
                + "</p>\n";
        return HtmlPages.page(status, "Choose a new password", message + """
                <form method="post" action="reset" autocomplete="off">
                <input type="hidden" name="token" value="%s">
                <label for="new_password">New password (at least 8 characters, one upper-case letter, one digit)</label>
                <input id="new_password" name="new_password" type="password" required minlength="8" maxlength="256"
                 autocomplete="new-password">
                <label for="confirm_password">New password again</label>
                <input id="confirm_password" name="confirm_password" type="password" required minlength="8"
                 maxlength="256" autocomplete="new-password">
                <button type="submit">Set the new password</button>
                </form>
                """.formatted(HtmlPages.escape(token)));
    }

    private static Response invalidLinkPage() {
        return HtmlPages.page(400, "Link invalid or expired",
                "<p>This reset link is invalid, used or expired. Ask for a new one from the login page.</p>");
    }

    @POST
    @Path("password/reset")
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a new password with the token of a reset link; ends all the user's sessions")
    public MessageResponse reset(@Valid @NotNull PasswordResetRequest body) {
        passwords.reset(body.token(), body.newPassword(), Origins.of(request, addresses));
        return new MessageResponse("Password reset: log in with the new password");
    }
}
