package dev.atrium.platform.boundary;

import java.util.UUID;

import dev.atrium.platform.error.BusinessException;

/** Identifiers read from a request path. */
public final class PathIds {

    private PathIds() {
    }

    /** The UUID {@code value} spells; anything else names no {@code what}, so it is answered "not found". */
    public static UUID uuid(String value, String what) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw BusinessException.notFound(what);
        }
    }
}
