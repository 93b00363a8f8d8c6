package dev.atrium.content.control;

/** Who is looking: a user id (null when anonymous) and whether that user administers the platform. */
public record Viewer(Long userId, boolean admin) {

    public static final Viewer ANONYMOUS = new Viewer(null, false);

    public boolean isAnonymous() {
        return userId == null;
    }
}
