package dev.atrium.platform.objects;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
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
}
