package dev.atrium.marketplace.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.sandbox.Executor;

/**
 * The sandbox in one phrase for {@code /health}: {@code ok} when every limit can be enforced on this machine, else
 * {@code unavailable: <problems>} (untrusted agents are then refused, never run unlimited).
 */
@ApplicationScoped
public class SandboxHealth {

    @Inject
    Executor executor;

    public String describe() {
        try {
            var capabilities = executor.capabilities();
            if (capabilities.canRunUntrusted()) {
                return "ok";
            }
            return "unavailable: " + (capabilities.problems().isEmpty() ? "limits cannot be enforced"
                    : String.join("; ", capabilities.problems()));
        } catch (RuntimeException e) {
            return "unavailable: the sandbox cannot start (" + e.getClass().getSimpleName() + ")";
        }
    }
}
