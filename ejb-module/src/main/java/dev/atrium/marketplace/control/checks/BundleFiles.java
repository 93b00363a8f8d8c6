package dev.atrium.marketplace.control.checks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import dev.atrium.marketplace.entity.checks.CheckFinding;

/**
 * The regular files of an unpacked bundle, for the scanners, read within bounds: links are not followed, the walk
 * stops at {@link #MAX_DEPTH} levels and {@link #MAX_FILES} files, a file over {@link #MAX_FILE_BYTES} is not read,
 * and no more than {@link #MAX_TOTAL_BYTES} are read in all. What was left out is a low finding in {@link #notes()},
 * never silence. Text is read one character per byte (ISO-8859-1), so any encoding or binary junk reads without
 * error and ASCII patterns still match; a UTF-16 file (told by its byte-order mark) is decoded as such.
 */
final class BundleFiles {

    static final int MAX_DEPTH = 32;
    static final int MAX_FILES = 10_000;
    static final long MAX_FILE_BYTES = 1024 * 1024;
    static final long MAX_TOTAL_BYTES = 32L * 1024 * 1024;

    /** One regular file: its name inside the bundle ({@code /}-separated), its path on disk, its size. */
    record BundleFile(String name, Path path, long size) {
    }

    private final List<BundleFile> files;
    private final List<CheckFinding> notes = new ArrayList<>();
    private final long maxFileBytes;
    private long budget;

    private BundleFiles(List<BundleFile> files, List<CheckFinding> walkNotes, long maxFileBytes, long totalBytes) {
        this.files = List.copyOf(files);
        this.notes.addAll(walkNotes);
        this.maxFileBytes = maxFileBytes;
        this.budget = totalBytes;
    }

    static BundleFiles of(Path root) {
        return of(root, MAX_FILE_BYTES, MAX_TOTAL_BYTES);
    }

    static BundleFiles of(Path root, long maxFileBytes, long totalBytes) {
        var found = new ArrayList<BundleFile>();
        var notes = new ArrayList<CheckFinding>();
        try {
            Files.walkFileTree(root, EnumSet.noneOf(FileVisitOption.class), MAX_DEPTH, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isDirectory()) {
                        // reached at MAX_DEPTH: the walk reports deeper directories as files
                        notes.add(CheckFinding.low(name(root, file), "Not scanned: nested deeper than " + MAX_DEPTH
                                + " levels"));
                    } else if (attrs.isRegularFile()) {
                        if (found.size() >= MAX_FILES) {
                            notes.add(CheckFinding.low("", "Scan stopped after " + MAX_FILES + " files"));
                            return FileVisitResult.TERMINATE;
                        }
                        found.add(new BundleFile(name(root, file), file, attrs.size()));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    notes.add(CheckFinding.low(name(root, file), "Not scanned: the file cannot be read"));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            notes.add(CheckFinding.low("", "The bundle's files could not all be listed"));
        }
        found.sort((a, b) -> a.name().compareTo(b.name()));
        return new BundleFiles(found, notes, maxFileBytes, totalBytes);
    }

    private static String name(Path root, Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    List<BundleFile> files() {
        return files;
    }

    /** What the walk and the reads left out, as low findings. */
    List<CheckFinding> notes() {
        return List.copyOf(notes);
    }

    /** The first bytes of a file (for magic numbers); read whatever the file's size. */
    byte[] head(BundleFile file, int n) {
        try (InputStream in = Files.newInputStream(file.path())) {
            return in.readNBytes(n);
        } catch (IOException e) {
            return new byte[0];
        }
    }

    /** The file's text, or empty (with a note) when it is too large, the budget is spent, or it cannot be read. */
    Optional<String> text(BundleFile file) {
        if (file.size() > maxFileBytes) {
            notes.add(CheckFinding.low(file.name(), "Not scanned: larger than " + maxFileBytes + " bytes"));
            return Optional.empty();
        }
        if (file.size() > budget) {
            notes.add(CheckFinding.low(file.name(), "Not scanned: the scan reads at most " + MAX_TOTAL_BYTES
                    + " bytes of a bundle"));
            return Optional.empty();
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file.path())) {
            // the size on disk bounds the read even if the file grows meanwhile
            bytes = in.readNBytes((int) Math.min(file.size(), maxFileBytes));
        } catch (IOException e) {
            notes.add(CheckFinding.low(file.name(), "Not scanned: the file cannot be read"));
            return Optional.empty();
        }
        budget -= bytes.length;
        return Optional.of(decode(bytes));
    }

    static String decode(byte[] bytes) {
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0xfe && (bytes[1] & 0xff) == 0xff) {
            return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16BE);
        }
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xfe) {
            return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE);
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
