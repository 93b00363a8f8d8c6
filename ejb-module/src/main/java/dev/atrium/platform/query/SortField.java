package dev.atrium.platform.query;

/** One term of a {@code sort} parameter: a field name and its direction. */
public record SortField(String field, boolean descending) {

    /** Reads {@code -created_at} or {@code title}. */
    public static SortField parse(String term) {
        String t = term.trim();
        return t.startsWith("-") ? new SortField(t.substring(1).trim(), true) : new SortField(t, false);
    }

    @Override
    public String toString() {
        return (descending ? "-" : "") + field;
    }
}
