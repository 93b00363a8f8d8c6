package dev.atrium.ear;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

/**
 * The archives an operator deploys carry no test hook: the settable clock, {@code /admin/clock} and the crash points
 * that halt the JVM exist only in the integration tests' WAR (web-module's ItWar). Read as the server reads them,
 * nested archives included.
 */
class ProductArchivesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> HOOKS = Set.of("MovableClock", "MovableClockProducer", "ClockResource",
            "AfterCommitCrash", "CrashHookResource");

    @Test
    void whenTheProductArchivesAreReadThenNoTestHookClassIsInside() throws IOException {
        for (Path archive : List.of(ROOT.resolve("web-module/target/atrium.war"),
                ROOT.resolve("web-module/target/atrium-server.war"), ROOT.resolve("ear/target/atrium.ear"))) {
            List<String> classes;
            try (InputStream in = Files.newInputStream(archive)) {
                classes = classes(archive.getFileName().toString(), in);
            }
            // read through to the application's own classes, wherever they are nested
            assertThat(classes).as(archive.toString())
                    .anyMatch(c -> c.endsWith("!dev/atrium/platform/time/ClockProducer.class"))
                    .anyMatch(c -> c.endsWith("dev/atrium/platform/boundary/AtriumApplication.class"));
            assertThat(classes).as(archive.toString()).filteredOn(ProductArchivesTest::isHook).isEmpty();
        }
    }

    private static boolean isHook(String entry) {
        String path = entry.substring(entry.lastIndexOf('!') + 1);
        String name = path.substring(path.lastIndexOf('/') + 1).replaceFirst("[$.].*", "");
        return path.contains("dev/atrium/it/") || HOOKS.contains(name);
    }

    /** Every class entry as {@code outer!nested!path}, into the jars, WARs and RARs inside. */
    private static List<String> classes(String name, InputStream archive) throws IOException {
        var found = new ArrayList<String>();
        var zip = new ZipInputStream(archive);
        for (var entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
            String path = entry.getName();
            if (path.endsWith(".class")) {
                found.add(name + "!" + path);
            } else if (path.endsWith(".jar") || path.endsWith(".war") || path.endsWith(".rar")) {
                found.addAll(classes(name + "!" + path, zip));
            }
        }
        return found;
    }
}
