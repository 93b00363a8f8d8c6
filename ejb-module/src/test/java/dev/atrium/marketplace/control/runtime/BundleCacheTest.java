package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.objects.FileObjectStore;
import dev.atrium.sandbox.TestImages;

class BundleCacheTest {

    @TempDir
    Path data;

    private BundleCache cache(FileObjectStore store) {
        var cache = new BundleCache();
        cache.objects = store;
        cache.platformConfig = ConfigDefaults.of(PlatformConfig.class);
        cache.platformConfig.dataDir = data.toString();
        cache.config = ConfigDefaults.of(MarketplaceConfig.class);
        cache.config.bundleMaxEntries = 100;
        cache.config.bundleMaxUnpackedBytes = 1024 * 1024;
        cache.config.imageMaxEntries = 100;
        cache.config.imageMaxUnpackedBytes = 1024 * 1024;
        return cache;
    }

    private static byte[] tarGz(String name, String content) throws IOException {
        var bytes = new ByteArrayOutputStream();
        try (var tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
            byte[] body = content.getBytes(StandardCharsets.UTF_8);
            var entry = new TarArchiveEntry(name);
            entry.setSize(body.length);
            entry.setMode(0100644);
            tar.putArchiveEntry(entry);
            tar.write(body);
            tar.closeArchiveEntry();
        }
        return bytes.toByteArray();
    }

    @Test
    void whenAnImageIsStoredThenItsRootAndRunConfigAreUnpackedOnceAndKept() throws Exception {
        var store = new FileObjectStore(data.resolve("objects"));
        byte[] image = TestImages.dockerSave(java.util.List.of(TestImages.layer(
                TestImages.E.f("app/agent.sh", "echo hi"))),
                "{\"Entrypoint\":[\"/app/agent.sh\"],\"Cmd\":[\"x\"],\"Env\":[\"A=1\"],\"WorkingDir\":\"/app\"}");
        String key = "marketplace/agents/a/1.0.0/u/bundle.oci";
        store.put(key, new ByteArrayInputStream(image), "application/x-tar");
        var cache = cache(store);

        assertThat(BundleCache.isImage(key)).isTrue();
        var unpacked = cache.image(key);

        assertThat(Files.readString(unpacked.root().resolve("app/agent.sh"))).isEqualTo("echo hi");
        assertThat(unpacked.root().resolve("proc")).isDirectory();
        assertThat(unpacked.config().command()).containsExactly("/app/agent.sh", "x");
        assertThat(unpacked.config().env()).containsExactly("A=1");
        assertThat(unpacked.config().workingDir()).isEqualTo("/app");
        assertThat(cache.image(key).root()).as("kept, not unpacked again").isEqualTo(unpacked.root());
    }

    @Test
    void whenManyCallersAskForOneVersionAtOnceThenItIsUnpackedOnceIntoOneReadOnlyDirectory() throws Exception {
        var store = new FileObjectStore(data.resolve("objects"));
        store.put("marketplace/agents/a/1.0.0/x", new ByteArrayInputStream(tarGz("main.py", "print(1)\n")),
                "application/gzip");
        var cache = cache(store);
        var threads = Executors.newFixedThreadPool(8);
        var asked = new ArrayList<Future<Path>>();
        for (int i = 0; i < 16; i++) {
            asked.add(threads.submit((Callable<Path>) () -> cache.unpacked("marketplace/agents/a/1.0.0/x")));
        }
        threads.shutdown();
        assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        Path first = asked.get(0).get();
        for (var f : asked) {
            assertThat(f.get()).isEqualTo(first);
        }
        assertThat(Files.readString(first.resolve("main.py"))).isEqualTo("print(1)\n");
        assertThat(Files.getPosixFilePermissions(first.resolve("main.py")))
                .doesNotContain(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE,
                        PosixFilePermission.OTHERS_WRITE);
        try (var left = Files.list(first.getParent())) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no temporary leftovers")
                    .containsExactly(first.getFileName().toString());
        }
    }

    @Test
    void whenTwoVersionsAreAskedThenEachHasItsOwnDirectory() throws Exception {
        var store = new FileObjectStore(data.resolve("objects"));
        store.put("k/1", new ByteArrayInputStream(tarGz("main.py", "one")), "application/gzip");
        store.put("k/2", new ByteArrayInputStream(tarGz("main.py", "two")), "application/gzip");
        var cache = cache(store);

        assertThat(Files.readString(cache.unpacked("k/1").resolve("main.py"))).isEqualTo("one");
        assertThat(Files.readString(cache.unpacked("k/2").resolve("main.py"))).isEqualTo("two");
    }

    @Test
    void whenTheStoredBundleIsMissingOrRefusedThen503AndNothingIsLeftBehind() throws Exception {
        var store = new FileObjectStore(data.resolve("objects"));
        store.put("bad", new ByteArrayInputStream(tarGz("../escape.py", "x")), "application/gzip");
        var cache = cache(store);

        assertThatThrownBy(() -> cache.unpacked("missing")).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
        assertThatThrownBy(() -> cache.unpacked("bad")).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
        try (var left = Files.list(data.resolve("bundles"))) {
            assertThat(left).isEmpty();
        }
    }

    /**
     * An image's symbolic links may point anywhere on the host (they are resolved only inside the sandbox): clearing
     * away a refused image's half-unpacked tree must not change what they point at.
     */
    @Test
    void whenARefusedImageLeftLinksToHostPathsThenTheirTargetsKeepTheirModes() throws Exception {
        Path outside = Files.createDirectories(data.resolve("host"));
        Path file = Files.writeString(outside.resolve("passwd"), "root:x:0:0");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        Path dir = Files.createDirectories(outside.resolve("usr"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        var store = new FileObjectStore(data.resolve("objects"));
        byte[] image = TestImages.dockerSave(java.util.List.of(
                TestImages.layer(TestImages.E.s("etc/passwd", file.toString()), TestImages.E.s("usr", dir.toString()),
                        TestImages.E.f("app/agent.sh", "echo hi")),
                TestImages.layer(TestImages.E.c("dev/sda"))), "{\"Entrypoint\":[\"/app/agent.sh\"]}");
        String key = "marketplace/agents/a/1.0.0/u/bundle.oci";
        store.put(key, new ByteArrayInputStream(image), "application/x-tar");

        assertThatThrownBy(() -> cache(store).image(key)).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem().status()).isEqualTo(503));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwxr-xr-x");
        try (var left = Files.list(data.resolve("bundles"))) {
            assertThat(left).isEmpty();
        }
    }
}
