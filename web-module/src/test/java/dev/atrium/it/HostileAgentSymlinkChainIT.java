package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A bundle whose links are each harmless on their own but lead outside together ({@code d/l1 → ..}, then
 * {@code d/l1/l2 → ..}, which is the bundle's parent) is refused at submission.
 */
class HostileAgentSymlinkChainIT extends HostileAgentCase {

    @Test
    void whenASymlinkChainLeadsOutsideThenTheSubmissionIsRefused() {
        byte[] bundle = MarketplaceFixtures.tarGz(tar -> {
            MarketplaceFixtures.file(tar, "main.py", "import json, sys\n"
                    + "print(json.dumps({'output': {'result': json.load(sys.stdin)['text']}}))\n");
            MarketplaceFixtures.symlink(tar, "d/l1", "..");
            MarketplaceFixtures.symlink(tar, "d/l1/l2", "..");
        });
        var developer = MarketplaceFixtures.developer(staff, "chain");

        var reply = MarketplaceFixtures.submit(developer.api(), HostileAgents.card("chain", 20, false), bundle);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(422);
        assertThat(reply.json().get("status").asText()).isEqualTo("rejected");
        assertThat(reply.body()).contains("d/l1/l2");
        HostileAgents.stillServing(caller, calm);
    }

    @Test
    void whenALongerChainWritesThroughItsLinksThenTheSubmissionIsRefused() {
        byte[] bundle = MarketplaceFixtures.tarGz(tar -> {
            MarketplaceFixtures.file(tar, "main.py", "print('{}')\n");
            MarketplaceFixtures.symlink(tar, "a/b/l1", "..");
            MarketplaceFixtures.symlink(tar, "a/b/l1/l2", "..");
            MarketplaceFixtures.symlink(tar, "a/b/l1/l2/l3", "..");
            MarketplaceFixtures.file(tar, "a/b/l1/l2/l3/escaped.txt", "outside");
        });
        var developer = MarketplaceFixtures.developer(staff, "chain");

        var reply = MarketplaceFixtures.submit(developer.api(), HostileAgents.card("chain", 20, false), bundle);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(422);
        HostileAgents.stillServing(caller, calm);
    }
}
