package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.it.Accounts;
import dev.atrium.it.Api;
import dev.atrium.it.AtriumServer;
import dev.atrium.it.MarketplaceFixtures;

/**
 * Two instances on one database and one broker, each with its own search index: an agent listed through one is
 * found through the other once the change's message arrives, and one listed while the other was down is found there
 * as soon as it is back.
 */
@ExtendWith(AtriumServer.class)
class SearchAcrossInstancesIT {

    @BeforeEach
    void resilienceOnly() {
        assumeTrue(AtriumServer.get().resilience(), "needs the resilience run's own broker, shared by both instances");
    }

    private static String words(String kind) {
        return kind + " " + UUID.randomUUID().toString().replaceAll("[^a-f]", "").substring(0, 6) + " lighthouse";
    }

    private static String listed(Accounts.Account staff, String words, String name) {
        var card = MarketplaceFixtures.card(MarketplaceFixtures.unique(name), "Twin " + words,
                "Finds " + words + " for the test of two instances.", "testing", List.of("find-twins"));
        return MarketplaceFixtures.listed(staff, card);
    }

    private static boolean found(Api api, String words, String id) {
        var reply = MarketplaceFixtures.awaitSearch(api, "limit=50&q=" + words.replace(" ", "+"),
                r -> MarketplaceFixtures.ids(r).contains(id));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return MarketplaceFixtures.ids(reply).contains(id);
    }

    @Test
    void whenAnAgentIsListedOnOneInstanceThenTheOtherFindsItAlsoWhenItWasDownMeanwhile() throws Exception {
        var server = AtriumServer.get();
        var staff = MarketplaceFixtures.staff();
        try (var peer = server.peer()) {
            peer.start();
            var onPeer = Api.anonymous().at(peer.baseUrl());

            String words = words("mariner");
            String id = listed(staff, words, "twin");
            assertThat(found(onPeer, words, id)).as("listed on the first, searched on the second").isTrue();

            peer.close();
            String missedWords = words("harbour");
            String missed = listed(staff, missedWords, "missed");
            peer.start();

            assertThat(found(onPeer, missedWords, missed)).as("listed while the second was down").isTrue();
            assertThat(found(Api.anonymous(), missedWords, missed)).isTrue();
        }
    }
}
