package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Developers, cards, bundles and multipart submissions for the marketplace tests. */
public final class MarketplaceFixtures {

    /** Answers {@code {"result": <the input's text>}}, as {@link #card} expects of its test case. */
    static final byte[] HELLO_BUNDLE = tarGz(tar -> file(tar, "main.py",
            "import json, sys\nprint(json.dumps({'output': {'result': json.load(sys.stdin)['text']}}))\n"));

    private MarketplaceFixtures() {
    }

    /**
     * A fresh administrator (reviewer) for one test or class. Requests are rate-limited per user, so the marketplace
     * tests do their many grants and reviews with their own staff and leave the shared administrator's budget to
     * the other test classes.
     */
    public static Accounts.Account staff() {
        return granted(Accounts.admin(), Accounts.verified("reviewer"), "admin");
    }

    /** A verified user to whom {@code staff} granted the developer role. */
    public static Accounts.Account developer(Accounts.Account staff, String prefix) {
        return granted(staff, Accounts.verified(prefix), "developer");
    }

    private static Accounts.Account granted(Accounts.Account by, Accounts.Account account, String role) {
        var granted = by.api().post("/admin/users/" + account.id() + "/roles", Map.of("role", role));
        assertThat(granted.status()).as(granted.toString()).isIn(200, 201);
        return account;
    }

    /** A unique slug starting with {@code base}. */
    public static String unique(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A valid card for a bundle-shipped agent. */
    public static ObjectNode card(String name, String displayName, String description, String category,
                           List<String> capabilities) {
        ObjectNode card = Api.JSON.createObjectNode();
        card.put("name", name).put("display_name", displayName).put("version", "1.0.0")
                .put("description", description).put("category", category);
        card.putArray("tags").add(category);
        var caps = card.putArray("capabilities");
        capabilities.forEach(caps::add);
        ObjectNode input = card.putObject("input_schema").put("type", "object");
        input.putArray("required").add("text");
        input.putObject("properties").putObject("text").put("type", "string");
        card.putObject("output_schema").put("type", "object").putObject("properties").putObject("result")
                .put("type", "string");
        ObjectNode runtime = card.putObject("runtime").put("memory_mb", 256).put("timeout_s", 30)
                .put("requires_network", false);
        runtime.putArray("entrypoint").add("python3").add("main.py");
        card.putObject("pricing").put("model", "per_call").put("price_usd", 0.01).put("free_quota", 10);
        card.put("quality_score", 4.0);
        ObjectNode test = card.putArray("test_cases").addObject();
        test.putObject("input").put("text", "hello");
        test.putObject("expected").put("result", "hello");
        return card;
    }

    static ObjectNode card(String name) {
        return card(name, "Agent " + name, "Does one useful thing for tests named " + name + ".", "testing",
                List.of("do-one-thing"));
    }

    static Reply submit(Api api, Object card, byte[] bundle) {
        return submit(api, card, bundle, "bundle.tar.gz");
    }

    /** POST /v1/agents as multipart/form-data with the card (a JSON node or text) and the bundle (if any). */
    static Reply submit(Api api, Object card, byte[] bundle, String bundleName) {
        String boundary = "----atrium" + UUID.randomUUID().toString().replace("-", "");
        var body = new ByteArrayOutputStream();
        String cardText = card instanceof String s ? s : Api.json(card);
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"card\"\r\n"
                + "Content-Type: application/json\r\n\r\n" + cardText + "\r\n");
        if (bundle != null) {
            write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"bundle\"; filename=\""
                    + bundleName + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
            body.writeBytes(bundle);
            write(body, "\r\n");
        }
        write(body, "--" + boundary + "--\r\n");
        return api.send("POST", "/v1/agents", body.toByteArray(), "multipart/form-data; boundary=" + boundary);
    }

    /** Submits and asserts the spec's pending answer; the agent's id. */
    public static String submitted(Accounts.Account developer, ObjectNode card) {
        var reply = submit(developer.api(), card, HELLO_BUNDLE);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        assertThat(reply.json().get("status").asText()).isEqualTo("pending_review");
        return reply.json().get("agent_id").asText();
    }

    public static void approve(Accounts.Account staff, String id) {
        var reply = staff.api().post("/v1/admin/agents/" + id + "/approve", Map.of());
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("status").asText()).isEqualTo("active");
    }

    /** Submitted by a new developer and approved: an active agent's id. */
    public static String listed(Accounts.Account staff, ObjectNode card) {
        String id = submitted(developer(staff, "dev"), card);
        approve(staff, id);
        return id;
    }

    @FunctionalInterface
    interface TarEntries {
        void write(TarArchiveOutputStream tar) throws IOException;
    }

    static byte[] tarGz(TarEntries entries) {
        var bytes = new ByteArrayOutputStream();
        try (var tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            entries.write(tar);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static void file(TarArchiveOutputStream tar, String name, String content) throws IOException {
        byte[] data = content.getBytes(StandardCharsets.UTF_8);
        var entry = new TarArchiveEntry(name);
        entry.setSize(data.length);
        tar.putArchiveEntry(entry);
        tar.write(data);
        tar.closeArchiveEntry();
    }

    static void symlink(TarArchiveOutputStream tar, String name, String target) throws IOException {
        var entry = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK);
        entry.setLinkName(target);
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
    }

    static byte[] zip(Consumer<ZipArchiveOutputStream> entries) {
        var bytes = new ByteArrayOutputStream();
        try (var zip = new ZipArchiveOutputStream(bytes)) {
            entries.accept(zip);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static void zipEntry(ZipArchiveOutputStream zip, String name, String content, boolean symlink) {
        try {
            var entry = new ZipArchiveEntry(name);
            if (symlink) {
                entry.setUnixMode(0120777);
            }
            zip.putArchiveEntry(entry);
            zip.write(content.getBytes(StandardCharsets.UTF_8));
            zip.closeArchiveEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Waits until the predicate holds for the search answer (the index follows commits within moments). */
    public static Reply awaitSearch(Api api, String query, java.util.function.Predicate<Reply> done) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        Reply reply;
        do {
            reply = api.get("/v1/agents/search?" + query);
            if (reply.status() == 200 && done.test(reply)) {
                return reply;
            }
            Accounts.sleep(200);
        } while (System.nanoTime() < deadline);
        return reply;
    }

    public static List<String> ids(Reply search) {
        var ids = new java.util.ArrayList<String>();
        search.json().get("agents").forEach(a -> ids.add(a.get("id").asText()));
        return ids;
    }
}
