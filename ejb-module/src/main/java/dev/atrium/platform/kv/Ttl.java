package dev.atrium.platform.kv;

import java.time.Duration;

/** The one reading of a ttl argument, so that both adapters agree on its edges. */
final class Ttl {

    private Ttl() {
    }

    /** Milliseconds to live, or 0 for "never expires"; a positive ttl below one millisecond rounds up to 1. */
    static long millis(Duration ttl) {
        if (ttl == null || ttl.isZero() || ttl.isNegative()) {
            return 0;
        }
        return Math.max(1, ttl.toMillis());
    }
}
