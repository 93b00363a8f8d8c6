package dev.atrium.platform.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The house rules a reader of the sources can check, read from every module's main sources. */
class HouseRulesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern HANDS_OUT_ENTITY_MANAGER = Pattern.compile("public\\s+EntityManager\\s+\\w+\\s*\\(");

    private static List<Path> sources() throws IOException {
        var found = new ArrayList<Path>();
        try (var modules = Files.list(ROOT)) {
            for (Path source : modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (var files = Files.walk(source)) {
                    files.filter(p -> p.toString().endsWith(".java")).forEach(found::add);
                }
            }
        }
        assertThat(found).extracting(p -> ROOT.relativize(p).getName(0).toString())
                .contains("ejb-module", "web-module", "cli", "sdk", "sandbox", "reports-module");
        return found;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void whenTheSourcesAreReadThenNoneSetsASystemPropertyAtRunTime() throws IOException {
        // rule 11: configuration through MicroProfile Config; the JVM's own settings belong to the launchers
        assertThat(sources()).filteredOn(p -> read(p).contains("System.setProperty(")).isEmpty();
    }

    @Test
    void whenTheClassesHoldingAnEntityManagerAreReadThenNoneHandsItOut() throws IOException {
        // rule 7: a repository (or a service) answers with entities and Optionals; its callers never reach past it
        var holders = sources().stream().filter(p -> read(p).contains("@PersistenceContext")).toList();
        assertThat(holders).hasSizeGreaterThan(20);
        assertThat(holders).filteredOn(p -> HANDS_OUT_ENTITY_MANAGER.matcher(read(p)).find()).isEmpty();
    }

    @Test
    void whenTheWebModuleIsReadThenNoResourceHoldsAnEntityManager() throws IOException {
        // rule 3: resources validate, call one service, map and return
        var web = sources().stream().filter(p -> p.startsWith(ROOT.resolve("web-module"))).toList();
        assertThat(web).isNotEmpty();
        assertThat(web).filteredOn(p -> read(p).contains("EntityManager")).isEmpty();
    }
}
