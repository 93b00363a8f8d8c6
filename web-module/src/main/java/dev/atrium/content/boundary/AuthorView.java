package dev.atrium.content.boundary;

import dev.atrium.identity.control.UserSummary;

/** An expanded author: id and public name. */
public record AuthorView(long id, String username) {

    static AuthorView from(UserSummary user) {
        return new AuthorView(user.id(), user.username());
    }
}
