package dev.atrium.containerit.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.BatchStatus;
import jakarta.inject.Inject;

import org.assertj.core.api.Assertions;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.containerit.Await;
import dev.atrium.containerit.Libraries;

/** A chunk job of Payara Micro's batch runtime, failed in its second chunk and restarted, resumes at its checkpoint. */
@ExtendWith(ArquillianExtension.class)
class CheckpointRestartIT {

    private static final String JOB = "checkpoint-restart";

    @Deployment
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "batch.war")
                .addClasses(BatchLog.class, NumberReader.class, FailingOnceWriter.class, Await.class)
                .addAsResource("batch/" + JOB + ".xml", "META-INF/batch-jobs/" + JOB + ".xml")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsLibraries(Libraries.jarsOf(Assertions.class));
    }

    @Inject
    BatchLog log;

    @Test
    void whenFailedJobIsRestartedThenItResumesAfterTheLastCheckpoint() {
        JobOperator jobs = BatchRuntime.getJobOperator();
        String run = UUID.randomUUID().toString();
        var parameters = new Properties();
        parameters.setProperty("run", run);
        parameters.setProperty("last", "10");
        parameters.setProperty("failAt", "5");

        long first = jobs.start(JOB, parameters);
        awaitEnd(jobs, first);

        assertThat(jobs.getJobExecution(first).getBatchStatus()).isEqualTo(BatchStatus.FAILED);
        // chunk 1..3 committed (checkpoint 3); chunk 4..6 was read, its write failed and was rolled back
        assertThat(log.written(run)).containsExactly(1, 2, 3);
        assertThat(log.read(run)).containsExactly(1, 2, 3, 4, 5, 6);

        long second = jobs.restart(first, parameters);
        awaitEnd(jobs, second);

        assertThat(jobs.getJobExecution(second).getBatchStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(log.read(run)).containsExactlyElementsOf(
                Stream.concat(numbers(1, 6).stream(), numbers(4, 10).stream()).toList());
        assertThat(log.written(run)).containsExactlyElementsOf(numbers(1, 10));
    }

    private static void awaitEnd(JobOperator jobs, long execution) {
        Await.until("the end of job execution " + execution, Duration.ofSeconds(60), () -> switch (
                jobs.getJobExecution(execution).getBatchStatus()) {
            case COMPLETED, FAILED, STOPPED, ABANDONED -> true;
            default -> false;
        });
    }

    private static List<Integer> numbers(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().toList();
    }
}
