package dev.atrium.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * Builds image archives as bytes in the test: layers from entries, then a docker save or an OCI layout around them;
 * digests computed here, apart from the reader under test. The sandbox's, the checks', the CLI's and the server's
 * tests share it (the sandbox's test jar).
 */
public final class TestImages {

    private TestImages() {
    }

    /** One layer entry: a kind letter (f file, d dir, s symlink, h hard link, c char device, p fifo). */
    public record E(char kind, String name, byte[] content, String target, int mode) {
        public static E f(String name, String text) {
            return new E('f', name, text.getBytes(StandardCharsets.UTF_8), null, 0644);
        }

        public static E f(String name, byte[] content, int mode) {
            return new E('f', name, content, null, mode);
        }

        public static E d(String name) {
            return new E('d', name, new byte[0], null, 0755);
        }

        public static E s(String name, String target) {
            return new E('s', name, new byte[0], target, 0777);
        }

        public static E h(String name, String target) {
            return new E('h', name, new byte[0], target, 0644);
        }

        public static E c(String name) {
            return new E('c', name, new byte[0], null, 0666);
        }

        public static E p(String name) {
            return new E('p', name, new byte[0], null, 0644);
        }
    }

    /** A layer's tar. */
    public static byte[] layer(List<E> entries) {
        var bytes = new ByteArrayOutputStream();
        try (var tar = new TarArchiveOutputStream(bytes)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (E e : entries) {
                TarArchiveEntry entry = switch (e.kind()) {
                    case 'd' -> new TarArchiveEntry(e.name().endsWith("/") ? e.name() : e.name() + "/");
                    case 's' -> new TarArchiveEntry(e.name(), TarConstants.LF_SYMLINK);
                    case 'h' -> new TarArchiveEntry(e.name(), TarConstants.LF_LINK);
                    case 'c' -> new TarArchiveEntry(e.name(), TarConstants.LF_CHR);
                    case 'p' -> new TarArchiveEntry(e.name(), TarConstants.LF_FIFO);
                    default -> new TarArchiveEntry(e.name(), true);
                };
                if (e.target() != null) {
                    entry.setLinkName(e.target());
                }
                int type = switch (e.kind()) {
                    case 'd' -> 040000;
                    case 's' -> 0120000;
                    case 'c' -> 020000;
                    case 'p' -> 010000;
                    default -> 0100000;
                };
                entry.setMode(type | e.mode());
                if (e.kind() == 'f') {
                    entry.setSize(e.content().length);
                }
                tar.putArchiveEntry(entry);
                if (e.kind() == 'f') {
                    tar.write(e.content());
                }
                tar.closeArchiveEntry();
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return bytes.toByteArray();
    }

    public static byte[] layer(E... entries) {
        return layer(List.of(entries));
    }

    public static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Busybox (Debian's static build, /bin/busybox) and its applet links, then the given application layer. */
    public static byte[] busybox(List<E> app, String runConfig) throws java.io.IOException {
        return dockerSave(List.of(busyboxLayer(), layer(app)), runConfig);
    }

    /** A layer of busybox and the applets the test agents use. */
    public static byte[] busyboxLayer() throws java.io.IOException {
        var base = new ArrayList<E>();
        base.add(E.d("bin"));
        base.add(E.f("bin/busybox", java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/bin/busybox")), 0755));
        for (String applet : List.of("sh", "cat", "echo", "printf", "sed", "tr", "sleep", "test", "[")) {
            base.add(E.s("bin/" + applet, "/bin/busybox"));
        }
        return layer(base);
    }

    public static byte[] gzip(byte[] bytes) {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static String config(List<byte[]> uncompressedLayers, String runConfig) {
        var ids = new ArrayList<String>();
        for (byte[] layer : uncompressedLayers) {
            ids.add("\"sha256:" + sha256(layer) + "\"");
        }
        return "{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":" + runConfig
                + ",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[" + String.join(",", ids) + "]}}";
    }

    /** What {@code docker save} wrote before Docker 25: {@code <hex>.json}, {@code <n>/layer.tar}, manifest.json. */
    public static byte[] dockerSave(List<byte[]> layers, String runConfig) {
        byte[] config = config(layers, runConfig).getBytes(StandardCharsets.UTF_8);
        String configName = sha256(config) + ".json";
        var files = new LinkedHashMap<String, byte[]>();
        files.put(configName, config);
        var names = new ArrayList<String>();
        for (int i = 0; i < layers.size(); i++) {
            String name = "layer" + i + "/layer.tar";
            files.put(name, layers.get(i));
            names.add("\"" + name + "\"");
        }
        files.put("manifest.json", ("[{\"Config\":\"" + configName + "\",\"RepoTags\":[\"agent:1\"],\"Layers\":["
                + String.join(",", names) + "]}]").getBytes(StandardCharsets.UTF_8));
        return tar(files, Map.of());
    }

    /** An OCI image layout (what skopeo writes to oci-archive:), each layer gzipped when {@code gzip}. */
    public static byte[] oci(List<byte[]> layers, String runConfig, boolean gzip) {
        byte[] config = config(layers, runConfig).getBytes(StandardCharsets.UTF_8);
        var files = new LinkedHashMap<String, byte[]>();
        files.put("oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}".getBytes(StandardCharsets.UTF_8));
        files.put("blobs/sha256/" + sha256(config), config);
        var refs = new ArrayList<String>();
        for (byte[] layer : layers) {
            byte[] blob = gzip ? gzip(layer) : layer;
            String hex = sha256(blob);
            files.put("blobs/sha256/" + hex, blob);
            refs.add("{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar" + (gzip ? "+gzip" : "")
                    + "\",\"digest\":\"sha256:" + hex + "\",\"size\":" + blob.length + "}");
        }
        byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                + "\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"sha256:"
                + sha256(config) + "\",\"size\":" + config.length + "},\"layers\":["
                + String.join(",", refs) + "]}").getBytes(StandardCharsets.UTF_8);
        String manifestHex = sha256(manifest);
        files.put("blobs/sha256/" + manifestHex, manifest);
        files.put("index.json", ("{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":"
                + "\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"sha256:" + manifestHex + "\",\"size\":"
                + manifest.length + ",\"platform\":{\"os\":\"linux\",\"architecture\":\"amd64\"}}]}")
                .getBytes(StandardCharsets.UTF_8));
        return tar(files, Map.of());
    }

    /** A plain outer tar of files, plus symbolic links. */
    public static byte[] tar(Map<String, byte[]> files, Map<String, String> links) {
        var bytes = new ByteArrayOutputStream();
        try (var tar = new TarArchiveOutputStream(bytes)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (var f : files.entrySet()) {
                var entry = new TarArchiveEntry(f.getKey(), true);
                entry.setSize(f.getValue().length);
                tar.putArchiveEntry(entry);
                tar.write(f.getValue());
                tar.closeArchiveEntry();
            }
            for (var l : links.entrySet()) {
                var entry = new TarArchiveEntry(l.getKey(), TarConstants.LF_SYMLINK);
                entry.setLinkName(l.getValue());
                tar.putArchiveEntry(entry);
                tar.closeArchiveEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
