package dev.atrium.sandbox;

import static dev.atrium.sandbox.TestImages.E;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The image archive reader against good images of both formats, a table of hostile ones and a seeded loop. */
class ImageArchiveTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261129L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 300);
    private static final String RUN = "{\"Entrypoint\":[\"/bin/agent\"],\"Cmd\":[\"--serve\"],\"Env\":[\"A=1\"],"
            + "\"WorkingDir\":\"/app\"}";
    private static final ImageArchive.Caps CAPS = new ImageArchive.Caps(1000, 1024 * 1024, 256 * 1024, 16);

    @TempDir
    Path dir;

    private ImageArchive.Unpacked unpack(byte[] archive) throws IOException {
        Path file = dir.resolve("image.tar");
        Files.write(file, archive);
        return ImageArchive.unpack(file, dir.resolve("root"), CAPS);
    }

    private BundleRefused refused(byte[] archive) throws IOException {
        Path file = dir.resolve("image.tar");
        Files.write(file, archive);
        var refused = catchThrowableOfType(BundleRefused.class,
                () -> ImageArchive.unpack(file, dir.resolve("root"), CAPS));
        assertThat(refused).as("refused").isNotNull();
        try (var left = Files.list(dir.resolve("root"))) {
            assertThat(left).as("nothing is left in the target").isEmpty();
        }
        return refused;
    }

    private String read(String path) throws IOException {
        return Files.readString(dir.resolve("root").resolve(path));
    }

    @Test
    void whenADockerSaveHasTwoLayersWithWhiteoutsThenTheUpperWinsAndTheWhitedOutAreGone() throws IOException {
        byte[] lower = TestImages.layer(E.d("app"), E.f("app/keep", "lower"), E.f("app/gone", "x"),
                E.d("data"), E.f("data/old", "x"), E.f("bin/agent", "lower".getBytes(), 0755));
        byte[] upper = TestImages.layer(E.f("app/keep", "upper"), E.f("app/.wh.gone", ""),
                E.f("data/new", "y"), E.f("data/.wh..wh..opq", ""));
        var image = unpack(TestImages.dockerSave(List.of(lower, upper), RUN));

        assertThat(read("app/keep")).isEqualTo("upper");
        assertThat(dir.resolve("root/app/gone")).doesNotExist();
        assertThat(dir.resolve("root/data/old")).as("opaque: the lower contents go").doesNotExist();
        assertThat(read("data/new")).as("opaque: this layer's own stay").isEqualTo("y");
        assertThat(image.layers()).isEqualTo(2);
        assertThat(image.config().command()).containsExactly("/bin/agent", "--serve");
        assertThat(image.config().env()).containsExactly("A=1");
        assertThat(image.config().workingDir()).isEqualTo("/app");
        assertThat(Files.getPosixFilePermissions(dir.resolve("root/bin/agent")))
                .isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String mount : List.of("proc", "dev", "tmp", "scratch")) {
            assertThat(dir.resolve("root").resolve(mount)).isDirectory();
        }
        assertThat(dir.resolve("root/etc/passwd")).isRegularFile();
    }

    @Test
    void whenAnOciLayoutHasGzippedLayersThenEveryDigestIsVerifiedAndTheyApply() throws IOException {
        byte[] layer = TestImages.layer(E.f("hello.txt", "hi"), E.s("bin/sh", "/bin/busybox"));
        var image = unpack(TestImages.oci(List.of(layer), RUN, true));

        assertThat(read("hello.txt")).isEqualTo("hi");
        assertThat(Files.readSymbolicLink(dir.resolve("root/bin/sh")).toString())
                .as("absolute links are kept, to be resolved inside the sandbox").isEqualTo("/bin/busybox");
        assertThat(image.config().entrypoint()).containsExactly("/bin/agent");
    }

    @Test
    void whenTheWholeArchiveIsGzippedThenItIsStillAnImage() throws IOException {
        byte[] archive = TestImages.gzip(TestImages.oci(List.of(TestImages.layer(E.f("a", "b"))), RUN, false));
        Files.write(dir.resolve("probe"), archive);
        assertThat(ImageArchive.isImage(dir.resolve("probe"))).isTrue();
        unpack(archive);
        assertThat(read("a")).isEqualTo("b");
    }

    @Test
    void whenABundleIsProbedThenItIsNoImage() throws IOException {
        Path bundle = dir.resolve("bundle.tar.gz");
        Files.write(bundle, TestImages.gzip(TestImages.layer(E.f("agent.py", "print(1)"),
                E.f("manifest.json", "{}"))));
        assertThat(ImageArchive.isImage(bundle)).isFalse();
        Files.write(bundle, "PK\3\4 not a tar".getBytes(StandardCharsets.US_ASCII));
        assertThat(ImageArchive.isImage(bundle)).isFalse();
    }

    @Test
    void whenDocker25LinksTheLayerTarsToBlobsThenTheLinksAreFollowedInsideTheArchive() throws IOException {
        byte[] layer = TestImages.layer(E.f("x", "linked"));
        byte[] config = TestImages.config(List.of(layer), RUN).getBytes(StandardCharsets.UTF_8);
        String configHex = ImageArchive.sha256(config);
        var files = new LinkedHashMap<String, byte[]>();
        files.put("blobs/sha256/" + configHex, config);
        files.put("blobs/sha256/" + ImageArchive.sha256(layer), layer);
        files.put("manifest.json", ("[{\"Config\":\"blobs/sha256/" + configHex + "\",\"Layers\":[\"abc/layer.tar\"]}]")
                .getBytes(StandardCharsets.UTF_8));
        unpack(TestImages.tar(files, Map.of("abc/layer.tar", "../blobs/sha256/" + ImageArchive.sha256(layer))));
        assertThat(read("x")).isEqualTo("linked");
    }

    @Test
    void whenAFileIsSetuidOrWorldWritableThenTheBitIsStrippedAndReported() throws IOException {
        var image = unpack(TestImages.dockerSave(List.of(TestImages.layer(
                E.f("usr/bin/su", "su".getBytes(), 04755), E.f("usr/bin/wall", "w".getBytes(), 02755),
                E.f("open", "o".getBytes(), 0666), new E('d', "tmp", new byte[0], null, 01777))), RUN));

        assertThat(image.setuid()).containsExactly("usr/bin/su (setuid)", "usr/bin/wall (setgid)");
        assertThat(image.worldWritable()).as("a sticky directory such as /tmp is not reported")
                .containsExactly("open");
        assertThat(Files.getPosixFilePermissions(dir.resolve("root/usr/bin/su")))
                .isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void whenALaterLayerReplacesALinkPointingOutsideThenTheOutsideIsUntouched() throws IOException {
        Path outside = dir.resolve("outside.txt");
        Files.writeString(outside, "host");
        byte[] lower = TestImages.layer(E.s("x", outside.toString()));
        byte[] upper = TestImages.layer(E.f("x", "image"));
        unpack(TestImages.dockerSave(List.of(lower, upper), RUN));
        assertThat(Files.readString(outside)).isEqualTo("host");
        assertThat(Files.isSymbolicLink(dir.resolve("root/x"))).isFalse();
        assertThat(read("x")).isEqualTo("image");
    }

    static Stream<Arguments> hostileLayers() {
        return Stream.of(
                Arguments.of("absolute", List.of(E.f("/etc/cron.d/evil", "x")), "An absolute path"),
                Arguments.of("dot dot", List.of(E.f("a/../../evil", "x")), "'..'"),
                Arguments.of("device", List.of(E.c("dev/sda")), "Device and FIFO"),
                Arguments.of("fifo", List.of(E.p("run/pipe")), "Device and FIFO"),
                Arguments.of("through an absolute link", List.of(E.s("lib", "/"), E.f("lib/etc/shadow", "x")),
                        "through the symbolic link lib"),
                Arguments.of("through a relative link", List.of(E.s("a", "../../.."), E.f("a/x", "x")),
                        "through the symbolic link a"),
                Arguments.of("whiteout through a link", List.of(E.s("l", "/"), E.f("l/.wh.etc", "")),
                        "through the symbolic link l"),
                Arguments.of("whiteout of dot dot", List.of(E.f("a/.wh...", "")), "A whiteout without a name"),
                Arguments.of("whiteout of dot", List.of(E.f("a/.wh..", "")), "A whiteout without a name"),
                Arguments.of("hard link absolute", List.of(E.h("p", "/etc/passwd")), "outside the image"),
                Arguments.of("hard link dot dot", List.of(E.h("p", "../../etc/passwd")), "outside the image"),
                Arguments.of("hard link to a link", List.of(E.s("l", "/etc/passwd"), E.h("p", "l")),
                        "other than a regular file"),
                Arguments.of("hard link through a link", List.of(E.s("l", "/etc"), E.h("p", "l/passwd")),
                        "through the symbolic link l"),
                Arguments.of("hard link to nothing", List.of(E.h("p", "missing")), "other than a regular file"),
                Arguments.of("hard link to a directory", List.of(E.d("d"), E.h("p", "d")),
                        "other than a regular file"),
                Arguments.of("hard link to itself", List.of(E.f("p", "x"), E.h("p", "p")), "to itself"),
                Arguments.of("path through a file", List.of(E.f("a", "x"), E.f("a/b", "y")), "through a file"),
                Arguments.of("control characters", List.of(E.f("a\nb", "x")), "control characters"),
                Arguments.of("entry too large", List.of(E.f("big", new byte[300 * 1024], 0644)),
                        "larger than 262144"),
                Arguments.of("too many bytes", List.of(E.f("a", new byte[200 * 1024], 0644),
                        E.f("b", new byte[200 * 1024], 0644), E.f("c", new byte[200 * 1024], 0644),
                        E.f("d", new byte[200 * 1024], 0644), E.f("e", new byte[200 * 1024], 0644),
                        E.f("f", new byte[200 * 1024], 0644)), "More than 1048576 bytes"),
                Arguments.of("too many entries", manyEntries(), "More than 1000 entries"),
                Arguments.of("empty link target", List.of(E.s("l", "")), "without a usable target"));
    }

    private static List<E> manyEntries() {
        var entries = new ArrayList<E>();
        for (int i = 0; i < 1001; i++) {
            entries.add(E.d("d" + i));
        }
        return entries;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileLayers")
    void whenALayerIsHostileThenTheImageIsRefusedAndNothingIsLeft(String label, List<E> entries, String reason)
            throws IOException {
        Path outside = dir.resolve("outside");
        Files.createDirectories(outside);
        for (boolean oci : List.of(false, true)) {
            byte[] layer = TestImages.layer(entries);
            byte[] archive = oci ? TestImages.oci(List.of(layer), RUN, true)
                    : TestImages.dockerSave(List.of(layer), RUN);
            assertThat(refused(archive).getMessage()).as(label).contains(reason);
            try (var left = Files.list(outside)) {
                assertThat(left).as("nothing written outside").isEmpty();
            }
        }
    }

    @Test
    void whenALayerDoesNotMatchItsDiffIdThenTheImageIsRefused() throws IOException {
        byte[] layer = TestImages.layer(E.f("a", "b"));
        byte[] config = TestImages.config(List.of(TestImages.layer(E.f("a", "c"))), RUN)
                .getBytes(StandardCharsets.UTF_8);
        String name = ImageArchive.sha256(config) + ".json";
        var files = new LinkedHashMap<String, byte[]>();
        files.put(name, config);
        files.put("l/layer.tar", layer);
        files.put("manifest.json", ("[{\"Config\":\"" + name + "\",\"Layers\":[\"l/layer.tar\"]}]")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(refused(TestImages.tar(files, Map.of())).getMessage()).contains("does not match the config's diff_id");
    }

    @Test
    void whenAnOciBlobIsTamperedWithThenTheImageIsRefused() throws IOException {
        byte[] archive = TestImages.oci(List.of(TestImages.layer(E.f("a", "honest"))), RUN, false);
        String text = new String(archive, StandardCharsets.ISO_8859_1).replace("honest", "tamper");
        assertThat(refused(text.getBytes(StandardCharsets.ISO_8859_1)).getMessage()).contains("does not match");
    }

    @Test
    void whenTheConfigIsTamperedWithThenTheImageIsRefused() throws IOException {
        byte[] archive = TestImages.dockerSave(List.of(TestImages.layer(E.f("a", "b"))), RUN);
        String text = new String(archive, StandardCharsets.ISO_8859_1).replace("--serve", "--evil!");
        assertThat(refused(text.getBytes(StandardCharsets.ISO_8859_1)).getMessage())
                .contains("image config does not match its digest");
    }

    static Stream<Arguments> hostileArchives() {
        byte[] layer = TestImages.layer(E.f("a", "b"));
        byte[] config = TestImages.config(List.of(layer), RUN).getBytes(StandardCharsets.UTF_8);
        String name = ImageArchive.sha256(config) + ".json";
        return Stream.of(
                Arguments.of("not a tar", "hello".getBytes(StandardCharsets.US_ASCII), "must be a tar"),
                Arguments.of("no manifest", TestImages.tar(Map.of("x", new byte[1]), Map.of()), "Neither index.json"),
                Arguments.of("two images", TestImages.tar(Map.of("manifest.json", "[{},{}]".getBytes()), Map.of()),
                        "exactly one image"),
                Arguments.of("manifest not json", TestImages.tar(Map.of("manifest.json", "[{".getBytes()), Map.of()),
                        "not valid JSON"),
                Arguments.of("config without digest", TestImages.tar(Map.of("manifest.json",
                        "[{\"Config\":\"config.json\",\"Layers\":[]}]".getBytes()), Map.of()), "no sha256 digest"),
                Arguments.of("layer missing", TestImages.tar(Map.of(name, config, "manifest.json",
                        ("[{\"Config\":\"" + name + "\",\"Layers\":[\"gone.tar\"]}]").getBytes()), Map.of()),
                        "lacks the layer 1"),
                Arguments.of("layer count differs", TestImages.tar(Map.of(name, config, "manifest.json",
                        ("[{\"Config\":\"" + name + "\",\"Layers\":[]}]").getBytes()), Map.of()), "lists 1 layers"),
                Arguments.of("zstd layer", zstdImage(), "zstd layers are not supported"),
                Arguments.of("too many outer entries", manyOuterEntries(), "More than 10000 entries in the archive"),
                Arguments.of("link out of the archive", TestImages.tar(Map.of(name, config, "manifest.json",
                        ("[{\"Config\":\"" + name + "\",\"Layers\":[\"l/layer.tar\"]}]").getBytes()),
                        Map.of("l/layer.tar", "/etc/passwd")), "lacks the layer 1"),
                Arguments.of("index without manifests", TestImages.tar(Map.of("index.json",
                        "{\"manifests\":[]}".getBytes()), Map.of()), "lists no manifest"),
                Arguments.of("md5 digest", TestImages.tar(Map.of("index.json",
                        "{\"manifests\":[{\"digest\":\"md5:abc\"}]}".getBytes()), Map.of()),
                        "Only sha256 digests"),
                Arguments.of("other platform", TestImages.tar(Map.of("index.json",
                        ("{\"manifests\":[{\"digest\":\"sha256:" + "0".repeat(64) + "\",\"platform\":{\"os\":"
                                + "\"windows\",\"architecture\":\"amd64\"}}]}").getBytes()), Map.of()),
                        "No manifest for linux/"));
    }

    private static byte[] manyOuterEntries() {
        var files = new LinkedHashMap<String, byte[]>();
        for (int i = 0; i <= ImageArchive.MAX_OUTER_ENTRIES; i++) {
            files.put("f" + i, new byte[0]);
        }
        return TestImages.tar(files, Map.of());
    }

    private static byte[] zstdImage() {
        byte[] zstd = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0, 0, 0, 0};
        byte[] config = TestImages.config(List.of(zstd), RUN).getBytes(StandardCharsets.UTF_8);
        String name = ImageArchive.sha256(config) + ".json";
        return TestImages.tar(Map.of(name, config, "l.tar", zstd, "manifest.json",
                ("[{\"Config\":\"" + name + "\",\"Layers\":[\"l.tar\"]}]").getBytes()), Map.of());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileArchives")
    void whenTheArchiveIsHostileThenItIsRefusedWithAReason(String label, byte[] archive, String reason)
            throws IOException {
        assertThat(refused(archive).getMessage()).as(label).contains(reason);
    }

    @Test
    void whenArchivesAreMutatedThenTheReaderNeverCrashesNorWritesOutside() throws IOException {
        var random = new Random(SEED);
        Path jail = dir.resolve("jail");
        Path outside = dir.resolve("outside");
        Files.createDirectories(outside);
        List<E> base = List.of(E.d("app"), E.f("app/a", "aaaa"), E.s("app/l", "/etc/passwd"), E.h("app/h", "app/a"),
                E.f("bin/x", "x".getBytes(), 04755), E.f("app/.wh.a", ""), E.f("d/.wh..wh..opq", ""));
        int refusedCount = 0;
        for (int round = 0; round < ROUNDS; round++) {
            byte[] layer = TestImages.layer(base);
            boolean mutateLayer = random.nextBoolean();
            if (mutateLayer) {
                mutate(layer, random);
            }
            List<byte[]> layers = List.of(layer, TestImages.layer(E.f("app/b", "b"), E.f("app/.wh.l", "")));
            byte[] archive = random.nextBoolean() ? TestImages.oci(layers, RUN, random.nextBoolean())
                    : TestImages.dockerSave(layers, RUN);
            if (!mutateLayer) {
                mutate(archive, random);
            }
            Path file = dir.resolve("fuzz.tar");
            Files.write(file, archive);
            Path target = jail.resolve("root" + round);
            try {
                ImageArchive.unpack(file, target, CAPS);
            } catch (BundleRefused expected) {
                refusedCount++;
                try (var left = Files.list(target)) {
                    assertThat(left).as("round " + round + ": nothing left").isEmpty();
                }
            }
            try (var left = Files.list(outside)) {
                assertThat(left).as("round " + round + ": nothing outside").isEmpty();
            }
            try (var inJail = Files.list(jail)) {
                assertThat(inJail.filter(p -> !p.getFileName().toString().startsWith("root")))
                        .as("round " + round + ": nothing beside the targets").isEmpty();
            }
            assertThat(Files.exists(Path.of("/etc/passwd"), LinkOption.NOFOLLOW_LINKS)).isTrue();
            SafetyCleanup.delete(target);
        }
        assertThat(refusedCount).as("the mutations hit something").isPositive();
    }

    private static void mutate(byte[] bytes, Random random) {
        int flips = 1 + random.nextInt(8);
        for (int i = 0; i < flips; i++) {
            int at = random.nextInt(bytes.length);
            bytes[at] = switch (random.nextInt(4)) {
                case 0 -> (byte) random.nextInt(256);
                case 1 -> (byte) '/';
                case 2 -> (byte) '.';
                default -> (byte) (bytes[at] ^ (1 << random.nextInt(8)));
            };
        }
    }

    /** Test cleanup that does not follow links. */
    static final class SafetyCleanup {
        static void delete(Path p) {
            BubblewrapExecutor.deleteTree(p);
        }
    }
}
