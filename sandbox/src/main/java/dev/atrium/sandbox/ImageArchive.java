package dev.atrium.sandbox;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarFile;
import org.apache.commons.io.input.BoundedInputStream;

/**
 * Reads an OCI image archive, as {@code skopeo copy ... oci-archive:} writes it (an OCI image layout:
 * {@code oci-layout}, {@code index.json}, {@code blobs/sha256/...}) or as {@code docker save} writes it
 * ({@code manifest.json}, the config and one tar per layer; Docker 25 writes both), a plain tar or gzipped, and
 * unpacks its layers into an empty directory: the root file system of one agent version.
 *
 * <p>Every blob read is verified: the index's manifest, the manifest's config and layers against their
 * {@code sha256} digests (OCI layout), the config against the digest in its name ({@code docker save}), and every
 * layer's uncompressed tar against the config's {@code rootfs.diff_ids} (both formats). Layers are applied in order
 * with their whiteouts ({@code .wh.name} removes a lower entry, {@code .wh..wh..opq} the lower contents of its
 * directory). Refused, naming the layer and the entry: absolute names and {@code ..} segments, a path through a
 * symbolic link or a file, a hard link to anything but a regular file already in the tree, device nodes and FIFOs,
 * zstd layers, more than the caps (entries, unpacked bytes in total and per entry, layers). Symbolic links may point
 * anywhere, absolute targets included: they are resolved only inside the sandbox, whose root this tree becomes, and
 * nothing here follows them. Ownership is dropped (the agent runs as uid 65534); modes are normalised as a bundle's:
 * directories 0755, files 0644, or 0755 when executable. Setuid and setgid bits are stripped, not refused (Debian's
 * base holds several such programs, and the sandbox's no-new-privileges makes the bit inert anyway); the files that
 * had them, and the world-writable paths, are reported for the image scan. Afterwards the platform's mount points
 * exist as plain directories ({@code proc}, {@code dev}, {@code tmp}, {@code scratch}) and files
 * ({@code etc/passwd}, {@code etc/group}), since the sandbox mounts over them on a read-only root.
 */
public final class ImageArchive {

    /** The bounds of one unpacking. */
    public record Caps(int maxEntries, long maxUnpackedBytes, long maxEntryBytes, int maxLayers) {

        public static Caps of(int maxEntries, long maxUnpackedBytes) {
            return new Caps(maxEntries, maxUnpackedBytes, maxUnpackedBytes, 128);
        }
    }

    /** An unpacked image: how to run it, and what the image scan should look at. */
    public record Unpacked(ImageConfig config, int layers, int entries, long bytes, List<String> setuid,
                           List<String> worldWritable) {

        public Unpacked {
            setuid = List.copyOf(setuid);
            worldWritable = List.copyOf(worldWritable);
        }
    }

    static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";
    static final String DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
    private static final Pattern DIGEST = Pattern.compile("sha256:([0-9a-f]{64})");
    /** {@code docker save}'s config names: {@code <hex>.json} (before Docker 25) or {@code blobs/sha256/<hex>}. */
    private static final Pattern CONFIG_NAME = Pattern.compile("(?:blobs/sha256/)?([0-9a-f]{64})(?:\\.json)?");
    static final long PROBE_BYTES = 256L * 1024 * 1024;
    private static final int MAX_JSON_BYTES = 4 * 1024 * 1024;
    private static final int MAX_REPORTED = 200;
    /** The outer archive's entries are all held in memory by {@link TarFile}: a docker save of 128 layers has ~400. */
    static final int MAX_OUTER_ENTRIES = 10_000;
    private static final int MAX_LINK_TARGET = 4096;
    /** The paths the sandbox mounts over: directories, then files. */
    static final List<String> MOUNT_DIRS = List.of("proc", "dev", "tmp", "scratch", "etc");
    static final List<String> MOUNT_FILES = List.of("etc/passwd", "etc/group");

    private ImageArchive() {
    }

