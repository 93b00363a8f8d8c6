package dev.atrium.marketplace.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;

import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.control.submission.RescanService;
import dev.atrium.platform.error.BusinessException;

/** One agent's failure does not stop the chunk; the counts carry over chunks (and a restart) in the step's data. */
class RescanWriterTest {

    private final Map<String, Object> state = new HashMap<>();
    private final Map<UUID, Object> outcomes = new HashMap<>();

    private RescanWriter writer() {
        var writer = new RescanWriter();
        writer.rescans = new RescanService() {
            @Override
            public Scheduled rescanListed(UUID agentId) {
                Object outcome = outcomes.get(agentId);
                if (outcome instanceof RuntimeException e) {
                    throw e;
                }
                return (Scheduled) outcome;
            }
        };
        writer.step = context(StepContext.class);
        writer.job = context(JobContext.class);
        return writer;
    }

    /** A context keeping the persistent data and the exit status in {@link #state}. */
    private <T> T context(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) ->
                switch (method.getName()) {
                    case "setPersistentUserData", "setExitStatus" -> state.put(method.getName(), args[0]);
                    case "getPersistentUserData" -> state.get("setPersistentUserData");
                    case "getExitStatus" -> state.get("setExitStatus");
                    default -> throw new UnsupportedOperationException(method.getName());
                }));
    }

    private UUID agent(Object outcome) {
        UUID id = UUID.randomUUID();
        outcomes.put(id, outcome);
        return id;
    }

    @Test
    void whenOneAgentCannotBeScannedThenTheOthersAreAndTheExitStatusCountsEach() {
        var first = List.<Object>of(agent(RescanService.Scheduled.CLEAN),
                agent(BusinessException.conflict("The agent's stored bundle is missing from the object store")),
                agent(RescanService.Scheduled.TAKEN_DOWN));
        var second = List.<Object>of(agent(RescanService.Scheduled.SKIPPED), agent(RescanService.Scheduled.CLEAN));

        writer().writeItems(first);
        // a new writer, as after a restart: the step's persistent data carries the counts
        writer().writeItems(second);

        assertThat(state.get("setExitStatus")).isEqualTo("RESCANNED=3,TAKEN_DOWN=1,SKIPPED=1,FAILED=1");
    }
}
