package dev.atrium.identity.control.password;

import java.util.ArrayList;

import dev.atrium.platform.error.BusinessException;

/** Spec 01: at least 8 characters, one upper-case letter and one digit. */
public final class PasswordPolicy {

    public static final int MIN_LENGTH = 8;
    /** Longer inputs only cost hashing time; no real password is this long. */
    public static final int MAX_LENGTH = 256;

    private PasswordPolicy() {
    }

    public static void check(String password) {
        var problems = new ArrayList<String>();
        if (password == null || password.length() < MIN_LENGTH) {
            problems.add("at least " + MIN_LENGTH + " characters");
        }
        if (password != null && password.length() > MAX_LENGTH) {
            problems.add("at most " + MAX_LENGTH + " characters");
        }
        if (password == null || password.chars().noneMatch(Character::isUpperCase)) {
            problems.add("one upper-case letter");
        }
        if (password == null || password.chars().noneMatch(Character::isDigit)) {
            problems.add("one digit");
        }
        if (!problems.isEmpty()) {
            throw BusinessException.validation("password: must contain " + String.join(", ", problems));
        }
    }
}
