package dev.atrium.marketplace.control.search;

import java.util.Locale;

import dev.atrium.platform.error.BusinessException;

/** {@code vector}: the spec's order by cosine distance. {@code hybrid}: vector and BM25 rankings fused. */
public enum SearchMode {
    VECTOR, HYBRID;

    public static SearchMode of(String value) {
        if (value == null || value.isBlank()) {
            return VECTOR;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw BusinessException.validation("mode: must be vector or hybrid");
        }
    }
}
