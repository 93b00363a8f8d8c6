package dev.atrium.marketplace.control.submission;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleInspectorTest {

    private final BundleInspector inspector = new BundleInspector(100, 1024 * 1024);

    @TempDir
    Path dir;

    /** Builds a .tar.gz with the given entries. */
    private Path tar(TarEntries entries) throws IOException {
        Path file = dir.resolve("bundle-" + System.nanoTime() + ".tar.gz");
        try (OutputStream out = Files.newOutputStream(file);
             var tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            entries.write(tar);
        }
        return file;
    }

    @FunctionalInterface
    private interface TarEntries {
        void write(TarArchiveOutputStream tar) throws IOException;
    }

    private static void file(TarArchiveOutputStream tar, String name, String content) throws IOException {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        var entry = new TarArchiveEntry(name);
        entry.setSize(bytes.length);
        tar.putArchiveEntry(entry);
        tar.write(bytes);
        tar.closeArchiveEntry();
    }

    private static void link(TarArchiveOutputStream tar, String name, String target, byte type) throws IOException {
        var entry = new TarArchiveEntry(name, type);
        entry.setLinkName(target);
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
    }

    private Path zip(String name, String content, String symlinkTarget) throws IOException {
        Path file = dir.resolve("bundle-" + System.nanoTime() + ".zip");
        try (var zip = new ZipArchiveOutputStream(file)) {
            var entry = new ZipArchiveEntry(name);
            if (symlinkTarget != null) {
                entry.setUnixMode(0120777);
            }
            zip.putArchiveEntry(entry);
            zip.write((symlinkTarget != null ? symlinkTarget : content).getBytes(StandardCharsets.UTF_8));
            zip.closeArchiveEntry();
        }
        return file;
    }

    @Test
    void whenATarGzStaysInsideThenItIsAcceptable() throws IOException {
        var result = inspector.inspect(tar(t -> {
            file(t, "main.py", "print('hi')");
            file(t, "lib/util.py", "x = 1");
            link(t, "lib/current", "util.py", TarArchiveEntry.LF_SYMLINK);
            link(t, "lib/deep/up", "../../main.py", TarArchiveEntry.LF_SYMLINK);
        }));

        assertThat(result.problems()).isEmpty();
        assertThat(result.format()).isEqualTo(BundleInspector.TAR_GZ);
        assertThat(result.entries()).isEqualTo(4);
    }

    @Test
    void whenAZipStaysInsideThenItIsAcceptable() throws IOException {
        var result = inspector.inspect(zip("main.py", "print('hi')", null));

        assertThat(result.acceptable()).isTrue();
        assertThat(result.format()).isEqualTo(BundleInspector.ZIP);
    }

    @Test
    void whenAnEntryClimbsOutWithDotDotThenItIsRefusedAndNamed() throws IOException {
        var tarResult = inspector.inspect(tar(t -> file(t, "../../etc/cron.d/evil", "x")));
        var zipResult = inspector.inspect(zip("a/../../evil.sh", "x", null));

        assertThat(tarResult.problems()).singleElement().satisfies(p -> {
            assertThat(p.part()).isEqualTo("bundle");
            assertThat(p.pointer()).isEqualTo("../../etc/cron.d/evil");
            assertThat(p.message()).contains("..");
        });
        assertThat(zipResult.problems()).extracting(SubmissionProblem::pointer).containsExactly("a/../../evil.sh");
    }

    @Test
    void whenAnEntryIsAbsoluteThenItIsRefused() throws IOException {
        var result = inspector.inspect(zip("/etc/passwd", "x", null));

        assertThat(result.problems()).extracting(SubmissionProblem::message).containsExactly("An absolute path");
    }

    @Test
    void whenASymlinkLeadsOutsideThenItIsRefused() throws IOException {
        var absolute = inspector.inspect(tar(t -> link(t, "data", "/etc/shadow", TarArchiveEntry.LF_SYMLINK)));
        var relative = inspector.inspect(tar(t -> link(t, "lib/data", "../../home", TarArchiveEntry.LF_SYMLINK)));
        var zipped = inspector.inspect(zip("config", null, "/root/.ssh/id_rsa"));

        assertThat(absolute.problems()).extracting(SubmissionProblem::pointer).containsExactly("data");
        assertThat(relative.problems()).extracting(SubmissionProblem::pointer).containsExactly("lib/data");
        assertThat(zipped.problems()).extracting(SubmissionProblem::message)
                .containsExactly("A link that leads outside the bundle: /root/.ssh/id_rsa");
    }

    @Test
    void whenASymlinkChainLeadsOutsideThenTheLinkThroughALinkIsRefused() throws IOException {
        // each link alone stays inside; together d/l1/l2 would be the bundle's parent
        var result = inspector.inspect(tar(t -> {
            link(t, "d/l1", "..", TarArchiveEntry.LF_SYMLINK);
            link(t, "d/l1/l2", "..", TarArchiveEntry.LF_SYMLINK);
        }));
        var turned = inspector.inspect(tar(t -> {
            link(t, "b", "a/..", TarArchiveEntry.LF_SYMLINK);
            link(t, "a", ".", TarArchiveEntry.LF_SYMLINK);
        }));

        assertThat(result.problems()).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("d/l1/l2");
            assertThat(p.message()).isEqualTo("A path through the symbolic link d/l1");
        });
        assertThat(turned.problems()).extracting(SubmissionProblem::pointer).containsExactly("a");
    }

    @Test
    void whenAHardLinkLeadsOutsideThenItIsRefused() throws IOException {
        var result = inspector.inspect(tar(t -> link(t, "passwd", "../etc/passwd", TarArchiveEntry.LF_LINK)));

        assertThat(result.problems()).extracting(SubmissionProblem::pointer).containsExactly("passwd");
    }

    @Test
    void whenADeviceEntryIsPresentThenItIsRefused() throws IOException {
        var result = inspector.inspect(tar(t -> {
            var entry = new TarArchiveEntry("dev-null", TarArchiveEntry.LF_CHR);
            t.putArchiveEntry(entry);
            t.closeArchiveEntry();
        }));

        assertThat(result.problems()).extracting(SubmissionProblem::pointer).containsExactly("dev-null");
    }

    @Test
    void whenNotAnArchiveThenItIsRefused() throws IOException {
        Path file = dir.resolve("bundle.tar.gz");
        Files.writeString(file, "just text, whatever the name says");

        assertThat(inspector.inspect(file).problems()).extracting(SubmissionProblem::message)
                .containsExactly("The bundle must be a .tar.gz or .zip archive");
    }

    @Test
    void whenADamagedArchiveThenItIsRefused() throws IOException {
        Path file = dir.resolve("broken.tar.gz");
        Files.write(file, new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2, 3});

        assertThat(inspector.inspect(file).acceptable()).isFalse();
    }

    @Test
    void whenItUnpacksToMoreThanTheLimitThenItIsRefused() throws IOException {
        var small = new BundleInspector(100, 10_000);
        var result = small.inspect(tar(t -> file(t, "zeros.bin", "0".repeat(50_000))));

        assertThat(result.problems()).extracting(SubmissionProblem::message)
                .containsExactly("More than 10000 bytes once unpacked");
    }

    @Test
    void whenItHasTooManyEntriesThenItIsRefused() throws IOException {
        var few = new BundleInspector(3, 1024 * 1024);
        var result = few.inspect(tar(t -> {
            for (int i = 0; i < 5; i++) {
                file(t, "f" + i, "x");
            }
        }));

        assertThat(result.problems()).extracting(SubmissionProblem::message).containsExactly("More than 3 entries");
    }

    @Test
    void whenEmptyThenItIsRefused() throws IOException {
        assertThat(inspector.inspect(tar(t -> { })).problems()).extracting(SubmissionProblem::message)
                .containsExactly("The bundle is empty");
    }
}
