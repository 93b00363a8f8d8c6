package dev.atrium.platform.boundary.http;

import java.lang.reflect.Method;
import java.util.Arrays;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.BodyLimit;

/**
 * Holds every request body except uploads to {@code atrium.http.max-body-bytes} (1 MiB by default) before anything
 * reads it: a declared {@code Content-Length} above the limit is answered 413 at once, and a body without one
 * (chunked) is cut off with 413 as soon as it passes the limit, so neither the JSON readers nor idempotency's
 * spooling ever hold more. After matching, so that it sees the method a {@code X-HTTP-Method-Override} chose and
 * can leave the multipart uploads (files, agent submissions) to their own, larger limits.
 */
@Provider
@ApplicationScoped
@Priority(FilterOrder.BODY_LIMIT)
public class BodyLimitFilter implements ContainerRequestFilter {

    @Inject
    @ConfigProperties
    PlatformConfig config;

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        if (upload(resource.getResourceMethod())) {
            return;
        }
        long max = config.httpMaxBodyBytes;
        BodyLimit.checkDeclared(request.getHeaderString(HttpHeaders.CONTENT_LENGTH), max, () -> tooLarge(max),
                () -> BusinessException.badRequest("Content-Length is not a number"));
        request.setEntityStream(BodyLimit.bound(request.getEntityStream(), max, () -> tooLarge(max)));
    }

    /** A method that takes multipart bodies is an upload, bounded by its own filter. */
    static boolean upload(Method method) {
        if (method == null) {
            return false;
        }
        Consumes consumes = method.isAnnotationPresent(Consumes.class) ? method.getAnnotation(Consumes.class)
                : method.getDeclaringClass().getAnnotation(Consumes.class);
        return consumes != null && Arrays.stream(consumes.value())
                .flatMap(v -> Arrays.stream(v.split(",")))
                .map(v -> MediaType.valueOf(v.trim()))
                .anyMatch(t -> "multipart".equalsIgnoreCase(t.getType()));
    }

    static BusinessException tooLarge(long max) {
        return new BusinessException(Problem.PAYLOAD_TOO_LARGE, "Request body too large",
                "A request body may have at most " + max + " bytes");
    }
}
