package dev.atrium.marketplace.boundary;

import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.control.Requester;

/** The marketplace's view of the caller: reviewers hold {@code agent:review}. */
final class Requesters {

    static final String PUBLISH = "agent:publish";
    static final String REVIEW = "agent:review";
    static final String TRUST = "agent:trust";

    private Requesters() {
    }

    static Requester of(HttpServletRequest request) {
        return Callers.current(request).map(c -> new Requester(c.userId(), c.has(REVIEW)))
                .orElse(Requester.anonymous());
    }
}
