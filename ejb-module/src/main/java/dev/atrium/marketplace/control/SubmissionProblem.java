package dev.atrium.marketplace.control;

/**
 * One reason a submission was rejected. {@code part} is {@code card} or {@code bundle}; {@code pointer} is the JSON
 * pointer of the offending value in the card (empty for the whole card), or the archive entry's name for the bundle.
 */
public record SubmissionProblem(String part, String pointer, String message) {

    public static SubmissionProblem card(String pointer, String message) {
        return new SubmissionProblem("card", pointer, message);
    }

    public static SubmissionProblem bundle(String entry, String message) {
        return new SubmissionProblem("bundle", entry, message);
    }
}
