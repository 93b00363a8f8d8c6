package dev.atrium.marketplace.control;

import java.util.List;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.Submission;

/** A submission's answer: rejected with every problem found, or stored and pending review. */
public record SubmissionOutcome(List<SubmissionProblem> problems, Agent agent, Submission submission) {

    public static SubmissionOutcome rejected(List<SubmissionProblem> problems) {
        return new SubmissionOutcome(List.copyOf(problems), null, null);
    }

    public static SubmissionOutcome accepted(Agent agent, Submission submission) {
        return new SubmissionOutcome(List.of(), agent, submission);
    }

    public boolean isRejected() {
        return !problems.isEmpty();
    }
}
