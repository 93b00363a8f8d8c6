package dev.atrium.content.boundary;

import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.content.control.Viewer;
import dev.atrium.identity.control.Callers;

/** The content context's view of the caller. */
final class Viewers {

    private Viewers() {
    }

    static Viewer of(HttpServletRequest request) {
        return Callers.current(request).map(c -> new Viewer(c.userId(), c.isAdmin())).orElse(Viewer.ANONYMOUS);
    }
}
