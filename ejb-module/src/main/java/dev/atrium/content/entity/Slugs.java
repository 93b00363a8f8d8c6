package dev.atrium.content.entity;

import java.text.Normalizer;
import java.util.Locale;

/** URL-safe names: lower-case ASCII letters and digits separated by single hyphens. */
public final class Slugs {

    private Slugs() {
    }

    public static String of(String text, int maxLength, String fallback) {
        String ascii = Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFD)
                .replaceAll("\\p{M}+", "");
        String slug = ascii.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-+|-+$)", "");
        if (slug.length() > maxLength) {
            slug = slug.substring(0, maxLength).replaceAll("-+$", "");
        }
        return slug.isEmpty() ? fallback : slug;
    }
}
