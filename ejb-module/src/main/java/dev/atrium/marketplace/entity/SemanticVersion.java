package dev.atrium.marketplace.entity;

import java.util.regex.Pattern;

import dev.atrium.platform.error.BusinessException;

/** {@code MAJOR.MINOR.PATCH}, compared numerically. */
public record SemanticVersion(int major, int minor, int patch) implements Comparable<SemanticVersion> {

    private static final Pattern FORM = Pattern.compile("(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})");

    public static SemanticVersion parse(String text) {
        var m = text == null ? null : FORM.matcher(text.trim());
        if (m == null || !m.matches()) {
            throw BusinessException.validation("version: must be a semantic version MAJOR.MINOR.PATCH");
        }
        return new SemanticVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)));
    }

    @Override
    public int compareTo(SemanticVersion other) {
        int c = Integer.compare(major, other.major);
        if (c == 0) {
            c = Integer.compare(minor, other.minor);
        }
        return c == 0 ? Integer.compare(patch, other.patch) : c;
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
