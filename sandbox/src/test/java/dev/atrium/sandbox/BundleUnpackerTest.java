package dev.atrium.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The unpacker and the shared path rule against hostile archives: a table of known tricks and a seeded loop. */
class BundleUnpackerTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 300);

    @TempDir
    Path dir;

    /** One tar entry: a kind letter (f file, d dir, s symlink, h hard link, c char device, p fifo), name, target. */
    record E(char kind, String name, String target, int mode) {
        static E f(String name) {
            return new E('f', name, "content of " + name, 0644);
        }

        static E s(String name, String target) {
            return new E('s', name, target, 0777);
        }

        static E h(String name, String target) {
            return new E('h', name, target, 0644);
        }
    }

    static Stream<Arguments> hostileTars() {
        return Stream.of(
                Arguments.of("absolute", List.of(E.f("/etc/cron.d/evil")), "/etc/cron.d/evil", "An absolute path"),
                Arguments.of("dot dot", List.of(E.f("a/../../evil")), "a/../../evil", "'..'"),
                Arguments.of("link chain", List.of(E.s("d/l1", ".."), E.s("d/l1/l2", ".."), E.f("d/l1/l2/x")),
                        "d/l1/l2", "through the symbolic link d/l1"),
                Arguments.of("link to a link out", List.of(E.s("a", "."), E.s("b", "a/..")), "b", "outside"),
                Arguments.of("a later link turns an earlier one out", List.of(E.s("b", "a/.."), E.s("a", ".")),
                        "a", "outside"),
                Arguments.of("link to /etc", List.of(E.s("etc", "/etc")), "etc", "outside the bundle: /etc"),
                Arguments.of("link up", List.of(E.s("lib/up", "../../home")), "lib/up", "outside"),
                Arguments.of("write through a link", List.of(E.s("l", "sub"), E.f("l/x")), "l/x",
                        "through the symbolic link l"),
                Arguments.of("link replacing a directory", List.of(E.f("d/x"), E.s("d", "/etc")), "d", "second entry"),
                Arguments.of("file replacing a link", List.of(E.s("a", "b"), E.f("a")), "a", "replacing"),
                Arguments.of("self loop", List.of(E.s("a", "a/b")), "a", "outside"),
                Arguments.of("hard link outside", List.of(E.h("passwd", "../etc/passwd")), "passwd", "outside"),
                Arguments.of("hard link absolute", List.of(E.h("passwd", "/etc/passwd")), "passwd", "outside"),
                Arguments.of("hard link to a later file", List.of(E.h("x", "y"), E.f("y")), "x", "earlier"),
                Arguments.of("hard link through a link", List.of(E.f("d/f"), E.s("l", "d"), E.h("x", "l/f")), "x",
                        "earlier regular file"),
                Arguments.of("device", List.of(new E('c', "null", null, 0666)), "null", "Device and FIFO"),
                Arguments.of("fifo", List.of(new E('p', "pipe", null, 0666)), "pipe", "Device and FIFO"),
                Arguments.of("control characters", List.of(E.f("a\nb")), "a\nb", "control characters"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileTars")
    void whenATarIsHostileThenItIsRefusedNamingTheEntryAndNothingIsWritten(String title, List<E> entries,
                                                                           String entry, String reason)
            throws IOException {
        Path target = dir.resolve("out");
        var refused = catchThrowableOfType(BundleRefused.class,
                () -> BundleUnpacker.unpack(tar(entries), target, 100, 1 << 20));
        assertThat(refused).as(title).isNotNull();
        assertThat(refused.entry()).isEqualTo(entry);
        assertThat(refused.getMessage()).contains(reason).contains(entry);
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left.toList()).isEmpty();
        }
    }

    @Test
    void whenATarStaysInsideThenItIsUnpackedWithSafeModes() throws IOException {
        Path target = dir.resolve("out");
        BundleUnpacker.unpack(tar(List.of(new E('f', "main.py", "print('hi')", 04755), E.f("lib/util.py"),
                new E('d', "data/", null, 01777), E.s("lib/current", "util.py"), E.s("lib/deep/up", "../../main.py"),
                E.s("d/l1", ".."), E.h("copy.py", "lib/util.py"), new E('f', "setgid", "x", 02644))), target, 100,
                1 << 20);
        assertThat(Files.readString(target.resolve("lib/current"))).isEqualTo("content of lib/util.py");
        assertThat(Files.readString(target.resolve("lib/deep/up"))).isEqualTo("print('hi')");
        assertThat(Files.readString(target.resolve("copy.py"))).isEqualTo("content of lib/util.py");
        assertThat(Files.getPosixFilePermissions(target.resolve("main.py")))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(Files.getPosixFilePermissions(target.resolve("setgid")))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(Files.getPosixFilePermissions(target.resolve("data")))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat((int) Files.getAttribute(target.resolve("main.py"), "unix:mode") & 07000).isZero();
    }

    @Test
    void whenTooManyEntriesThenRefusedAtTheFirstOneOver() throws IOException {
        List<E> entries = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            entries.add(E.f("f" + i));
        }
        assertThatThrownBy(() -> BundleUnpacker.unpack(tar(entries), dir.resolve("out"), 10, 1 << 20))
                .isInstanceOf(BundleRefused.class).hasMessage("More than 10 entries: f10");
    }

    @Test
    void whenTooManyBytesThenRefusedWhileReading() throws IOException {
        Path archive = dir.resolve("big.tar.gz");
        try (var tar = new TarArchiveOutputStream(new GZIPOutputStream(Files.newOutputStream(archive)))) {
            var entry = new TarArchiveEntry("zeros");
            entry.setSize(8 << 20);
            tar.putArchiveEntry(entry);
            tar.write(new byte[8 << 20]);
            tar.closeArchiveEntry();
        }
        assertThatThrownBy(() -> BundleUnpacker.unpack(archive, dir.resolve("out"), 10, 1 << 20))
                .isInstanceOf(BundleRefused.class).hasMessage("More than 1048576 bytes once unpacked: zeros");
        assertThat(dir.resolve("out").resolve("zeros")).doesNotExist();
    }

    @Test
    void whenAZipSlipsOutThenItIsRefused() throws IOException {
        assertThatThrownBy(() -> BundleUnpacker.unpack(zip("a/../../evil.sh", "x", null), dir.resolve("out"), 10,
                1 << 20)).isInstanceOf(BundleRefused.class).hasMessageContaining("'..'")
                .hasMessageContaining("a/../../evil.sh");
        assertThatThrownBy(() -> BundleUnpacker.unpack(zip("config", null, "/root/.ssh/id_rsa"), dir.resolve("o2"),
                10, 1 << 20)).isInstanceOf(BundleRefused.class).hasMessageContaining("outside");
        assertThat(dir.getParent().resolve("evil.sh")).doesNotExist();
    }

    @Test
    void whenAZipStaysInsideThenItIsUnpacked() throws IOException {
        BundleUnpacker.unpack(zip("agent/main.py", "print(1)", null), dir.resolve("out"), 10, 1 << 20);
        assertThat(Files.readString(dir.resolve("out/agent/main.py"))).isEqualTo("print(1)");
    }

    @Test
    void whenTheMagicIsWrongThenItIsRefused() throws IOException {
        Path file = dir.resolve("bundle.tar.gz");
        Files.writeString(file, "just text, whatever the name says");
        assertThatThrownBy(() -> BundleUnpacker.unpack(file, dir.resolve("out"), 10, 1 << 20))
                .isInstanceOf(BundleRefused.class).hasMessage("The bundle must be a .tar.gz or .zip archive");
        Path damaged = dir.resolve("damaged.tar.gz");
        Files.write(damaged, new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2, 3});
        assertThatThrownBy(() -> BundleUnpacker.unpack(damaged, dir.resolve("out2"), 10, 1 << 20))
                .isInstanceOf(BundleRefused.class).hasMessageContaining("damaged");
    }

    /**
     * Random archives of random names and links over a small alphabet (so names collide and links chain): whatever
     * is accepted or refused, nothing is ever written outside the target, and every link in it resolves inside.
     */
    @Test
    void whenArchivesAreRandomThenNothingIsEverWrittenOutside() throws IOException {
        var random = new Random(SEED);
        Path sandbox = dir.resolve("fuzz");
        Files.createDirectories(sandbox);
        String[] segments = {"a", "b", "..", ".", "l", "", "c"};
        for (int round = 0; round < ROUNDS; round++) {
            Path outside = Files.createDirectories(sandbox.resolve("r" + round));
            Path target = outside.resolve("in/target");
            List<E> entries = new ArrayList<>();
            int n = 1 + random.nextInt(8);
            for (int i = 0; i < n; i++) {
                String name = randomPath(random, segments, random.nextBoolean());
                char kind = "fffdsssh".charAt(random.nextInt(8));
                String linkTarget = kind == 's' || kind == 'h'
                        ? randomPath(random, segments, random.nextInt(10) == 0) : null;
                entries.add(new E(kind, name, kind == 'f' ? "x" : linkTarget, 0644));
            }
            Path archive = outside.resolve("a.tar.gz");
            try {
                writeTar(archive, entries);
            } catch (IOException | RuntimeException e) {
                continue;
            }
            try {
                BundleUnpacker.unpack(archive, target, 50, 1 << 16);
            } catch (BundleRefused e) {
                try (Stream<Path> left = Files.list(target)) {
                    assertThat(left.toList()).as("round %d left files after a refusal: %s", round, entries).isEmpty();
                }
            }
            assertOnlyExpectedOutside(outside, round, entries);
            assertLinksInside(target.toRealPath(), round, entries);
        }
    }

    private static String randomPath(Random random, String[] segments, boolean absolute) {
        StringBuilder b = new StringBuilder(absolute ? "/" : "");
        int parts = 1 + random.nextInt(4);
        for (int i = 0; i < parts; i++) {
            b.append(i > 0 ? "/" : "").append(segments[random.nextInt(segments.length)]);
        }
        return b.toString();
    }

    /** Outside the target only the archive and the target's own parents may exist. */
    private static void assertOnlyExpectedOutside(Path outside, int round, List<E> entries) throws IOException {
        try (Stream<Path> all = Files.walk(outside)) {
            List<String> names = all.filter(p -> !p.startsWith(outside.resolve("in/target")))
                    .map(p -> outside.relativize(p).toString()).sorted().toList();
            assertThat(names).as("round %d (seed %d) wrote outside: %s", round, SEED, entries)
                    .containsExactly("", "a.tar.gz", "in");
        }
    }

    private static void assertLinksInside(Path root, int round, List<E> entries) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (Files.isSymbolicLink(file) && Files.exists(file)) {
                    assertThat(file.toRealPath().startsWith(root)).as("round %d link %s: %s", round, file, entries)
                            .isTrue();
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private Path tar(List<E> entries) throws IOException {
        Path file = dir.resolve("bundle-" + System.nanoTime() + ".tar.gz");
        writeTar(file, entries);
        return file;
    }

    private static void writeTar(Path file, List<E> entries) throws IOException {
        try (OutputStream out = Files.newOutputStream(file);
             var tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (E e : entries) {
                TarArchiveEntry entry;
                switch (e.kind()) {
                    case 'f' -> {
                        entry = new TarArchiveEntry(e.name(), true);
                        byte[] bytes = e.target().getBytes(StandardCharsets.UTF_8);
                        entry.setSize(bytes.length);
                        entry.setMode(0100000 | e.mode());
                        tar.putArchiveEntry(entry);
                        tar.write(bytes);
                        tar.closeArchiveEntry();
                        continue;
                    }
                    case 'd' -> entry = new TarArchiveEntry(e.name().endsWith("/") ? e.name() : e.name() + "/",
                            TarArchiveEntry.LF_DIR, true);
                    case 's' -> entry = new TarArchiveEntry(e.name(), TarArchiveEntry.LF_SYMLINK, true);
                    case 'h' -> entry = new TarArchiveEntry(e.name(), TarArchiveEntry.LF_LINK, true);
                    case 'c' -> entry = new TarArchiveEntry(e.name(), TarArchiveEntry.LF_CHR, true);
                    default -> entry = new TarArchiveEntry(e.name(), TarArchiveEntry.LF_FIFO, true);
                }
                if (e.kind() == 's' || e.kind() == 'h') {
                    entry.setLinkName(e.target());
                }
                if (e.kind() == 'd') {
                    entry.setMode(040000 | e.mode());
                }
                tar.putArchiveEntry(entry);
                tar.closeArchiveEntry();
            }
        }
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
}
