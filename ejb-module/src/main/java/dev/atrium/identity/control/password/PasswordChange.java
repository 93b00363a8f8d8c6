package dev.atrium.identity.control.password;

import dev.atrium.identity.control.login.Session;
import dev.atrium.identity.control.token.TokenPair;

/** After a password change the caller's old credentials are gone; it continues with these (one of them is set). */
public record PasswordChange(TokenPair tokens, Session session) {
}
