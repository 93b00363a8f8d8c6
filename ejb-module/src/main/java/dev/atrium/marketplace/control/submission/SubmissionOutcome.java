package dev.atrium.marketplace.control.submission;

import java.util.List;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.checks.SafetyReport;

/**
 * A submission's answer: rejected with every problem found, or stored and pending review; with the pre-listing
 * checks' report when they ran (they run only on a card and bundle that passed validation).
 */
public record SubmissionOutcome(List<SubmissionProblem> problems, Agent agent, AgentVersion submission,
                                SafetyReport checks) {

    public static SubmissionOutcome rejected(List<SubmissionProblem> problems) {
        return new SubmissionOutcome(List.copyOf(problems), null, null, SafetyReport.NONE);
    }

    public static SubmissionOutcome rejected(List<SubmissionProblem> problems, SafetyReport checks) {
        return new SubmissionOutcome(List.copyOf(problems), null, null, checks);
    }

    public static SubmissionOutcome accepted(Agent agent, AgentVersion submission, SafetyReport checks) {
        return new SubmissionOutcome(List.of(), agent, submission, checks);
    }

    public boolean isRejected() {
        return !problems.isEmpty();
    }
}
