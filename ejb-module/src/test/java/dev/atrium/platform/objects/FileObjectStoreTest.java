package dev.atrium.platform.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on a directory. */
class FileObjectStoreTest extends ObjectStoreContract {

    @TempDir
    Path root;

    private FileObjectStore store;

    @BeforeEach
    void open() {
        store = new FileObjectStore(root.resolve("objects"));
    }

    @Override
    protected ObjectStore store() {
        return store;
    }

    @Override
    protected String expectedKind() {
        return "file";
    }

    @Test
    void whenTheDirectoryIsGoneOrAFileThenTheStoreIsNotReachable() throws IOException {
        var gone = new FileObjectStore(root.resolve("gone"));
        Files.delete(root.resolve("gone"));
        var replaced = new FileObjectStore(root.resolve("replaced"));
        Files.delete(root.resolve("replaced"));
        Files.writeString(root.resolve("replaced"), "not a directory");

        assertThat(gone.reachable()).isFalse();
        assertThat(replaced.reachable()).isFalse();
    }

    @Test
    void whenTheLastObjectOfADirectoryIsDeletedThenTheEmptyDirectoriesGoButNotTheirNonEmptyParents() {
        store.put("7/a/one.txt", new ByteArrayInputStream(new byte[] {1}), "text/plain");
        store.put("7/b/two.txt", new ByteArrayInputStream(new byte[] {2}), "text/plain");

        store.delete("7/a/one.txt");

        assertThat(Files.exists(root.resolve("objects/7/a"))).isFalse();
        assertThat(Files.exists(root.resolve("objects/7/b/two.txt"))).isTrue();
        store.delete("7/b/two.txt");
        assertThat(Files.exists(root.resolve("objects/7"))).isFalse();
        assertThat(Files.isDirectory(root.resolve("objects"))).isTrue();
    }
}
