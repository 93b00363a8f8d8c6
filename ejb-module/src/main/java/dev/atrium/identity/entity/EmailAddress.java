package dev.atrium.identity.entity;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

import dev.atrium.platform.error.BusinessException;

/** An e-mail address, trimmed and lower-cased so that one mailbox is one account. */
@Embeddable
public class EmailAddress {

    static final int MAX_LENGTH = 320;
    private static final Pattern SHAPE = Pattern.compile("^[^@\\s]{1,64}@[^@\\s]+\\.[^@\\s]+$");

    @Column(name = "email", nullable = false, length = MAX_LENGTH)
    private String value;

    protected EmailAddress() {
    }

    private EmailAddress(String value) {
        this.value = value;
    }

    public static EmailAddress of(String raw) {
        String normalized = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
        if (normalized.length() > MAX_LENGTH || !SHAPE.matcher(normalized).matches()) {
            throw BusinessException.validation("email: must be a well-formed e-mail address");
        }
        return new EmailAddress(normalized);
    }

    public String value() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EmailAddress other && Objects.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
