package dev.atrium.identity.boundary;

import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.platform.boundary.ClientAddress;

/** The client address and User-Agent of a request, for the audit log and session binding. */
public final class Origins {

    private Origins() {
    }

    public static RequestOrigin of(HttpServletRequest request, ClientAddress addresses) {
        String agent = request.getHeader("User-Agent");
        return new RequestOrigin(addresses.of(request), agent == null ? "" : agent);
    }
}