    /**
     * Whether the file is an image archive rather than a bundle: a plain tar is (bundles are {@code .tar.gz} or
     * {@code .zip}); a gzipped tar is when it holds an {@code oci-layout}, or a {@code manifest.json} with blobs or
     * layer tars beside it, within its first {@link #PROBE_BYTES} inflated bytes (a bundle is probed that far at
     * most).
     */
    public static boolean isImage(Path file) {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            in.mark(600);
            byte[] head = in.readNBytes(512);
            in.reset();
            if (isTar(head)) {
                return true;
            }
            if (head.length < 2 || (head[0] & 0xff) != 0x1f || (head[1] & 0xff) != 0x8b) {
                return false;
            }
            boolean manifest = false;
            boolean blobs = false;
            try (var tar = new TarArchiveInputStream(BoundedInputStream.builder()
                    .setInputStream(new GZIPInputStream(in)).setMaxCount(PROBE_BYTES).get())) {
                TarArchiveEntry entry;
                for (int n = 0; n < 100_000 && (entry = tar.getNextEntry()) != null; n++) {
                    String name = BundlePaths.normalize(entry.getName());
                    if (name.equals("oci-layout")) {
                        return true;
                    }
                    manifest |= name.equals("manifest.json");
                    blobs |= name.startsWith("blobs/sha256/") || name.endsWith("/layer.tar");
                    if (manifest && blobs) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean isTar(byte[] block) {
        return block.length == 512 && block[257] == 'u' && block[258] == 's' && block[259] == 't'
                && block[260] == 'a' && block[261] == 'r';
    }

    /** Unpacks the image into {@code targetDir} (created, or empty), or refuses it and leaves the directory empty. */
    public static Unpacked unpack(Path archive, Path targetDir, Caps caps) {
        Path root;
        try {
            Files.createDirectories(targetDir);
            root = targetDir.toRealPath();
            try (DirectoryStream<Path> existing = Files.newDirectoryStream(root)) {
                if (existing.iterator().hasNext()) {
                    throw new IllegalArgumentException("The target directory is not empty: " + targetDir);
                }
            }
            Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new BundleRefused("", "The target directory cannot be prepared", e);
        }
        Path plain = null;
        var run = new Unpacking(root, caps);
        try {
            plain = plainTar(archive, root, caps);
            countOuter(plain == null ? archive : plain);
            try (TarFile tar = new TarFile(plain == null ? archive : plain)) {
                return run.image(new Outer(tar));
            }
        } catch (BundleRefused e) {
            clear(root);
            throw e;
        } catch (IOException | RuntimeException e) {
            clear(root);
            throw new BundleRefused(run.current, "The archive is damaged or not an image archive", e);
        } finally {
            if (plain != null) {
                try {
                    Files.deleteIfExists(plain);
                } catch (IOException ignored) {
                    // it lies beside the target, which the caller removes
                }
            }
        }
    }

    /** Counts the outer entries by streaming (their contents are skipped, not read) before any is held. */
    private static void countOuter(Path tarFile) throws IOException {
        try (var tar = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(tarFile)))) {
            int n = 0;
            while (tar.getNextEntry() != null) {
                if (++n > MAX_OUTER_ENTRIES) {
                    throw new BundleRefused("", "More than " + MAX_OUTER_ENTRIES + " entries in the archive itself");
                }
            }
        }
    }

    /** A gzipped archive is first inflated beside the target (bounded), since the tar is read out of order. */
    private static Path plainTar(Path archive, Path root, Caps caps) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(archive)) {
            head = in.readNBytes(512);
        }
        if (isTar(head)) {
            return null;
        }
        if (head.length < 2 || (head[0] & 0xff) != 0x1f || (head[1] & 0xff) != 0x8b) {
            throw new BundleRefused("", "An image archive must be a tar (docker save, or an OCI archive), "
                    + "plain or gzipped");
        }
        Path plain = Files.createTempFile(root.getParent(), ".image-", ".tar");
        long cap = 2 * caps.maxUnpackedBytes() + 16 * 1024 * 1024;
        try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(archive)));
             OutputStream out = Files.newOutputStream(plain)) {
            byte[] buffer = new byte[65536];
            long total = 0;
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
                if (total > cap) {
                    throw new BundleRefused("", "More than " + cap + " bytes once the archive is inflated");
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(plain);
            throw e;
        }
        return plain;
    }

    private static void clear(Path root) {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(root)) {
            for (Path child : children) {
                FileTrees.delete(child);
            }
        } catch (IOException ignored) {
            // best effort: the caller owns the directory
        }
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The outer archive's files by name; its symbolic links (Docker 25's {@code <id>/layer.tar}) followed inside. */
    private static final class Outer {
        private final TarFile tar;
        private final Map<String, TarArchiveEntry> files = new HashMap<>();
        private final Map<String, String> links = new HashMap<>();

        Outer(TarFile tar) {
            this.tar = tar;
            for (TarArchiveEntry entry : tar.getEntries()) {
                String name = BundlePaths.normalize(entry.getName());
                if (BundlePaths.unsafeName(entry.getName()) != null || name.isEmpty()) {
                    continue;
                }
                if (files.containsKey(name) || links.containsKey(name)) {
                    throw new BundleRefused(name, "A second entry named");
                }
                if (entry.isSymbolicLink()) {
                    int slash = name.lastIndexOf('/');
                    String target = (slash < 0 ? "" : name.substring(0, slash + 1)) + entry.getLinkName();
                    if (!BundlePaths.isAbsolute(entry.getLinkName()) && !BundlePaths.escapes(target)) {
                        links.put(name, lexical(target));
                    }
                } else if (entry.isFile() && !entry.isLink()) {
                    files.put(name, entry);
                }
            }
        }

        private static String lexical(String path) {
            List<String> out = new ArrayList<>();
            for (String segment : path.split("/")) {
                if (segment.isEmpty() || segment.equals(".")) {
                    continue;
                }
                if (segment.equals("..")) {
                    out.remove(out.size() - 1);
                } else {
                    out.add(segment);
                }
            }
            return String.join("/", out);
        }

        boolean has(String name) {
            return find(name) != null;
        }

        TarArchiveEntry find(String name) {
            String at = BundlePaths.normalize(name);
            for (int hops = 0; hops < 8 && links.containsKey(at); hops++) {
                at = links.get(at);
            }
            return files.get(at);
        }

        TarArchiveEntry require(String name, String what) {
            TarArchiveEntry entry = find(name);
            if (entry == null) {
                throw new BundleRefused(name, "The archive lacks the " + what);
            }
            return entry;
        }

        InputStream open(TarArchiveEntry entry) throws IOException {
            return tar.getInputStream(entry);
        }

        /** A JSON document, bounded, verified against {@code hex} when given. */
        JsonStructure json(String name, String what, String hex) throws IOException {
            TarArchiveEntry entry = require(name, what);
            if (entry.getSize() > MAX_JSON_BYTES) {
                throw new BundleRefused(name, "The " + what + " is larger than " + MAX_JSON_BYTES + " bytes");
            }
            byte[] bytes;
            try (InputStream in = open(entry)) {
                bytes = in.readNBytes(MAX_JSON_BYTES + 1);
            }
            if (bytes.length > MAX_JSON_BYTES) {
                throw new BundleRefused(name, "The " + what + " is larger than " + MAX_JSON_BYTES + " bytes");
            }
            if (hex != null && !sha256(bytes).equals(hex)) {
                throw new BundleRefused(name, "The " + what + " does not match its digest sha256:" + hex);
            }
            try (var reader = Json.createReader(new ByteArrayInputStream(bytes))) {
                return reader.read();
            } catch (JsonException | IllegalStateException e) {
                throw new BundleRefused(name, "The " + what + " is not valid JSON");
            }
        }
    }

    /** One layer to apply: where it lies, the digest of the blob as stored (OCI) and of its tar (diff_id). */
    private record Layer(String name, String blobHex, String mediaType) {
    }

    private static final class Unpacking {
        private final Path root;
        private final Caps caps;
        private final List<String> setuid = new ArrayList<>();
        private final List<String> worldWritable = new ArrayList<>();
        private Set<String> layerPaths = new HashSet<>();
        private int entries;
        private long bytes;
        private String current = "";

        Unpacking(Path root, Caps caps) {
            this.root = root;
            this.caps = caps;
        }

        Unpacked image(Outer outer) throws IOException {
            List<Layer> layers = new ArrayList<>();
            JsonObject config;
            if (outer.has("index.json")) {
                JsonObject manifest = manifest(outer, object(outer.json("index.json", "image index", null),
                        "index.json"), 0);
                JsonObject configRef = object(manifest.get("config"), "the manifest's config");
                String configHex = hex(configRef, "the manifest's config");
                config = object(outer.json(blob(configHex), "image config", configHex), "the image config");
                JsonArray refs = array(manifest.get("layers"), "the manifest's layers");
                for (JsonValue ref : refs) {
                    JsonObject layer = object(ref, "a layer of the manifest");
                    String hex = hex(layer, "a layer of the manifest");
                    layers.add(new Layer(blob(hex), hex, layer.getString("mediaType", "")));
                }
            } else if (outer.has("manifest.json")) {
                JsonArray images = array(outer.json("manifest.json", "manifest.json", null), "manifest.json");
                if (images.size() != 1) {
                    throw new BundleRefused("manifest.json", "The archive must hold exactly one image, it holds "
                            + images.size());
                }
                JsonObject image = object(images.get(0), "manifest.json");
                String configName = string(image.get("Config"), "manifest.json's Config");
                Matcher m = CONFIG_NAME.matcher(BundlePaths.normalize(configName));
                if (!m.matches()) {
                    throw new BundleRefused(configName, "The config's name carries no sha256 digest to verify");
                }
                config = object(outer.json(configName, "image config", m.group(1)), "the image config");
                for (JsonValue name : array(image.get("Layers"), "manifest.json's Layers")) {
                    layers.add(new Layer(string(name, "a layer of manifest.json"), null, ""));
                }
            } else {
                throw new BundleRefused("", "Neither index.json (an OCI image layout) nor manifest.json "
                        + "(docker save) is in the archive");
            }
            if (layers.size() > caps.maxLayers()) {
                throw new BundleRefused("", "More than " + caps.maxLayers() + " layers");
            }
            JsonObject rootfs = object(config.get("rootfs"), "the config's rootfs");
            JsonArray diffIds = array(rootfs.get("diff_ids"), "the config's rootfs.diff_ids");
            if (diffIds.size() != layers.size()) {
                throw new BundleRefused("", "The config lists " + diffIds.size() + " layers, the manifest "
                        + layers.size());
            }
            for (int i = 0; i < layers.size(); i++) {
                String diffId = string(diffIds.get(i), "a diff_id");
                Matcher m = DIGEST.matcher(diffId);
                if (!m.matches()) {
                    throw new BundleRefused(diffId, "Only sha256 digests are supported");
                }
                layerPaths = new HashSet<>();
                apply(outer, i + 1, layers.get(i), m.group(1));
            }
            mountPoints();
            return new Unpacked(runConfig(config), layers.size(), entries, bytes, setuid, worldWritable);
        }

        /** The image's manifest: the index's one for this machine's platform, through a nested index if need be. */
        private JsonObject manifest(Outer outer, JsonObject index, int depth) throws IOException {
            JsonArray manifests = array(index.get("manifests"), "the index's manifests");
            if (manifests.isEmpty()) {
                throw new BundleRefused("index.json", "The index lists no manifest");
            }
            JsonObject chosen = null;
            for (JsonValue value : manifests) {
                JsonObject m = object(value, "a manifest of the index");
                if (!(m.get("platform") instanceof JsonObject p) || ("linux".equals(p.getString("os", ""))
                        && platform().equals(p.getString("architecture", "")))) {
                    chosen = m;
                    break;
                }
            }
            if (chosen == null) {
                throw new BundleRefused("index.json", "No manifest for linux/" + platform());
            }
            String hex = hex(chosen, "the index's manifest");
            JsonObject document = object(outer.json(blob(hex), "image manifest", hex), "the image manifest");
            String type = chosen.getString("mediaType", document.getString("mediaType", ""));
            if (type.equals(OCI_INDEX) || type.equals(DOCKER_LIST) || document.containsKey("manifests")) {
                if (depth >= 2) {
                    throw new BundleRefused(blob(hex), "Indexes nested too deep");
                }
                return manifest(outer, document, depth + 1);
            }
            return document;
        }

        private static String platform() {
            String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
            return switch (arch) {
                case "x86_64", "amd64" -> "amd64";
                case "aarch64", "arm64" -> "arm64";
                default -> arch;
            };
        }

        private static ImageConfig runConfig(JsonObject config) {
            if (!(config.get("config") instanceof JsonObject c)) {
                return new ImageConfig(List.of(), List.of(), List.of(), "/");
            }
            return new ImageConfig(strings(c.get("Entrypoint")), strings(c.get("Cmd")), strings(c.get("Env")),
                    c.get("WorkingDir") instanceof JsonString s ? s.getString() : "/");
        }

        private static List<String> strings(JsonValue value) {
            List<String> out = new ArrayList<>();
            if (value instanceof JsonArray array) {
                for (JsonValue v : array) {
                    if (!(v instanceof JsonString s)) {
                        throw new BundleRefused("", "The image config holds a non-string in a list of strings");
                    }
                    out.add(s.getString());
                }
            }
            return out;
        }

        private void apply(Outer outer, int number, Layer layer, String diffHex) throws IOException {
            if (layer.mediaType().contains("zstd")) {
                throw new BundleRefused(layer.name(), "zstd layers are not supported: save the image with gzip "
                        + "or uncompressed layers");
            }
            TarArchiveEntry entry = outer.require(layer.name(), "layer " + number);
            MessageDigest blobDigest = digest();
            MessageDigest diffDigest = digest();
            try (InputStream raw = outer.open(entry);
                 var stored = new BufferedInputStream(new DigestInputStream(raw, blobDigest), 65536)) {
                stored.mark(4);
                byte[] magic = stored.readNBytes(4);
                stored.reset();
                boolean gzip = magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b;
                if (magic.length == 4 && (magic[0] & 0xff) == 0x28 && (magic[1] & 0xff) == 0xb5
                        && (magic[2] & 0xff) == 0x2f && (magic[3] & 0xff) == 0xfd) {
                    throw new BundleRefused(layer.name(), "zstd layers are not supported: save the image with gzip "
                            + "or uncompressed layers");
                }
                InputStream plain = gzip ? new GZIPInputStream(stored, 65536) : stored;
                var diff = new DigestInputStream(plain, diffDigest);
                var tar = new TarArchiveInputStream(diff);
                TarArchiveEntry e;
                while ((e = tar.getNextEntry()) != null) {
                    current = "layer " + number + ": " + e.getName();
                    entry(e, tar);
                }
                current = "layer " + number;
                // the tar's padding and anything after it belong to the digests too
                drain(diff);
                drain(stored);
            }
            if (layer.blobHex() != null && !HexFormat.of().formatHex(blobDigest.digest()).equals(layer.blobHex())) {
                throw new BundleRefused(layer.name(), "Layer " + number + " does not match its digest sha256:"
                        + layer.blobHex());
            }
            if (!HexFormat.of().formatHex(diffDigest.digest()).equals(diffHex)) {
                throw new BundleRefused(layer.name(), "Layer " + number + " does not match the config's diff_id "
                        + "sha256:" + diffHex);
            }
        }

        private void drain(InputStream in) throws IOException {
            byte[] buffer = new byte[65536];
            int n;
            while ((n = in.read(buffer)) > 0) {
                bytes += n;
                if (bytes > caps.maxUnpackedBytes()) {
                    throw new BundleRefused(current, "More than " + caps.maxUnpackedBytes() + " bytes once unpacked");
                }
            }
        }

        private void entry(TarArchiveEntry e, InputStream content) throws IOException {
            String name = e.getName();
            if (++entries > caps.maxEntries()) {
                throw new BundleRefused(current, "More than " + caps.maxEntries() + " entries");
            }
            String problem = BundlePaths.unsafeName(name);
            if (problem != null) {
                throw new BundleRefused(current, problem);
            }
            String path = BundlePaths.normalize(name);
            if (path.isEmpty()) {
                return;
            }
            int slash = path.lastIndexOf('/');
            String parent = slash < 0 ? "" : path.substring(0, slash);
            String base = path.substring(slash + 1);
            if (base.startsWith(".wh.")) {
                whiteout(parent, base);
                return;
            }
            BundlePaths.Kind kind = e.isSymbolicLink() ? BundlePaths.Kind.SYMLINK
                    : e.isLink() ? BundlePaths.Kind.HARDLINK
                    : e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO() ? BundlePaths.Kind.SPECIAL
                    : e.isDirectory() ? BundlePaths.Kind.DIRECTORY
                    : e.isFile() ? BundlePaths.Kind.FILE
                    : BundlePaths.Kind.SPECIAL;
            if (kind == BundlePaths.Kind.SPECIAL) {
                throw new BundleRefused(current, "Device and FIFO entries are not allowed");
            }
            Path source = kind == BundlePaths.Kind.HARDLINK ? hardLinkSource(e.getLinkName()) : null;
            Path dir = directory(parent, true);
            Path dest = dir.resolve(base);
            if (source != null && source.equals(dest)) {
                throw new BundleRefused(current, "A hard link to itself");
            }
            boolean keepDir = kind == BundlePaths.Kind.DIRECTORY && Files.isDirectory(dest, LinkOption.NOFOLLOW_LINKS);
            if (!keepDir && Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
                // a later layer replaces what a lower one (or an earlier entry) put there
                FileTrees.delete(dest);
                if (Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
                    throw new BundleRefused(current, "An earlier entry cannot be replaced");
                }
            }
            record(path);
            int mode = e.getMode();
            if (kind == BundlePaths.Kind.FILE && (mode & 06000) != 0) {
                report(setuid, path + ((mode & 04000) != 0 ? " (setuid)" : " (setgid)"));
            }
            boolean sticky = (mode & 01000) != 0;
            if ((mode & 0002) != 0 && (kind == BundlePaths.Kind.FILE
                    || kind == BundlePaths.Kind.DIRECTORY && !sticky)) {
                report(worldWritable, path);
            }
            switch (kind) {
                case DIRECTORY -> {
                    if (!keepDir) {
                        Files.createDirectory(dest);
                    }
                    Files.setPosixFilePermissions(dest, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
                case FILE -> {
                    if (e.getSize() > caps.maxEntryBytes()) {
                        throw new BundleRefused(current, "An entry larger than " + caps.maxEntryBytes() + " bytes");
                    }
                    try (OutputStream out = Files.newOutputStream(dest, StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                        copy(content, out);
                    }
                    Files.setPosixFilePermissions(dest, PosixFilePermissions.fromString(
                            (mode & 0111) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
                }
                case SYMLINK -> {
                    String target = e.getLinkName();
                    if (target == null || target.isEmpty() || target.indexOf('\0') >= 0
                            || target.length() > MAX_LINK_TARGET) {
                        throw new BundleRefused(current, "A symbolic link without a usable target");
                    }
                    // never followed here: the target is resolved inside the sandbox, where this tree is the root
                    Files.createSymbolicLink(dest, Path.of(target));
                }
                case HARDLINK -> Files.createLink(dest, source);
                default -> throw new BundleRefused(current, "Device and FIFO entries are not allowed");
            }
        }

        /** A hard link names a regular file already in the tree, from the image's root, through no link. */
        private Path hardLinkSource(String target) throws IOException {
            if (target == null || target.isEmpty() || BundlePaths.unsafeName(target) != null) {
                throw new BundleRefused(current, "A hard link that leads outside the image: " + target);
            }
            String path = BundlePaths.normalize(target);
            int slash = path.lastIndexOf('/');
            Path dir = path.isEmpty() ? null : directory(slash < 0 ? "" : path.substring(0, slash), false);
            Path source = dir == null ? null : dir.resolve(path.substring(slash + 1));
            if (source == null || !Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) {
                throw new BundleRefused(current, "A hard link to something other than a regular file of the image: "
                        + target);
            }
            return source;
        }

        private void whiteout(String parent, String base) throws IOException {
            Path dir = directory(parent, false);
            if (base.equals(".wh..wh..opq")) {
                if (dir == null) {
                    return;
                }
                // the lower layers' contents go; what this layer already put there stays
                try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
                    for (Path child : children) {
                        String path = parent.isEmpty() ? child.getFileName().toString()
                                : parent + "/" + child.getFileName();
                        if (!layerPaths.contains(path)) {
                            FileTrees.delete(child);
                        }
                    }
                }
                return;
            }
            String victim = base.substring(4);
            if (victim.isEmpty() || victim.equals(".") || victim.equals("..")) {
                throw new BundleRefused(current, "A whiteout without a name");
            }
            if (dir != null) {
                FileTrees.delete(dir.resolve(victim));
            }
        }

        /**
         * The real directory at {@code path} below the root, every component checked: a symbolic link or a file on
         * the way is refused; missing components are created when {@code create}, else null.
         */
        private Path directory(String path, boolean create) throws IOException {
            Path at = root;
            if (path.isEmpty()) {
                return at;
            }
            for (String segment : path.split("/")) {
                at = at.resolve(segment);
                if (Files.isSymbolicLink(at)) {
                    throw new BundleRefused(current, "A path through the symbolic link " + root.relativize(at));
                }
                if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                    if (!create) {
                        return null;
                    }
                    Files.createDirectory(at);
                    Files.setPosixFilePermissions(at, PosixFilePermissions.fromString("rwxr-xr-x"));
                } else if (!Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                    if (!create) {
                        return null;
                    }
                    throw new BundleRefused(current, "A path through a file: " + root.relativize(at));
                }
            }
            return at;
        }

        /** The entry and its parents belong to this layer: an opaque whiteout later in it spares them. */
        private void record(String path) {
            layerPaths.add(path);
            int slash = path.indexOf('/');
            while (slash > 0) {
                layerPaths.add(path.substring(0, slash));
                slash = path.indexOf('/', slash + 1);
            }
        }

        private static void report(List<String> list, String path) {
            if (list.size() < MAX_REPORTED) {
                list.add(path);
            }
        }

        private void copy(InputStream in, OutputStream out) throws IOException {
            byte[] buffer = new byte[65536];
            long written = 0;
            int n;
            while ((n = in.read(buffer)) > 0) {
                written += n;
                bytes += n;
                if (written > caps.maxEntryBytes()) {
                    throw new BundleRefused(current, "An entry larger than " + caps.maxEntryBytes() + " bytes");
                }
                if (bytes > caps.maxUnpackedBytes()) {
                    throw new BundleRefused(current, "More than " + caps.maxUnpackedBytes() + " bytes once unpacked");
                }
                out.write(buffer, 0, n);
            }
        }

        /** The sandbox mounts over these on a read-only root: they must exist, as what they are, not as links. */
        private void mountPoints() throws IOException {
            current = "";
            for (String name : MOUNT_DIRS) {
                Path p = root.resolve(name);
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    FileTrees.delete(p);
                }
                if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectory(p);
                    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
            }
            for (String name : MOUNT_FILES) {
                Path p = root.resolve(name);
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    FileTrees.delete(p);
                }
                if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createFile(p);
                    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }

        private static String blob(String hex) {
            return "blobs/sha256/" + hex;
        }

        private static String hex(JsonObject descriptor, String what) {
            String digest = string(descriptor.get("digest"), what + "'s digest");
            Matcher m = DIGEST.matcher(digest);
            if (!m.matches()) {
                throw new BundleRefused(digest, "Only sha256 digests are supported (" + what + ")");
            }
            return m.group(1);
        }

        private static JsonObject object(JsonValue value, String what) {
            if (value instanceof JsonObject o) {
                return o;
            }
            throw new BundleRefused("", "Not a JSON object: " + what);
        }

        private static JsonArray array(JsonValue value, String what) {
            if (value instanceof JsonArray a) {
                return a;
            }
            throw new BundleRefused("", "Not a JSON array: " + what);
        }

        private static String string(JsonValue value, String what) {
            if (value instanceof JsonString s) {
                return s.getString();
            }
            throw new BundleRefused("", "Not a JSON string: " + what);
        }
    }
}
