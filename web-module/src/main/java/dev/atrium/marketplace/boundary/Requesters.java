package dev.atrium.marketplace.boundary;

import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.control.Requester;

/** The marketplace's view of the caller: reviewers hold {@code agent:review}. */
public final class Requesters {

    public static final String PUBLISH = "agent:publish";
    public static final String REVIEW = "agent:review";
    public static final String TRUST = "agent:trust";

    private Requesters() {
    }

    public static Requester of(HttpServletRequest request) {
        return Callers.current(request).map(c -> new Requester(c.userId(), c.has(REVIEW)))
                .orElse(Requester.anonymous());
    }
}
