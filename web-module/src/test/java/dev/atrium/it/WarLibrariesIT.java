package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

/**
 * The libraries the built WAR carries in {@code WEB-INF/lib}, read from each jar's Maven coordinates. Maven takes the
 * version nearest in the tree, test dependencies included: a test library once put half of Netty 4.2 beside the
 * Netty 4.1 codecs Artemis is built on. Needs no server.
 */
class WarLibrariesIT {

    /** Projects released as one set of modules that must not be mixed. */
    private static final Set<String> RELEASED_TOGETHER = Set.of("io.netty", "org.apache.artemis",
            "software.amazon.awssdk", "org.apache.tika");

    @Test
    void whenTheWarIsBuiltThenEachProjectReleasedTogetherHasOneVersion() throws IOException {
        Map<String, Set<String>> versions = new TreeMap<>();
        for (Coordinates library : libraries()) {
            if (RELEASED_TOGETHER.contains(library.groupId())) {
                versions.computeIfAbsent(library.groupId(), g -> new TreeSet<>()).add(library.version());
            }
        }
        assertThat(versions).as("versions by group").containsOnlyKeys(RELEASED_TOGETHER);
        versions.forEach((group, found) -> assertThat(found).as(group).hasSize(1));
    }

    @Test
    void whenTheWarIsBuiltThenNoLibraryIsThereTwice() throws IOException {
        Map<String, List<String>> byArtifact = new TreeMap<>();
        for (Coordinates library : libraries()) {
            byArtifact.computeIfAbsent(library.groupId() + ":" + library.artifactId(), a -> new ArrayList<>())
                    .add(library.file());
        }
        assertThat(byArtifact).allSatisfy((artifact, files) -> assertThat(files).as(artifact).hasSize(1));
    }

    private static List<Coordinates> libraries() throws IOException {
        Path war = Path.of(System.getProperty("atrium.war", "target/atrium.war"));
        List<Coordinates> found = new ArrayList<>();
        try (ZipFile zip = new ZipFile(war.toFile())) {
            var entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (name.startsWith("WEB-INF/lib/") && name.endsWith(".jar")) {
                    String file = name.substring("WEB-INF/lib/".length());
                    try (InputStream jar = zip.getInputStream(entry)) {
                        own(file, jar).ifPresent(found::add);
                    }
                }
            }
        }
        assertThat(found).as("libraries with Maven coordinates in " + war).hasSizeGreaterThan(100);
        return found;
    }

    /** The jar's own coordinates: of the pom.properties it holds (shaded jars hold several), the one it is named by. */
    private static Optional<Coordinates> own(String file, InputStream jar) throws IOException {
        try (ZipInputStream in = new ZipInputStream(jar)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (entry.getName().startsWith("META-INF/maven/") && entry.getName().endsWith("/pom.properties")) {
                    Properties properties = new Properties();
                    properties.load(new StringReader(new String(in.readAllBytes(), "ISO-8859-1")));
                    Coordinates coordinates = new Coordinates(properties.getProperty("groupId"),
                            properties.getProperty("artifactId"), properties.getProperty("version"), file);
                    if (file.startsWith(coordinates.artifactId() + "-" + coordinates.version())) {
                        return Optional.of(coordinates);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private record Coordinates(String groupId, String artifactId, String version, String file) {
    }
}
