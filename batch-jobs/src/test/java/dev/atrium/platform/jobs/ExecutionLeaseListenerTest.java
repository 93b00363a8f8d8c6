package dev.atrium.platform.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;

class ExecutionLeaseListenerTest {

    @Test
    void whenAJobIsDeclaredThenItHoldsAnExecutionLeaseOrRecoveryWouldTakeItForDead() throws Exception {
        Path dir = Path.of("src/main/resources/META-INF/batch-jobs");
        try (Stream<Path> jobs = Files.list(dir)) {
            var files = jobs.filter(p -> p.toString().endsWith(".xml")).toList();
            assertThat(files).hasSizeGreaterThanOrEqualTo(4);
            for (Path file : files) {
                var factory = DocumentBuilderFactory.newInstance();
                factory.setNamespaceAware(true);
                var job = factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
                var listeners = job.getElementsByTagNameNS("*", "listener");
                boolean leased = false;
                for (int i = 0; i < listeners.getLength(); i++) {
                    var listener = (org.w3c.dom.Element) listeners.item(i);
                    leased |= listener.getParentNode().getParentNode() == job
                            && "executionLease".equals(listener.getAttribute("ref"));
                }
                assertThat(leased).as(file + " declares the job listener executionLease").isTrue();
            }
        }
    }
}
