package dev.atrium.platform.boundary;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The contexts' rules (docs/architecture.md), read from the compiled classes of the three modules (ejb-module,
 * batch-jobs, web-module): a context reaches another only through its {@code control} package (services, events,
 * records, exceptions) and by id, never its entities, jobs or resources; resources never hold an
 * {@code EntityManager}; the contexts depend on each other one way only; {@code platform} depends on none of them.
 */
class ArchitectureTest {

    private static final List<String> CONTEXTS = List.of("identity", "content", "ai", "marketplace", "billing");
    /** Another context's parts that only the context itself may use. */
    private static final List<String> PRIVATE_ROLES = List.of("entity", "batch", "boundary");

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.atrium");
        // every module: a resource (web), an entity (EJB) and a job's writer (batch) must be among them, or the rules
        // check nothing there
        assertThat(classes.contain("dev.atrium.platform.boundary.http.ErrorMapper")).isTrue();
        assertThat(classes.stream().anyMatch(c -> c.getPackageName().equals("dev.atrium.ai.entity"))).isTrue();
        assertThat(classes.contain("dev.atrium.billing.batch.PayoutWriter")).isTrue();
    }

    static Stream<Arguments> contextPairs() {
        return Stream.concat(Stream.of("platform"), CONTEXTS.stream())
                .flatMap(user -> CONTEXTS.stream().filter(owner -> !owner.equals(user))
                        .flatMap(owner -> PRIVATE_ROLES.stream().map(role -> Arguments.of(user, owner, role))));
    }

    @ParameterizedTest(name = "{0} -> {1}.{2}")
    @MethodSource("contextPairs")
    void whenAContextUsesAnotherThenOnlyThroughItsControlPackage(String user, String owner, String role) {
        noClasses().that().resideInAPackage("dev.atrium." + user + "..")
                .should().dependOnClassesThat().resideInAPackage("dev.atrium." + owner + "." + role + "..")
                .because("a context reaches another through its control services and by id")
                .check(classes);
    }

    @Test
    void whenAResourceIsCompiledThenItNeverTouchesTheEntityManager() {
        noClasses().that().resideInAPackage("..boundary..")
                .should().dependOnClassesThat().haveFullyQualifiedName("jakarta.persistence.EntityManager")
                .because("resources validate, call one service, map and return")
                .check(classes);
    }

    @Test
    void whenTheContextsDependOnEachOtherThenThereIsNoCycle() {
        slices().matching("dev.atrium.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void whenThePlatformsSourcesAreReadThenTheyImportNoContext() throws IOException {
        // a context's constant (a queue's name in a bean's annotation) is inlined by the compiler: only the source
        // shows that dependency
        var imports = Pattern.compile("^import (static )?dev\\.atrium\\.(" + String.join("|", CONTEXTS) + ")\\.",
                Pattern.MULTILINE);
        var found = new ArrayList<Path>();
        for (String module : List.of("ejb-module", "batch-jobs", "web-module")) {
            try (var files = Files.walk(ROOT.resolve(module).resolve("src/main/java/dev/atrium/platform"))) {
                files.filter(p -> p.toString().endsWith(".java")).forEach(found::add);
            }
        }
        assertThat(found).hasSizeGreaterThan(100);
        assertThat(found).filteredOn(p -> imports.matcher(read(p)).find()).isEmpty();
    }

    @Test
    void whenThePlatformIsCompiledThenItDependsOnNoContext() {
        noClasses().that().resideInAPackage("dev.atrium.platform..")
                .should().dependOnClassesThat().resideInAnyPackage(CONTEXTS.stream()
                        .map(context -> "dev.atrium." + context + "..").toArray(String[]::new))
                .because("every context builds on the platform, so the platform cannot know them")
                .check(classes);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
