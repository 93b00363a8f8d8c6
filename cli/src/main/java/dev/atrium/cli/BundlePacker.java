package dev.atrium.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;

/**
 * Packs an agent's directory as the bundle {@code agent publish} uploads: a .tar.gz of its regular files, in name
 * order, without {@code .git/} and what {@code .agentignore} names. Symbolic links are left out (the server refuses
 * links that leave the bundle, and a link to a file outside would pack that file).
 * <p>
 * {@code .agentignore} takes a subset of .gitignore: one glob per line, {@code #} comments; a pattern ending in
 * {@code /} matches directories only; one with another {@code /} is anchored at the agent's directory; any other
 * matches a file or directory name at any depth. Negation ({@code !}) is not supported and is refused.
 */
final class BundlePacker {

    /** What was packed and what was left out. */
    record Bundle(byte[] bytes, List<String> files, List<String> skipped) {
    }

    static final String IGNORE_FILE = ".agentignore";
    private static final long FINGERPRINT_READ_BYTES = 1024 * 1024;

    private record Rule(PathMatcher matcher, boolean directoriesOnly, boolean anchored) {
    }

    private BundlePacker() {
    }

    static Bundle pack(Path dir, long maxBytes) throws IOException {
        var skipped = new ArrayList<String>();
        var files = files(dir, skipped);
        var out = new ByteArrayOutputStream();
        try (var tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(out))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (var entry : files.entrySet()) {
                var tarEntry = new TarArchiveEntry(entry.getKey());
                tarEntry.setSize(Files.size(entry.getValue()));
                tarEntry.setMode(Files.isExecutable(entry.getValue()) ? 0755 : 0644);
                tar.putArchiveEntry(tarEntry);
                Files.copy(entry.getValue(), tar);
                tar.closeArchiveEntry();
                if (out.size() > maxBytes) {
                    throw CliException.user("The bundle grows beyond " + maxBytes + " bytes at " + entry.getKey()
                            + ": leave large files out with " + IGNORE_FILE);
                }
            }
        }
        if (out.size() > maxBytes) {
            throw CliException.user("The bundle is " + out.size() + " bytes, more than " + maxBytes
                    + ": leave large files out with " + IGNORE_FILE);
        }
        return new Bundle(out.toByteArray(), List.copyOf(files.keySet()), List.copyOf(skipped));
    }

    /**
     * What {@link #pack} would pack: names, modes and contents (sizes and modification times for files over 1 MiB,
     * which are not read). A different fingerprint means the bundle changed; {@code agent dev} reloads on it.
     * Contents, not times, for small files: the kernel's file clock is coarse, and an editor may save twice
     * within one tick.
     */
    static String fingerprint(Path dir) throws IOException {
        var digest = sha256();
        for (var entry : files(dir, new ArrayList<>()).entrySet()) {
            Path file = entry.getValue();
            var attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            digest.update((entry.getKey() + "\0" + Files.isExecutable(file) + "\0" + attributes.size() + "\0")
                    .getBytes(StandardCharsets.UTF_8));
            if (attributes.size() <= FINGERPRINT_READ_BYTES) {
                digest.update(Files.readAllBytes(file));
            } else {
                digest.update(attributes.lastModifiedTime().toString().getBytes(StandardCharsets.UTF_8));
            }
            digest.update((byte) '\n');
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The regular files to pack, by their name in the bundle; what was left out is added to {@code skipped}. */
    private static TreeMap<String, Path> files(Path dir, List<String> skipped) throws IOException {
        var rules = rules(dir);
        var files = new TreeMap<String, Path>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attributes) {
                if (d.equals(dir)) {
                    return FileVisitResult.CONTINUE;
                }
                Path relative = dir.relativize(d);
                if (relative.toString().equals(".git") || ignored(rules, relative, true)) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                Path relative = dir.relativize(file);
                if (attributes.isSymbolicLink() || !attributes.isRegularFile()) {
                    skipped.add(relative + " (not a regular file)");
                } else if (!ignored(rules, relative, false)) {
                    files.put(relative.toString().replace('\\', '/'), file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return files;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JDK has SHA-256", e);
        }
    }

    private static List<Rule> rules(Path dir) throws IOException {
        Path file = dir.resolve(IGNORE_FILE);
        var rules = new ArrayList<Rule>();
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return rules;
        }
        int number = 0;
        for (String line : Files.readAllLines(file)) {
            number++;
            String pattern = line.strip();
            if (pattern.isEmpty() || pattern.startsWith("#")) {
                continue;
            }
            if (pattern.startsWith("!")) {
                throw CliException.user(IGNORE_FILE + " line " + number + ": negation (!) is not supported");
            }
            boolean directoriesOnly = pattern.endsWith("/");
            pattern = pattern.replaceAll("/+$", "").replaceFirst("^/", "");
            if (pattern.isEmpty()) {
                continue;
            }
            boolean anchored = pattern.contains("/") || line.strip().startsWith("/");
            try {
                rules.add(new Rule(FileSystems.getDefault().getPathMatcher("glob:" + pattern), directoriesOnly,
                        anchored));
            } catch (IllegalArgumentException e) {
                throw CliException.user(IGNORE_FILE + " line " + number + ": not a pattern: " + Output.safe(line));
            }
        }
        return rules;
    }

    private static boolean ignored(List<Rule> rules, Path relative, boolean directory) {
        for (Rule rule : rules) {
            if (rule.directoriesOnly() && !directory) {
                continue;
            }
            if (rule.anchored() ? rule.matcher().matches(relative)
                    : relative.getFileName() != null && rule.matcher().matches(relative.getFileName())) {
                return true;
            }
        }
        return false;
    }
}
