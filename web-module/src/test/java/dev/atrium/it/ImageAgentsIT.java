package dev.atrium.it;

import static dev.atrium.sandbox.TestImages.E;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.sandbox.TestImages;

/**
 * Issue 50: an agent uploaded as an image archive, built here from Debian's static busybox (busybox-static, installed
 * by scripts/services) and a shell script: submitted through the running server, checked (smoke tests in the sandbox
 * on the image's own root, static scan, installed packages, image scan), approved and invoked end to end; a hostile
 * image refused at unpacking and one refused by the image scan.
 */
@ExtendWith(AtriumServer.class)
class ImageAgentsIT {

    /** Echoes {@code text} as {@code result}, and says whether it sees busybox but not the host's Python. */
    private static final String AGENT = """
            #!/bin/sh
            text=$(cat | sed -n 's/.*"text"[^"]*"\\([^"]*\\)".*/\\1/p')
            if [ -x /bin/busybox ] && [ ! -e /usr/bin/python3 ]; then root=image; else root=host; fi
            printf '{"output":{"result":"%s","root":"%s"}}\\n' "$text" "$root"
            """;
    private static final String RUN = "{\"Entrypoint\":[\"/app/agent.sh\"],\"WorkingDir\":\"/app\","
            + "\"Env\":[\"PATH=/bin\"]}";

    private static Accounts.Account staff;

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
    }

    /** A card for an image: no entrypoint (the image's Entrypoint runs), the image tag carrying the version. */
    private static ObjectNode card(String base) {
        String name = MarketplaceFixtures.unique(base);
        ObjectNode card = MarketplaceFixtures.card(name);
        ObjectNode runtime = (ObjectNode) card.get("runtime");
        runtime.remove("entrypoint");
        runtime.put("docker_image", name + ":1.0.0");
        return card;
    }

    private static List<E> app(E... more) {
        var entries = new java.util.ArrayList<>(List.of(E.d("app"),
                E.f("app/agent.sh", AGENT.getBytes(StandardCharsets.UTF_8), 0755)));
        entries.addAll(List.of(more));
        return entries;
    }

    @Test
    void whenAnOciImageIsSubmittedApprovedAndInvokedThenItAnswersFromItsOwnRoot() throws IOException {
        byte[] image = TestImages.oci(List.of(TestImages.busyboxLayer(), TestImages.layer(app())), RUN,
                true);
        var author = Accounts.verified("image-dev");

        var submitted = MarketplaceFixtures.submit(author.api(), card("image-echo"), image, "agent.tar");

        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        assertThat(submitted.json().get("status").asText()).isEqualTo("pending_review");
        assertThat(submitted.body()).contains("image_scan");
        String id = submitted.json().get("agent_id").asText();
        MarketplaceFixtures.approve(staff, id);

        var reply = InvokeFixtures.invoke(Accounts.verified("image-caller").api(), id, Map.of("text", "hello"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("result").asText()).isEqualTo("hello");
        assertThat(reply.json().get("root").asText()).as("the image's root, not the host's").isEqualTo("image");
        assertThat(reply.header("Atrium-Run-Status")).isEqualTo("succeeded");
    }

    @Test
    void whenAnImageHoldsADeviceNodeThenItIsRefusedAtUnpacking() throws IOException {
        byte[] image = TestImages.busybox(app(E.c("dev/mem")), RUN);

        var reply = MarketplaceFixtures.submit(Accounts.verified("image-dev").api(), card("image-device"), image,
                "agent.tar");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(422);
        assertThat(reply.json().get("status").asText()).isEqualTo("rejected");
        assertThat(reply.body()).contains("could not be unpacked", "Device and FIFO");
    }

    @Test
    void whenAnImageEmbedsAPrivateKeyThenTheImageScanRefusesIt() throws IOException {
        byte[] image = TestImages.busybox(app(E.f("app/deploy.key",
                "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n")), RUN);

        var reply = MarketplaceFixtures.submit(Accounts.verified("image-dev").api(), card("image-key"), image,
                "agent.tar");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(422);
        assertThat(reply.json().get("status").asText()).isEqualTo("rejected");
        assertThat(reply.body()).contains("app/deploy.key", "private key");
    }
}
