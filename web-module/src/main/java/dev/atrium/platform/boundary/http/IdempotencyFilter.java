package dev.atrium.platform.boundary.http;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;

import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.IdempotencyStore.StoredResponse;
import dev.atrium.platform.http.IdempotencyStore;

/**
 * {@code Idempotency-Key} on POST: the first request with a key runs and its answer is kept 3600 s per caller and
 * key; a repeat gets the same status, body and headers ({@code Content-Type}, {@code Location} and every
 * {@code Atrium-*}, the facts of an invocation) without running again, marked {@code Idempotent-Replayed}; a
 * concurrent repeat waits for the first. The {@code X-RateLimit-*} headers are not kept: they describe the bucket at
 * the time, and the replay reports the bucket as it is now. The same key with a different request is refused (422),
 * and an answer of 500 or above is not kept, so the client can retry.
 */
@Provider
@ApplicationScoped
@Priority(FilterOrder.IDEMPOTENCY)
public class IdempotencyFilter implements ContainerRequestFilter, ContainerResponseFilter, WriterInterceptor {

    public static final String HEADER = "Idempotency-Key";
    private static final String SCOPE = "atrium.idempotency.scope";
    private static final String FINGERPRINT = "atrium.idempotency.fingerprint";
    private static final String BODY = "atrium.idempotency.body";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String ATRIUM_PREFIX = "Atrium-";

    @Inject
    IdempotencyStore store;

    @Inject
    ClientAddress addresses;

    @Inject
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) throws IOException {
        String key = request.getHeaderString(HEADER);
        if (key == null || !"POST".equals(request.getMethod())) {
            return;
        }
        if (key.isBlank() || key.length() > 255 || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw BusinessException.badRequest(HEADER + " must be 1 to 255 visible ASCII characters");
        }
        // read once for the fingerprint, kept in memory only when small: uploads go to a temporary file
        SpooledBody body = request.hasEntity() ? SpooledBody.read(request.getEntityStream()) : SpooledBody.empty();
        request.setProperty(BODY, body);
        request.setEntityStream(body.stream());
        String fingerprint = fingerprint(request, body.sha256());
        String scope = CallerKeys.of(servletRequest, addresses) + "|" + sha256(key.getBytes(StandardCharsets.UTF_8));

        var claim = store.claim(scope, fingerprint);
        if (claim instanceof IdempotencyStore.Acquired) {
            request.setProperty(SCOPE, scope);
            request.setProperty(FINGERPRINT, fingerprint);
            return;
        }
        StoredResponse stored = claim instanceof IdempotencyStore.Finished f ? f.response()
                : mismatch(claim, fingerprint) ? null
                : store.await(scope, WAIT).orElseThrow(() -> new BusinessException(Problem.CONFLICT,
                "A request with this Idempotency-Key is still in progress; retry later"));
        if (stored == null || !stored.fingerprint().equals(fingerprint)) {
            throw new BusinessException(Problem.VALIDATION, "Idempotency-Key already used for another request",
                    "Send a new key for a different request");
        }
        request.abortWith(replay(stored));
    }

    private static boolean mismatch(IdempotencyStore.Claim claim, String fingerprint) {
        return claim instanceof IdempotencyStore.Running r && !r.fingerprint().equals(fingerprint);
    }

    private static Response replay(StoredResponse stored) {
        var builder = Response.status(stored.status());
        stored.headers().forEach(builder::header);
        builder.header("Idempotent-Replayed", "true");
        if (stored.body().length > 0) {
            builder.entity(stored.body());
        }
        return builder.build();
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(BODY) instanceof SpooledBody body) {
            // the resource has read the body by now (or never will): its temporary file can go
            body.close();
            request.removeProperty(BODY);
        }
        if (!(request.getProperty(SCOPE) instanceof String scope)) {
            return;
        }
        if (response.getStatus() >= 500) {
            store.release(scope);
            return;
        }
        MediaType type = response.getMediaType();
        if (response.hasEntity() && type != null && !type.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
            store.release(scope);
            return;
        }
        var pending = new Pending(scope, (String) request.getProperty(FINGERPRINT), response.getStatus(),
                headersOf(response));
        if (response.hasEntity()) {
            request.setProperty(Pending.class.getName(), pending);
        } else {
            store.complete(scope, pending.with(new byte[0]));
        }
    }

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
        Object pending = context.getProperty(Pending.class.getName());
        if (!(pending instanceof Pending p)) {
            context.proceed();
            return;
        }
        var copy = new ByteArrayOutputStream();
        OutputStream original = context.getOutputStream();
        context.setOutputStream(new FilterOutputStream(original) {
            @Override
            public void write(int b) throws IOException {
                original.write(b);
                copy.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                original.write(b, off, len);
                copy.write(b, off, len);
            }
        });
        context.proceed();
        store.complete(p.scope(), p.with(copy.toByteArray()));
    }

    private record Pending(String scope, String fingerprint, int status, Map<String, String> headers) {
        StoredResponse with(byte[] body) {
            return new StoredResponse(fingerprint, status, headers, body);
        }
    }

    private static Map<String, String> headersOf(ContainerResponseContext response) {
        var kept = new LinkedHashMap<String, String>();
        for (String name : new String[] {HttpHeaders.CONTENT_TYPE, HttpHeaders.LOCATION}) {
            String value = response.getHeaderString(name);
            if (value != null) {
                kept.put(name, value);
            }
        }
        for (String name : response.getStringHeaders().keySet()) {
            if (name.regionMatches(true, 0, ATRIUM_PREFIX, 0, ATRIUM_PREFIX.length())) {
                kept.put(name, response.getHeaderString(name));
            }
        }
        return kept;
    }

    private static String fingerprint(ContainerRequestContext request, String bodySha256) {
        String target = request.getMethod() + " " + request.getUriInfo().getRequestUri().getRawPath() + "?"
                + request.getUriInfo().getRequestUri().getRawQuery();
        return sha256(target.getBytes(StandardCharsets.UTF_8)) + ":" + bodySha256;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
