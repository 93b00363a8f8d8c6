package dev.atrium.sandbox;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * Unpacks a bundle archive ({@code .tar.gz} or {@code .zip}, told by its first bytes) into an empty directory, or
 * refuses it naming the entry at fault and leaves the directory empty. The paths follow {@link BundlePaths}; on disk
 * every write is checked again against the real, partially unpacked tree (no component on the way is a link, files
 * are created new without following links, every link that resolves does so inside). Limits are counted while
 * reading, not trusted from headers. Modes are normalised for the sandbox's user: directories 0755, files 0644, or
 * 0755 when the owner could execute them; setuid, setgid and sticky bits never survive.
 */
public final class BundleUnpacker {

    private BundleUnpacker() {
    }

    public static void unpack(Path archive, Path targetDir, int maxEntries, long maxUnpackedBytes) {
        String format = format(archive);
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
        var run = new Unpacking(root, maxEntries, maxUnpackedBytes);
        try {
            if (format.equals("tar.gz")) {
                run.tar(archive);
            } else {
                run.zip(archive);
            }
            if (run.entries == 0) {
                throw new BundleRefused("", "The bundle is empty");
            }
            run.checkLinks();
        } catch (BundleRefused e) {
            clear(root);
            throw e;
        } catch (IOException | RuntimeException e) {
            clear(root);
            throw new BundleRefused(run.current, "The archive is damaged or not a " + format + " archive", e);
        }
    }

    private static String format(Path archive) {
        byte[] head;
        try (InputStream in = Files.newInputStream(archive)) {
            head = in.readNBytes(4);
        } catch (IOException e) {
            throw new BundleRefused("", "The bundle cannot be read", e);
        }
        if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            return "tar.gz";
        }
        if (head.length == 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4) {
            return "zip";
        }
        throw new BundleRefused("", "The bundle must be a .tar.gz or .zip archive");
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

    private static final class Unpacking {
        private final Path root;
        private final int maxEntries;
        private final long maxBytes;
        private final BundlePaths paths = new BundlePaths();
        private final List<Path> links = new ArrayList<>();
        private int entries;
        private long bytes;
        private String current = "";

        Unpacking(Path root, int maxEntries, long maxBytes) {
            this.root = root;
            this.maxEntries = maxEntries;
            this.maxBytes = maxBytes;
        }

        void tar(Path archive) throws IOException {
            try (var tar = new TarArchiveInputStream(new GZIPInputStream(
                    new BufferedInputStream(Files.newInputStream(archive))))) {
                TarArchiveEntry entry;
                while ((entry = tar.getNextEntry()) != null) {
                    // devices first: commons-compress calls anything that is not a directory a file
                    BundlePaths.Kind kind = entry.isSymbolicLink() ? BundlePaths.Kind.SYMLINK
                            : entry.isLink() ? BundlePaths.Kind.HARDLINK
                            : entry.isCharacterDevice() || entry.isBlockDevice() || entry.isFIFO()
                            ? BundlePaths.Kind.SPECIAL
                            : entry.isDirectory() ? BundlePaths.Kind.DIRECTORY
                            : entry.isFile() ? BundlePaths.Kind.FILE
                            : BundlePaths.Kind.SPECIAL;
                    add(entry.getName(), kind, entry.getLinkName(), entry.getMode(), tar);
                }
            }
        }

