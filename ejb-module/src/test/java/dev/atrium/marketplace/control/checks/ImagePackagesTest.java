package dev.atrium.marketplace.control.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The installed-package readers of an image against good, hostile and mutated metadata. */
class ImagePackagesTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261129L);

    @TempDir
    Path root;

    @Test
    void whenAnImageHoldsDpkgPythonAndNpmMetadataThenEachInstalledPackageIsFound() throws Exception {
        Files.createDirectories(root.resolve("var/lib/dpkg"));
        Files.writeString(root.resolve("var/lib/dpkg/status"), ImageChecksTest.DPKG);
        Path dist = Files.createDirectories(root.resolve("usr/lib/python3/dist-packages/Requests_Lib-2.0.dist-info"));
        Files.writeString(dist.resolve("METADATA"), "Metadata-Version: 2.1\nName: Requests_Lib\nVersion: 2.0\n\nName: x");
        Path npm = Files.createDirectories(root.resolve("app/node_modules/@scope/Left-Pad"));
        Files.writeString(npm.resolve("package.json"), "{\"name\":\"@scope/Left-Pad\",\"version\":\"1.3.0\"}");
        Files.writeString(root.resolve("app/package.json"), "{\"name\":\"app\",\"version\":\"1\"}");

        var found = ImagePackages.read(root);

        assertThat(found.packages()).extracting(d -> d.ecosystem() + " " + d.name() + " " + d.version())
                .containsExactlyInAnyOrder("Debian fixture-lib 1.0-1", "PyPI requests-lib 2.0",
                        "npm @scope/left-pad 1.3.0");
        assertThat(found.notes()).isEmpty();
    }

    @Test
    void whenMetadataIsHostileThenNothingBreaksAndBadFilesAreNoted() throws Exception {
        Files.createDirectories(root.resolve("var/lib"));
        // the status file as a link out of the image is not followed
        Files.createSymbolicLink(root.resolve("var/lib/dpkg"), Path.of("/var/lib/dpkg"));
        Path npm = Files.createDirectories(root.resolve("node_modules/bad"));
        Files.writeString(npm.resolve("package.json"), "{\"name\": [1], \"version\": ");
        Path dist = Files.createDirectories(root.resolve("x.dist-info"));
        Files.writeString(dist.resolve("METADATA"), "Name:\nVersion:\n");
        Files.createSymbolicLink(root.resolve("node_modules/outside"), Path.of("/usr/lib/node_modules/npm"));

        var found = ImagePackages.read(root);

        assertThat(found.packages()).isEmpty();
        assertThat(found.notes()).extracting(f -> f.pointer()).containsExactly("node_modules/bad/package.json");
    }

    @Test
    void whenMetadataIsMutatedThenTheParsersNeverThrow() {
        var random = new Random(SEED);
        String[] samples = {ImageChecksTest.DPKG, "Name: a\nVersion: 1\n", "{\"name\":\"a\",\"version\":\"1\"}"};
        for (int round = 0; round < 2000; round++) {
            char[] text = samples[round % samples.length].toCharArray();
            for (int i = 0; i < 1 + random.nextInt(6); i++) {
                text[random.nextInt(text.length)] = (char) random.nextInt(128);
            }
            String mutated = new String(text);
            var out = new ArrayList<Manifests.Dependency>();
            ImagePackages.dpkg(mutated, out);
            ImagePackages.python(mutated, "f", out);
            ImagePackages.npm(mutated, "f", out, new ArrayList<>());
            assertThat(out).allSatisfy(d -> assertThat(d.name()).isNotBlank());
        }
        assertThat(List.of(SEED)).isNotEmpty();
    }
}
