package dev.atrium.identity.boundary;

/** {@code {"message": …}}, the answer of identity actions that return nothing else. */
public record MessageResponse(String message) {
}
