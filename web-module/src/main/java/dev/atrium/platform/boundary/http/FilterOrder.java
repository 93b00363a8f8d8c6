package dev.atrium.platform.boundary.http;

import jakarta.ws.rs.Priorities;

/**
 * The order of the request pipeline, outermost first: request logging (the servlet filter), request timing,
 * method override,
 * version policy, rate limit, body limit, authentication, authorization, idempotency.
 */
public final class FilterOrder {

    public static final int REQUEST_METRICS = 10;
    public static final int METHOD_OVERRIDE = 100;
    public static final int VERSIONING = 200;
    public static final int RATE_LIMIT = 300;
    public static final int BODY_LIMIT = 400;
    public static final int AUTHENTICATION = Priorities.AUTHENTICATION;
    public static final int AUTHORIZATION = Priorities.AUTHORIZATION;
    public static final int IDEMPOTENCY = Priorities.USER;
    public static final int FIELD_SELECTION = Priorities.USER + 100;

    private FilterOrder() {
    }
}
