package dev.atrium.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;

import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundlePackerTest {

    @TempDir
    Path dir;

    private void file(String path, String content) throws Exception {
        Path file = dir.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    /** Entry name to mode, as the server will unpack them. */
    private static Map<String, Integer> entries(byte[] bundle) throws Exception {
        var found = new HashMap<String, Integer>();
        try (var tar = new TarArchiveInputStream(new GzipCompressorInputStream(new ByteArrayInputStream(bundle)))) {
            for (var entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                found.put(entry.getName(), entry.getMode());
            }
        }
        return found;
    }

    @Test
    void whenPackedThenAgentignoreGitAndLinksAreLeftOutAndModesKept() throws Exception {
        file("agent.json", "{}");
        file("main.py", "print()");
        file("run.sh", "echo");
        Files.setPosixFilePermissions(dir.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        file("lib/helper.py", "x = 1");
        file("lib/__pycache__/helper.cpython-311.pyc", "bytes");
        file("data/big.csv", "1,2");
        file("docs/data/keep.txt", "kept: the anchored pattern names data/ at the top only");
        file(".git/config", "[core]");
        file(".env", "SECRET=1");
        file("notes.log", "log");
        Files.createSymbolicLink(dir.resolve("passwd"), Path.of("/etc/passwd"));
        file(".agentignore", "# comment\n\n__pycache__/\n*.log\n/data/\n.env\n");

        var bundle = BundlePacker.pack(dir, PublishCommand.MAX_BUNDLE_BYTES);

        var entries = entries(bundle.bytes());
        assertThat(entries.keySet()).containsExactlyInAnyOrder("agent.json", "main.py", "run.sh", "lib/helper.py",
                "docs/data/keep.txt", ".agentignore");
        assertThat(entries.get("run.sh")).isEqualTo(0755);
        assertThat(entries.get("main.py")).isEqualTo(0644);
        assertThat(bundle.skipped()).singleElement().asString().startsWith("passwd");
    }

    @Test
    void whenTheBundleWouldPassTheLimitThenRefusedNamingTheFile() throws Exception {
        var random = new java.util.Random(7);
        byte[] noise = new byte[64 * 1024];
        random.nextBytes(noise);
        Files.write(dir.resolve("noise.bin"), noise);

        assertThatThrownBy(() -> BundlePacker.pack(dir, 16 * 1024)).isInstanceOf(CliException.class)
                .hasMessageContaining("noise.bin").hasMessageContaining(".agentignore");
    }

    @Test
    void whenAnIgnoreLineNegatesThenRefusedRatherThanMisread() throws Exception {
        file("main.py", "");
        file(".agentignore", "*.py\n!main.py\n");

        assertThatThrownBy(() -> BundlePacker.pack(dir, 1024 * 1024)).isInstanceOf(CliException.class)
                .hasMessageContaining("line 2").hasMessageContaining("negation");
    }

    @Test
    void whenAnIgnoreLineIsNotAGlobThenItsLineIsNamed() throws Exception {
        file("main.py", "");
        file(".agentignore", "ok\n[unclosed\n");

        assertThatThrownBy(() -> BundlePacker.pack(dir, 1024 * 1024)).isInstanceOf(CliException.class)
                .hasMessageContaining("line 2");
    }

    @Test
    void whenWhatWouldBePackedChangesThenTheFingerprintChangesAndOnlyThen() throws Exception {
        file("agent.json", "{}");
        file("main.py", "print(1)");
        file(".agentignore", "notes/\n");
        file("notes/todo.txt", "a");
        String before = BundlePacker.fingerprint(dir);
        assertThat(BundlePacker.fingerprint(dir)).isEqualTo(before);

        file("notes/todo.txt", "a longer note");
        assertThat(BundlePacker.fingerprint(dir)).as("an ignored file").isEqualTo(before);

        file("main.py", "print(2)");
        String sameSize = BundlePacker.fingerprint(dir);
        assertThat(sameSize).as("same size, same tick, other content").isNotEqualTo(before);

        Files.setPosixFilePermissions(dir.resolve("main.py"), PosixFilePermissions.fromString("rwxr-xr-x"));
        String executable = BundlePacker.fingerprint(dir);
        assertThat(executable).isNotEqualTo(sameSize);

        file("lib/helper.py", "");
        assertThat(BundlePacker.fingerprint(dir)).as("a new file").isNotEqualTo(executable);
    }
}
