package dev.atrium.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import dev.atrium.platform.time.MovableClock;

/**
 * The WAR under test: the one the build produced, plus {@code WEB-INF/lib/atrium-it-jobs.jar} holding the batch
 * jobs of the test sources ({@code META-INF/batch-jobs} and package {@code dev.atrium.it.batch}), the timers'
 * witness (package {@code dev.atrium.it.probe}) and, unless left out, the test hooks (package
 * {@code dev.atrium.it.hooks}, with the {@link MovableClock} they move), which the product leaves out. Without the
 * hooks every class of the product runs as shipped, its own clock included.
 */
final class ItWar {

    private ItWar() {
    }

    static Path build(Path war, Path testClasses, Path target, boolean hooks) {
        try {
            Files.createDirectories(target.getParent());
            try (var out = new ZipOutputStream(Files.newOutputStream(target)); var in = new ZipFile(war.toFile())) {
                var entries = in.entries();
                while (entries.hasMoreElements()) {
                    ZipEntry entry = entries.nextElement();
                    out.putNextEntry(new ZipEntry(entry.getName()));
                    try (var data = in.getInputStream(entry)) {
                        data.transferTo(out);
                    }
                    out.closeEntry();
                }
                out.putNextEntry(new ZipEntry("WEB-INF/lib/atrium-it-jobs.jar"));
                out.write(jobsJar(testClasses, hooks));
                out.closeEntry();
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot build the test WAR from " + war, e);
        }
    }

    private static byte[] jobsJar(Path testClasses, boolean hooks) throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        try (var jar = new ZipOutputStream(bytes)) {
            jar.putNextEntry(new ZipEntry("META-INF/beans.xml"));
            jar.write("""
                    <beans xmlns="https://jakarta.ee/xml/ns/jakartaee" version="4.0" bean-discovery-mode="annotated"/>
                    """.getBytes());
            jar.closeEntry();
            for (Path root : new Path[] {testClasses.resolve("META-INF/batch-jobs"),
                    testClasses.resolve("dev/atrium/it/batch"), testClasses.resolve("dev/atrium/it/probe"),
                    testClasses.resolve("dev/atrium/it/hooks")}) {
                if (!Files.isDirectory(root) || !hooks && root.endsWith("hooks")) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(root)) {
                    for (Path file : files.filter(Files::isRegularFile).toList()) {
                        jar.putNextEntry(new ZipEntry(testClasses.relativize(file).toString().replace('\\', '/')));
                        jar.write(Files.readAllBytes(file));
                        jar.closeEntry();
                    }
                }
            }
            if (hooks) {
                // from ejb-module's test jar, on this class path
                String clock = MovableClock.class.getName().replace('.', '/') + ".class";
                jar.putNextEntry(new ZipEntry(clock));
                try (var data = MovableClock.class.getClassLoader().getResourceAsStream(clock)) {
                    data.transferTo(jar);
                }
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }
}
