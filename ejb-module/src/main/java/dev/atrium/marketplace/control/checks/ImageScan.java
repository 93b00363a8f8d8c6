package dev.atrium.marketplace.control.checks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.sandbox.ImageArchive;

/**
 * The image scan of an agent shipped as an image archive, over its whole unpacked root: files that had the setuid or
 * setgid bit (stripped at unpacking, so inert, but an agent should not need them: medium), world-writable paths
 * other than sticky directories (low), embedded private keys and well-known token formats in any file up to
 * {@value #MAX_FILE_BYTES} bytes (high: the image is refused), and a pointer to the installed packages with known
 * advisories that the dependency check lists.
 */
final class ImageScan {

    static final String NAME = "image_scan";
    static final long MAX_FILE_BYTES = 1024 * 1024;
    private static final long MAX_TOTAL_BYTES = 512L * 1024 * 1024;
    private static final int MAX_SECRET_FINDINGS = 50;

    private record Rule(Pattern pattern, String what) {
    }

    private static final List<Rule> SECRETS = List.of(
            new Rule(Pattern.compile("-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----"),
                    "a private key"),
            new Rule(Pattern.compile("\\bAKIA[0-9A-Z]{16}\\b"), "an AWS access key id"),
            new Rule(Pattern.compile("\\bgh[pousr]_[A-Za-z0-9]{36}\\b"), "a GitHub token"),
            new Rule(Pattern.compile("\\bgithub_pat_[A-Za-z0-9_]{22,255}\\b"), "a GitHub fine-grained token"),
            new Rule(Pattern.compile("\\bxox[abposr]-[A-Za-z0-9-]{10,}"), "a Slack token"),
            new Rule(Pattern.compile("\\bsk_live_[A-Za-z0-9]{20,}"), "a Stripe live secret key"));

    private ImageScan() {
    }

    /** What the scan found, and how many files it read. */
    record Outcome(List<CheckFinding> findings, int filesRead) {
    }

    static Outcome scan(Path root, ImageArchive.Unpacked image, int packagesWithAdvisories) {
        var findings = new ArrayList<CheckFinding>();
        for (String path : image.setuid()) {
            findings.add(CheckFinding.medium(path, "A setuid/setgid program (the bit was stripped at unpacking; an "
                    + "agent runs as nobody without new privileges)"));
        }
        for (String path : image.worldWritable()) {
            findings.add(CheckFinding.low(path, "World-writable in the image (the sandbox mounts the root read-only)"));
        }
        if (packagesWithAdvisories > 0) {
            findings.add(CheckFinding.low(ImagePackages.DPKG_STATUS, packagesWithAdvisories + " installed packages "
                    + "with known advisories (listed by the dependency check)"));
        }
        var secrets = new ArrayList<CheckFinding>();
        int[] read = {0};
        long[] total = {0};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (!attrs.isRegularFile() || attrs.size() > MAX_FILE_BYTES || attrs.size() == 0) {
                        return FileVisitResult.CONTINUE;
                    }
                    total[0] += attrs.size();
                    if (total[0] > MAX_TOTAL_BYTES || secrets.size() >= MAX_SECRET_FINDINGS) {
                        return FileVisitResult.TERMINATE;
                    }
                    String name = root.relativize(file).toString();
                    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
                        String text = new String(in.readNBytes((int) MAX_FILE_BYTES), StandardCharsets.ISO_8859_1);
                        read[0]++;
                        for (Rule rule : SECRETS) {
                            if (rule.pattern().matcher(text).find()) {
                                secrets.add(CheckFinding.high(name, "Embedded " + rule.what()));
                            }
                        }
                    } catch (IOException e) {
                        // unreadable: nothing to scan
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            findings.add(CheckFinding.low("", "The image could not be walked fully"));
        }
        if (total[0] > MAX_TOTAL_BYTES) {
            findings.add(CheckFinding.low("", "Secrets scan stopped after " + MAX_TOTAL_BYTES + " bytes"));
        }
        findings.addAll(secrets);
        return new Outcome(findings, read[0]);
    }
}
