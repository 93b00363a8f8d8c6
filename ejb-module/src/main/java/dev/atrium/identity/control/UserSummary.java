package dev.atrium.identity.control;

/** What other contexts may know of a user: its id and public name. */
public record UserSummary(long id, String username) {
}
