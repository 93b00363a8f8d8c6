package dev.atrium.marketplace.boundary.submission;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.platform.boundary.http.FilterOrder;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.BodyLimit;

/**
 * Bounds a submission's body before anything reads it: a declared {@code Content-Length} above the limit is
 * answered 413 at once, and a body without one (chunked) is cut off with 413 as soon as it passes the limit, so no
 * reader, and no temporary file, ever holds more than the limit.
 */
@Provider
@ApplicationScoped
@UploadLimit
@Priority(FilterOrder.AUTHORIZATION + 1)
public class UploadLimitFilter implements ContainerRequestFilter {

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    @Override
    public void filter(ContainerRequestContext request) {
        long max = config.requestMaxBytes();
        BodyLimit.checkDeclared(request.getHeaderString(HttpHeaders.CONTENT_LENGTH), max,
                () -> tooLarge(max), () -> BusinessException.badRequest("Content-Length is not a number"));
        request.setEntityStream(BodyLimit.bound(request.getEntityStream(), max, () -> tooLarge(max)));
    }

    static BusinessException tooLarge(long max) {
        return new BusinessException(Problem.PAYLOAD_TOO_LARGE, "The submission is too large",
                "A bundle may have at most " + max + " bytes with its card");
    }
}
