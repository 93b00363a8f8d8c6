package dev.atrium.ai.boundary.files;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.ai.control.files.FileService;
import dev.atrium.identity.control.CallerPrincipal;
import dev.atrium.platform.boundary.http.FilterOrder;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.http.BodyLimit;

/**
 * Bounds an upload's body by the caller's limit before anything reads it, right after the permission check (so a
 * caller without {@code file:upload} hears 403, not 413): a declared {@code Content-Length} above the file limit
 * plus the multipart envelope is answered 413 at once, and a body without one (chunked) is cut off with 413 as soon
 * as it passes that, so neither memory nor the temporary files of the multipart reader ever hold more. The file
 * part itself is held to the exact limit while it is stored.
 */
@Provider
@ApplicationScoped
@FileUploadLimit
@Priority(FilterOrder.AUTHORIZATION + 1)
public class FileUploadLimitFilter implements ContainerRequestFilter {

    @Inject
    UploadLimits limits;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!(request.getSecurityContext().getUserPrincipal() instanceof CallerPrincipal principal)) {
            return;
        }
        long file = limits.fileBytes(principal.caller().userId());
        long body = file + UploadLimits.ENVELOPE_BYTES;
        BodyLimit.checkDeclared(request.getHeaderString(HttpHeaders.CONTENT_LENGTH), body,
                () -> FileService.tooLarge(file),
                () -> BusinessException.badRequest("Content-Length is not a number"));
        request.setEntityStream(BodyLimit.bound(request.getEntityStream(), body,
                () -> FileService.tooLarge(file)));
    }
}
