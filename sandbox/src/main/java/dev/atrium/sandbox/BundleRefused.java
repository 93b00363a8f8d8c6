package dev.atrium.sandbox;

/** A bundle archive that will not be unpacked: the entry at fault (empty for the archive as a whole) and why. */
public class BundleRefused extends RuntimeException {

    private final String entry;
    private final String reason;

    public BundleRefused(String entry, String reason) {
        super(entry == null || entry.isEmpty() ? reason : reason + ": " + entry);
        this.entry = entry == null ? "" : entry;
        this.reason = reason;
    }

    public BundleRefused(String entry, String reason, Throwable cause) {
        this(entry, reason);
        initCause(cause);
    }

    public String entry() {
        return entry;
    }

    public String reason() {
        return reason;
    }
}
