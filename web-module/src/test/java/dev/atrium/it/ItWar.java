package dev.atrium.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * The WAR under test: the one the build produced, plus {@code WEB-INF/lib/atrium-it-jobs.jar} holding the batch
 * jobs of the test sources ({@code META-INF/batch-jobs} and package {@code dev.atrium.it.batch}) and the timers'
 * witness (package {@code dev.atrium.it.probe}).
 */
final class ItWar {

    private ItWar() {
    }

    static Path build(Path war, Path testClasses, Path target) {
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
                out.write(jobsJar(testClasses));
                out.closeEntry();
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot build the test WAR from " + war, e);
        }
    }

    private static byte[] jobsJar(Path testClasses) throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        try (var jar = new ZipOutputStream(bytes)) {
            jar.putNextEntry(new ZipEntry("META-INF/beans.xml"));
            jar.write("""
                    <beans xmlns="https://jakarta.ee/xml/ns/jakartaee" version="4.0" bean-discovery-mode="annotated"/>
                    """.getBytes());
            jar.closeEntry();
            for (Path root : new Path[] {testClasses.resolve("META-INF/batch-jobs"),
                    testClasses.resolve("dev/atrium/it/batch"), testClasses.resolve("dev/atrium/it/probe")}) {
                if (!Files.isDirectory(root)) {
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
        }
        return bytes.toByteArray();
    }
}
