package dev.atrium.marketplace.control.pii;

/** A value a detector found: the characters [start, end) of the text it was given, and its kind. */
record Found(int start, int end, Kind kind) {
}
