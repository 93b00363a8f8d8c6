package dev.atrium.marketplace.entity;

/** An agent's code bundle in the object store: its key, size and format ({@code tar.gz} or {@code zip}). */
public record StoredBundle(String key, long size, String format) {
}
