package dev.atrium.marketplace.control.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.marketplace.entity.checks.Severity;

class StaticScanTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 200);

    private static final Permissions OFFLINE = Permissions.NONE;
    private static final Permissions ONLINE = new Permissions(true, false, List.of("api.example.com"), null, null, null,
            List.of("OPENAI_API_KEY"));

    @TempDir
    Path dir;

    private Path bundle(Map<String, String> files) throws IOException {
        Path root = Files.createTempDirectory(dir, "bundle");
        for (var e : files.entrySet()) {
            Path p = root.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue(), StandardCharsets.ISO_8859_1);
        }
        return root;
    }

    private List<CheckFinding> scan(Permissions declared, Map<String, String> files) throws IOException {
        return new StaticScan(declared).scan(bundle(files), null, null);
    }

    private static List<CheckFinding> of(List<CheckFinding> findings, Severity severity) {
        return findings.stream().filter(f -> f.severity() == severity).toList();
    }

    @Test
    void whenTheBundleIsPlainThenNothingIsFound() throws IOException {
        var findings = scan(OFFLINE, Map.of("main.py", "import json, sys\nprint(json.dumps({'output': "
                + "json.load(sys.stdin)}))\n", "run.sh", "#!/bin/sh\nread line\necho \"$line\"\n"));
        assertThat(findings).isEmpty();
    }

    @Test
    void whenTheCodeUsesTheNetworkUndeclaredThenMediumFindingsNameTheFileAndLine() throws IOException {
        var findings = scan(OFFLINE, Map.of(
                "main.py", "import json\nimport requests\nfrom urllib.request import urlopen\n",
                "fetch.sh", "#!/bin/bash\nx=1\ncurl -s https://example.com\n",
                "lib/index.js", "const net = require('net');\nfetch('https://x.y')\n",
                "noext", "#!/usr/bin/env python3\nimport socket\n"));
        assertThat(of(findings, Severity.MEDIUM)).extracting(CheckFinding::pointer)
                .contains("main.py:2", "main.py:3", "fetch.sh:3", "lib/index.js:1", "lib/index.js:2", "noext:2");
        assertThat(of(findings, Severity.HIGH)).isEmpty();
    }

    @Test
    void whenTheCardDeclaresNetworkThenNetworkUseIsNoFinding() throws IOException {
        var findings = scan(ONLINE, Map.of("main.py", "import requests\nimport os\nk = os.environ['OPENAI_API_KEY']\n"));
        assertThat(findings).isEmpty();
    }

    @Test
    void whenTheCodeSpawnsProcessesOrReadsUndeclaredVariablesThenMediumFindings() throws IOException {
        var findings = scan(ONLINE, Map.of(
                "main.py", "import os, subprocess\nos.system('ls')\nx = os.getenv(\"AWS_SECRET\")\n"
                        + "y = os.environ.get('OPENAI_API_KEY')\nprint(dict(os.environ))\n",
                "a.js", "require('child_process').exec('id')\nconst t = process.env.GITHUB_TOKEN\n",
                "b.sh", "#!/bin/sh\nname=x\necho $name $HOME ${DB_PASSWORD}\nenv\n"));
        var messages = of(findings, Severity.MEDIUM).stream().map(f -> f.pointer() + " " + f.message()).toList();
        assertThat(messages).anyMatch(m -> m.startsWith("main.py:1 Process spawning (uses subprocess)"))
                .anyMatch(m -> m.startsWith("main.py:2 Process spawning (calls os.system)"))
                .anyMatch(m -> m.startsWith("main.py:3") && m.contains("AWS_SECRET"))
                .anyMatch(m -> m.startsWith("main.py:5") && m.contains("whole environment"))
                .anyMatch(m -> m.startsWith("a.js:1") && m.contains("child_process"))
                .anyMatch(m -> m.startsWith("a.js:2") && m.contains("GITHUB_TOKEN"))
                .anyMatch(m -> m.startsWith("b.sh:3") && m.contains("DB_PASSWORD"))
                .anyMatch(m -> m.startsWith("b.sh:4") && m.contains("whole environment"))
                .noneMatch(m -> m.contains("OPENAI_API_KEY") || m.contains(" name,") || m.contains("HOME"));
    }

    @Test
    void whenFilesHoldSecretsThenHighFindingsNeverRepeatTheSecret() throws IOException {
        String aws = "AKIA" + "IOSFODNN7EXAMPLE";
        String github = "ghp_" + "a".repeat(36);
        String openai = "sk-proj-" + "Zx9".repeat(10);
        var findings = scan(OFFLINE, Map.of(
                "keys/id_rsa", "-----BEGIN RSA PRIVATE KEY-----\nMIIB...\n-----END RSA PRIVATE KEY-----\n",
                "config.py", "AWS = '" + aws + "'\n\nGH = \"" + github + "\"\n",
                "notes.txt", "slack: xoxb-1234567890-abcdefghij\n",
                ".env", "DB_PASSWORD=correcthorsebatterystaple\n",
                "settings.json", "{\"password\": \"hunter2hunter2hunter2\"}",
                "main.js", "const key = '" + openai + "';\n"));
        var high = of(findings, Severity.HIGH);
        assertThat(high).extracting(CheckFinding::pointer).contains("keys/id_rsa:1", "config.py:1", "config.py:3",
                "notes.txt:1", ".env:1", "settings.json:1", "main.js:1");
        assertThat(high).allSatisfy(f -> assertThat(f.message()).doesNotContain(aws, github, openai, "xoxb-1234",
                "correcthorse", "hunter2"));
    }

    @Test
    void whenAPasswordComesFromTheEnvironmentOrIsShortThenItIsNoSecret() throws IOException {
        var findings = scan(ONLINE, Map.of("main.py", "password = os.environ.get('OPENAI_API_KEY')\n"
                + "token = 'short'\napi_key = \"${OPENAI_API_KEY}\"\n"));
        assertThat(of(findings, Severity.HIGH)).isEmpty();
    }

    @Test
    void whenTheBundleHoldsAnElfBinaryThenHigh() throws IOException {
        Path root = bundle(Map.of("main.py", "print(1)\n"));
        Files.write(root.resolve("helper"), new byte[]{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0});
        var findings = new StaticScan(OFFLINE).scan(root, null, null);
        assertThat(of(findings, Severity.HIGH)).extracting(CheckFinding::pointer).containsExactly("helper");
    }

    @Test
    void whenTheArchiveHasSetuidOrSetgidEntriesThenHigh() throws IOException {
        Path archive = dir.resolve("b.tar.gz");
        try (OutputStream out = Files.newOutputStream(archive);
             var tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
            for (var e : Map.of("suid.sh", 04755, "sgid.sh", 02755, "plain.sh", 0755).entrySet()) {
                var entry = new TarArchiveEntry(e.getKey());
                entry.setMode(e.getValue());
                entry.setSize(1);
                tar.putArchiveEntry(entry);
                tar.write('x');
                tar.closeArchiveEntry();
            }
        }
        var findings = StaticScan.specialModes(archive, "tar.gz");
        assertThat(findings).extracting(CheckFinding::pointer).containsExactlyInAnyOrder("suid.sh", "sgid.sh");
        assertThat(findings).allMatch(f -> f.severity() == Severity.HIGH);
        assertThat(StaticScan.specialModes(dir.resolve("missing.tar.gz"), "tar.gz"))
                .allMatch(f -> f.severity() == Severity.LOW);
    }

    /** Hostile bundles: each is scanned quickly, without an exception, and what was skipped is said. */
    @Test
    void whenBundlesAreHostileThenTheScanStaysBoundedAndSaysWhatItSkipped() throws IOException {
        Path big = bundle(Map.of("main.py", "print(1)\n"));
        Files.write(big.resolve("huge.bin"), new byte[(int) BundleFiles.MAX_FILE_BYTES + 1]);
        assertThat(new StaticScan(OFFLINE).scan(big, null, null)).extracting(CheckFinding::pointer, CheckFinding::severity)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("huge.bin", Severity.LOW));

        Path deep = bundle(Map.of());
        Path d = deep;
        for (int i = 0; i < BundleFiles.MAX_DEPTH + 5; i++) {
            d = d.resolve("d");
        }
        Files.createDirectories(d);
        Files.writeString(d.resolve("k.pem"), "-----BEGIN PRIVATE KEY-----");
        assertThat(new StaticScan(OFFLINE).scan(deep, null, null)).anyMatch(f -> f.severity() == Severity.LOW
                && f.message().contains("deeper"));

        Map<String, String> hostile = Map.of(
                "newlines.py", "\n".repeat(900_000) + "import socket",
                "spaces.py", " ".repeat(900_000) + "x",
                "vars.sh", "#!/bin/sh\n" + "$A".repeat(300_000),
                "env.py", "os.environ ".repeat(80_000),
                "pw.env", "PASSWORD".repeat(100_000) + "=" + "a".repeat(100_000) + "'",
                "utf16.py", new String(("\uFEFFimport socket\n").getBytes(StandardCharsets.UTF_16LE),
                        StandardCharsets.ISO_8859_1),
                "latin.py", "# caf\u00e9 \u00ff\u00fe\u0000\u0001\nimport requests\n");
        long start = System.nanoTime();
        var findings = scan(OFFLINE, hostile);
        assertThat((System.nanoTime() - start) / 1_000_000).as("milliseconds").isLessThan(10_000);
        assertThat(findings).extracting(CheckFinding::pointer).contains("newlines.py:900001", "latin.py:2");
        assertThat(findings).anyMatch(f -> f.pointer().startsWith("utf16.py"));
    }

    @Test
    void whenTheScanBudgetIsSpentThenTheRestIsNotedNotRead() throws IOException {
        Path root = bundle(Map.of("a.py", "x".repeat(1000), "b.py", "import socket\n"));
        var files = BundleFiles.of(root, 10_000, 1_500);
        assertThat(files.text(files.files().get(0))).isPresent();
        assertThat(files.text(files.files().get(1))).isPresent();
        var tight = BundleFiles.of(root, 10_000, 1_000);
        assertThat(tight.text(tight.files().get(0))).isPresent();
        assertThat(tight.text(tight.files().get(1))).isEmpty();
        assertThat(tight.notes()).singleElement().extracting(CheckFinding::pointer).isEqualTo("b.py");
    }

    /** Seeded random junk: binary noise, fragments of patterns, odd names. Never an exception, always bounded. */
    @Test
    void whenFilesAreRandomJunkThenTheScanNeverFails() throws IOException {
        var random = new Random(SEED);
        String[] fragments = {"import ", "socket", "os.environ", "[\"", "$", "${", "-----BEGIN ", "PRIVATE KEY-----",
                "AKIA", "sk-", "ghp_", "password=", "\"", "'", "\n", "\r\n", "#!", "/bin/sh", "process.env.", "require(",
                "child_process", "\u0000", "\u00ff", "\u007fELF"};
        for (int round = 0; round < ROUNDS; round++) {
            Path root = Files.createTempDirectory(dir, "fuzz");
            int files = 1 + random.nextInt(4);
            for (int f = 0; f < files; f++) {
                var text = new StringBuilder();
                int parts = random.nextInt(200);
                for (int i = 0; i < parts; i++) {
                    if (random.nextBoolean()) {
                        text.append(fragments[random.nextInt(fragments.length)]);
                    } else {
                        text.append((char) random.nextInt(256));
                    }
                }
                String name = List.of("main.py", "x.sh", "y.js", "z", ".env", "pom.xml").get(random.nextInt(6));
                Files.writeString(root.resolve(f + name), text, StandardCharsets.ISO_8859_1);
            }
            var declared = random.nextBoolean() ? OFFLINE : ONLINE;
            var findings = new StaticScan(declared).scan(root, null, null);
            assertThat(findings).as("round %d of seed %d", round, SEED).allSatisfy(f -> {
                assertThat(f.message()).isNotBlank();
                assertThat(f.message().length()).isLessThanOrEqualTo(500);
            });
        }
    }
}
