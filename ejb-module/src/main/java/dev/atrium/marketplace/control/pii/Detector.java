package dev.atrium.marketplace.control.pii;

import java.util.List;

/**
 * Finds one shape of personal data in normalised text (see {@link Normaliser}), left to right, with look-around
 * bounded by a constant, so that the work is linear in the text whatever the text is.
 */
interface Detector {

    /** Adds what it finds to {@code into}, in order and without overlaps. */
    void find(String text, List<Found> into);
}
