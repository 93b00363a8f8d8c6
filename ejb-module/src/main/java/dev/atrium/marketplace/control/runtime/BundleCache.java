package dev.atrium.marketplace.control.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.submission.BundleInspector;
import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.JsonProviders;
import dev.atrium.platform.objects.ObjectStore;
import dev.atrium.sandbox.BundleRefused;
import dev.atrium.sandbox.BundleUnpacker;
import dev.atrium.sandbox.FileTrees;
import dev.atrium.sandbox.ImageArchive;
import dev.atrium.sandbox.ImageConfig;

/**
 * Unpacked bundles under {@code <data-dir>/bundles}, one directory per stored bundle (named by a hash of its object
 * key, which is unique per submitted version): unpacked once per instance, into a fresh directory that is made
 * read-only and then renamed into place atomically, so a run never sees half a bundle and concurrent first calls
 * agree on one copy. The sandbox mounts it read-only as well.
 */
@ApplicationScoped
public class BundleCache {

    private static final Logger LOG = Logger.getLogger(BundleCache.class.getName());

    @Inject
    ObjectStore objects;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    @Inject
    @ConfigProperties
    PlatformConfig platformConfig;

    /** One lock per bundle key, so that concurrent first calls of one version unpack it once. */
    private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();

    /** An unpacked image: its root file system and how to run it. */
    public record Image(Path root, ImageConfig config) {
    }

    /** Whether the stored object is an image archive (its key names the format). */
    public static boolean isImage(String key) {
        return key.endsWith("." + BundleInspector.IMAGE);
    }

    /**
     * The unpacked image stored under {@code key}: {@code <dir>/root} (the sandbox's read-only root) beside
     * {@code <dir>/image.json} (Entrypoint, Cmd, Env, WorkingDir), unpacked once per instance as a bundle is.
     */
    public Image image(String key) {
        Path dir = unpacked(key);
        try (var reader = JsonProviders.JSON.createReader(Files.newBufferedReader(dir.resolve("image.json")))) {
            JsonObject o = reader.readObject();
            return new Image(dir.resolve("root"), new ImageConfig(strings(o, "entrypoint"), strings(o, "cmd"),
                    strings(o, "env"), o.getString("working_dir", "/")));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the unpacked image " + key, e);
        }
    }

    private static List<String> strings(JsonObject o, String name) {
        return o.getJsonArray(name).getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    /** The unpacked directory of the bundle stored under {@code key}. */
    public Path unpacked(String key) {
        Path root = Path.of(platformConfig.dataDir).toAbsolutePath().normalize().resolve("bundles");
        Path target = root.resolve(name(key));
        if (Files.isDirectory(target)) {
            return target;
        }
        synchronized (locks.computeIfAbsent(key, k -> new Object())) {
            if (Files.isDirectory(target)) {
                return target;
            }
            unpack(key, root, target);
            return target;
        }
    }

    private void unpack(String key, Path root, Path target) {
        Path work = root.resolve(".tmp-" + UUID.randomUUID());
        try {
            Files.createDirectories(root);
            Path archive = Files.createFile(root.resolve(".tmp-" + UUID.randomUUID() + ".archive"));
            try {
                var stored = objects.get(key).orElseThrow(() -> new BusinessException(Problem.UNAVAILABLE,
                        "The agent's bundle is missing from the object store"));
                try (InputStream in = stored.content()) {
                    Files.copy(in, archive, StandardCopyOption.REPLACE_EXISTING);
                }
                if (isImage(key)) {
                    var image = ImageArchive.unpack(archive, work.resolve("b").resolve("root"),
                            config.imageCaps());
                    var run = image.config();
                    Files.writeString(work.resolve("b").resolve("image.json"), JsonProviders.JSON.createObjectBuilder()
                            .add("entrypoint", JsonProviders.JSON.createArrayBuilder(run.entrypoint()))
                            .add("cmd", JsonProviders.JSON.createArrayBuilder(run.cmd()))
                            .add("env", JsonProviders.JSON.createArrayBuilder(run.env()))
                            .add("working_dir", run.workingDir()).build().toString());
                } else {
                    BundleUnpacker.unpack(archive, work.resolve("b"), config.bundleMaxEntries,
                            config.bundleMaxUnpackedBytes);
                }
            } finally {
                Files.deleteIfExists(archive);
            }
            readOnly(work.resolve("b"));
            try {
                Files.move(work.resolve("b"), target, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException raced) {
                // another instance sharing the data directory won: its copy is the same bundle
                if (!Files.isDirectory(target)) {
                    throw raced;
                }
            }
        } catch (BundleRefused e) {
            // the bundle passed the same rules at submission; refusing it now means the store changed under us
            LOG.severe(() -> "Stored bundle " + key + " refused at unpacking: " + e.getMessage());
            throw new BusinessException(Problem.UNAVAILABLE, "The agent's bundle cannot be unpacked");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot unpack bundle " + key, e);
        } finally {
            if (!FileTrees.delete(work)) {
                // swept with the data directory
                LOG.fine(() -> "Cannot remove " + work);
            }
        }
    }

    private static void readOnly(Path dir) throws IOException {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile()) {
                    var perms = Files.getPosixFilePermissions(file);
                    perms.removeAll(Set.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE,
                            PosixFilePermission.OTHERS_WRITE));
                    Files.setPosixFilePermissions(file, perms);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static String name(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
