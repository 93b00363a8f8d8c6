package dev.atrium.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTreesTest {

    @TempDir
    Path data;

    /**
     * A tree removed whole (the bundle cache's copy after it lost the race to unpack a version to another instance
     * sharing the data directory) is an image, links to host paths included.
     */
    @Test
    void whenATreeIsRemovedThenTheTargetsOfItsLinksKeepTheirModes() throws Exception {
        Path file = Files.writeString(data.resolve("shadow"), "root:*:");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Path dir = Files.createDirectories(data.resolve("bin"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path tree = Files.createDirectories(data.resolve(".tmp-lost/b/root/etc"));
        Files.createSymbolicLink(tree.resolve("shadow"), file);
        Files.createSymbolicLink(tree.getParent().resolve("bin"), dir);
        Files.writeString(tree.resolve("hosts"), "127.0.0.1 localhost");
        Files.setPosixFilePermissions(tree.resolve("hosts"), PosixFilePermissions.fromString("r--r--r--"));

        assertThat(FileTrees.delete(data.resolve(".tmp-lost"))).isTrue();

        assertThat(data.resolve(".tmp-lost")).doesNotExist();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r-----");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwxr-xr-x");
        assertThat(dir).exists();
        assertThat(file).hasContent("root:*:");
    }

    @Test
    void whenADirectoryIsReadOnlyThenItsEntriesAreRemovedAllTheSame() throws Exception {
        Path dir = Files.createDirectories(data.resolve("bundle/lib"));
        Files.writeString(dir.resolve("a.py"), "x");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));

        assertThat(FileTrees.delete(data.resolve("bundle"))).isTrue();

        assertThat(data.resolve("bundle")).doesNotExist();
    }
}