        void zip(Path archive) throws IOException {
            try (var zip = ZipFile.builder().setPath(archive).get()) {
                var all = zip.getEntries();
                while (all.hasMoreElements()) {
                    ZipArchiveEntry entry = all.nextElement();
                    int mode = entry.getUnixMode();
                    int type = mode & 0170000;
                    BundlePaths.Kind kind = entry.isUnixSymlink() ? BundlePaths.Kind.SYMLINK
                            : entry.isDirectory() ? BundlePaths.Kind.DIRECTORY
                            : type == 0 || type == 0100000 ? BundlePaths.Kind.FILE
                            : BundlePaths.Kind.SPECIAL;
                    String target = null;
                    if (kind == BundlePaths.Kind.SYMLINK) {
                        try (InputStream in = zip.getInputStream(entry)) {
                            // a link's target is its content: read it bounded, it is no file
                            target = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
                        }
                    }
                    try (InputStream in = kind == BundlePaths.Kind.FILE ? zip.getInputStream(entry)
                            : InputStream.nullInputStream()) {
                        add(entry.getName(), kind, target, mode, in);
                    }
                }
            }
        }

        private void add(String name, BundlePaths.Kind kind, String target, int mode, InputStream content)
                throws IOException {
            current = name;
            if (++entries > maxEntries) {
                throw new BundleRefused(name, "More than " + maxEntries + " entries");
            }
            String problem = paths.admit(name, kind, target);
            if (problem != null) {
                throw new BundleRefused(name, problem);
            }
            String path = BundlePaths.normalize(name);
            if (path.isEmpty()) {
                return;
            }
            Path dest = root.resolve(path).normalize();
            if (!dest.startsWith(root) || dest.equals(root)) {
                throw new BundleRefused(name, "A path that leads outside the bundle");
            }
            makeParents(name, dest.getParent());
            switch (kind) {
                case DIRECTORY -> {
                    if (!Files.isDirectory(dest, LinkOption.NOFOLLOW_LINKS)) {
                        Files.createDirectory(dest);
                    }
                    Files.setPosixFilePermissions(dest, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
                case FILE -> {
                    try (OutputStream out = Files.newOutputStream(dest, StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                        copy(name, content, out);
                    }
                    Files.setPosixFilePermissions(dest, PosixFilePermissions.fromString(
                            (mode & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
                }
                case SYMLINK -> {
                    Files.createSymbolicLink(dest, Path.of(target));
                    links.add(dest);
                    checkLink(name, dest);
                }
                case HARDLINK -> {
                    Path existing = root.resolve(BundlePaths.normalize(target)).normalize();
                    if (!existing.startsWith(root) || !Files.isRegularFile(existing, LinkOption.NOFOLLOW_LINKS)
                            || !existing.toRealPath().startsWith(root)) {
                        throw new BundleRefused(name, BundlePaths.OUTSIDE + target);
                    }
                    Files.createLink(dest, existing);
                }
                default -> throw new BundleRefused(name, "Device and FIFO entries are not allowed");
            }
        }

        /** Creates the missing directories on the way, refusing any component that exists as something else. */
        private void makeParents(String name, Path parent) throws IOException {
            Path at = root;
            for (Path segment : root.relativize(parent)) {
                at = at.resolve(segment);
                if (Files.isSymbolicLink(at)) {
                    throw new BundleRefused(name, "A path through the symbolic link " + root.relativize(at));
                }
                if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectory(at);
                    Files.setPosixFilePermissions(at, PosixFilePermissions.fromString("rwxr-xr-x"));
                } else if (!Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                    throw new BundleRefused(name, "A path through a file: " + root.relativize(at));
                }
            }
        }

        private void copy(String name, InputStream in, OutputStream out) throws IOException {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                bytes += n;
                if (bytes > maxBytes) {
                    throw new BundleRefused(name, "More than " + maxBytes + " bytes once unpacked");
                }
                out.write(buffer, 0, n);
            }
        }

        /** A link that resolves on the real tree must land inside it. */
        private void checkLink(String name, Path link) throws IOException {
            if (Files.exists(link) && !link.toRealPath().startsWith(root)) {
                throw new BundleRefused(name, BundlePaths.OUTSIDE + Files.readSymbolicLink(link));
            }
        }

        /** Once everything is there, every link is judged again on the finished tree. */
        void checkLinks() throws IOException {
            for (Path link : links) {
                checkLink(root.relativize(link).toString(), link);
            }
        }
    }
}
