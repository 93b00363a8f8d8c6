package dev.atrium.platform.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The house rules a reader of the sources can check, read from every module's main sources. */
class HouseRulesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern HANDS_OUT_ENTITY_MANAGER = Pattern.compile("public\\s+EntityManager\\s+\\w+\\s*\\(");
    /** An enterprise bean's class: the EJB annotation, not CDI's {@code jakarta.inject.Singleton}. */
    private static final Pattern ENTERPRISE_BEAN = Pattern.compile(
            "^import jakarta\\.ejb\\.(Stateless|Singleton);[\\s\\S]*^@\\1\\b", Pattern.MULTILINE);
    /** A field injected by CDI: its type is group 1. */
    private static final Pattern CDI_FIELD = Pattern.compile(
            "@(?:jakarta\\.inject\\.)?Inject\\s+(?:@[\\w.]+(?:\\([^)]*\\))?\\s+)*"
                    + "(?:(?:private|protected|public|final)\\s+)*([A-Z]\\w*)\\s+\\w+\\s*;");

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
                .contains("ejb-module", "batch-jobs", "web-module", "cli", "sdk", "sandbox", "reports-module");
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

    @Test
    void whenAnEnterpriseBeanIsInjectedThenItIsByEjbNotByCdi() throws IOException {
        // through a CDI proxy, every call of a bean without an interface costs Payara a thrown and caught
        // IllegalArgumentException and Weld's look-up of the bean (docs/benchmarks.md, "Enterprise beans injected with
        // @EJB"): the container's own reference is called directly
        var sources = sources();
        Set<String> beans = sources.stream().filter(p -> ENTERPRISE_BEAN.matcher(read(p)).find())
                .map(p -> p.getFileName().toString().replace(".java", "")).collect(Collectors.toSet());
        assertThat(beans).hasSizeGreaterThan(50).contains("LoginService", "Authenticator", "OutboxRelay");
        var byCdi = new ArrayList<String>();
        for (Path source : sources) {
            var fields = CDI_FIELD.matcher(read(source));
            while (fields.find()) {
                if (beans.contains(fields.group(1))) {
                    byCdi.add(source.getFileName() + ": " + fields.group(1));
                }
            }
        }
        assertThat(byCdi).isEmpty();
        assertThat(sources).filteredOn(p -> read(p).contains("@EJB")).hasSizeGreaterThan(100);
    }
}
