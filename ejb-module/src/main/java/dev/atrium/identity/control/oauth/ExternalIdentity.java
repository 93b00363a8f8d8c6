package dev.atrium.identity.control.oauth;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Who the provider says the user is: the subject (the user's identifier there), and the e-mail address, whether the
 * provider verified it, and a name, when shared. Read from ID token claims or a userinfo answer; a plain OAuth 2.0
 * provider without {@code sub} names the user by {@code id}.
 */
public record ExternalIdentity(String subject, Optional<String> email, boolean emailVerified, Optional<String> name,
                               Optional<String> preferredUsername) {

    public static ExternalIdentity of(Map<String, ?> claims) {
        return new ExternalIdentity(text(claims.get("sub")).or(() -> text(claims.get("id"))).orElse(""),
                text(claims.get("email")), truthy(claims.get("email_verified")), text(claims.get("name")),
                text(claims.get("preferred_username")).or(() -> text(claims.get("login"))));
    }

    public static ExternalIdentity of(JsonObject userinfo) {
        var claims = new LinkedHashMap<String, Object>();
        userinfo.forEach((name, value) -> claims.put(name, plain(value)));
        return of(claims);
    }

    /** The ID token's identity, completed from userinfo where the token left something out. */
    public ExternalIdentity completedBy(ExternalIdentity userinfo) {
        boolean useUserinfoEmail = email.isEmpty() && userinfo.email.isPresent();
        return new ExternalIdentity(subject, email.or(() -> userinfo.email),
                useUserinfoEmail ? userinfo.emailVerified : emailVerified, name.or(() -> userinfo.name),
                preferredUsername.or(() -> userinfo.preferredUsername));
    }

    private static Object plain(JsonValue value) {
        if (value instanceof JsonString s) {
            return s.getString();
        }
        if (value instanceof JsonNumber n) {
            return n.toString();
        }
        if (value == JsonValue.TRUE) {
            return Boolean.TRUE;
        }
        if (value == JsonValue.FALSE) {
            return Boolean.FALSE;
        }
        return null;
    }

    private static Optional<String> text(Object value) {
        if (value instanceof String s && !s.isBlank()) {
            return Optional.of(s.strip());
        }
        if (value instanceof Number n) {
            return Optional.of(n.toString());
        }
        return Optional.empty();
    }

    /** {@code true}, or the text "true" that some providers send instead. */
    private static boolean truthy(Object value) {
        return Boolean.TRUE.equals(value) || value instanceof String s && "true".equals(s.toLowerCase(Locale.ROOT));
    }
}
