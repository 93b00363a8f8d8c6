package dev.atrium.platform.objects;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Objects as files under a root directory; the content type is kept in a sidecar file. Writes go to a temporary
 * file first and are moved into place, so a reader never sees half an object.
 */
public class FileObjectStore implements ObjectStore {

    private static final String TYPE_SUFFIX = ".content-type";
    private final Path root;

    public FileObjectStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
        try {
            Files.createDirectories(this.root);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the object store at " + this.root, e);
        }
    }

    @Override
    public long put(String key, InputStream content, String contentType) {
        Path target = resolve(key);
        try {
            Path tmp = createTempBeside(target);
            try {
                long size = Files.copy(content, tmp, StandardCopyOption.REPLACE_EXISTING);
                Files.writeString(typeFile(target), contentType == null ? "application/octet-stream" : contentType);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return size;
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot store object " + key, e);
        }
    }

    /** A temporary file in the target's directory, made anew if a deletion pruned it meanwhile. */
    private static Path createTempBeside(Path target) throws IOException {
        for (int attempt = 1;; attempt++) {
            try {
                Files.createDirectories(target.getParent());
                return Files.createTempFile(target.getParent(), ".upload", ".tmp");
            } catch (NoSuchFileException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    @Override
    public Optional<StoredObject> get(String key) {
        Path file = resolve(key);
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            String type = Files.exists(typeFile(file)) ? Files.readString(typeFile(file)) : "application/octet-stream";
            return Optional.of(new StoredObject(Files.newInputStream(file), type, Files.size(file)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read object " + key, e);
        }
    }

    @Override
    public boolean delete(String key) {
        Path file = resolve(key);
        try {
            Files.deleteIfExists(typeFile(file));
            boolean deleted = Files.deleteIfExists(file);
            pruneEmptyParents(file);
            return deleted;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete object " + key, e);
        }
    }

    /** Directories left empty by a deletion go too, so a store of short-lived files does not fill with them. */
    private void pruneEmptyParents(Path file) {
        for (Path dir = file.getParent(); dir != null && !dir.equals(root) && dir.startsWith(root);
                dir = dir.getParent()) {
            try {
                Files.delete(dir);
            } catch (IOException e) {
                // not empty (or written to at this moment): what is above it is not empty either
                return;
            }
        }
    }

    @Override
    public List<String> list(String prefix) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().endsWith(TYPE_SUFFIX)
                            && !f.getFileName().toString().endsWith(".tmp"))
                    .map(f -> root.relativize(f).toString().replace('\\', '/'))
                    .filter(k -> k.startsWith(prefix == null ? "" : prefix))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list objects under " + prefix, e);
        }
    }

    @Override
    public String kind() {
        return "file";
    }

    @Override
    public boolean reachable() {
        return Files.isDirectory(root) && Files.isWritable(root);
    }

    private Path resolve(String key) {
        Path file = root.resolve(ObjectStore.checkedKey(key)).normalize();
        if (!file.startsWith(root)) {
            throw new IllegalArgumentException("Invalid object key");
        }
        return file;
    }

    private static Path typeFile(Path file) {
        return file.resolveSibling(file.getFileName() + TYPE_SUFFIX);
    }
}
