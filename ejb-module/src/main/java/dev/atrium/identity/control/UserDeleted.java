package dev.atrium.identity.control;

/**
 * An application event: a user was deleted. Rows that refer to the user go with it in the database; other contexts
 * observe this (after the deletion commits) to drop what they keep outside it, such as stored objects.
 */
public record UserDeleted(long userId) {
}
