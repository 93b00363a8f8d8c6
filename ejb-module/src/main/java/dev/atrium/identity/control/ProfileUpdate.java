package dev.atrium.identity.control;

import dev.atrium.platform.patch.Change;

/** A partial change of one's own profile: only the fields present change. */
public record ProfileUpdate(Change<String> username, Change<String> avatar, Change<String> bio) {
}
