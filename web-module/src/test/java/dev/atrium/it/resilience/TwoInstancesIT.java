package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.it.Accounts;
import dev.atrium.it.Api;
import dev.atrium.it.AtriumServer;
import dev.atrium.it.MarketplaceFixtures;
import dev.atrium.it.MoneyProperty;

/**
 * Two instances on one database and one broker (one second instance for the whole class: starting one costs most of
 * a minute).
 * <ul>
 * <li>Each has its own search index: an agent listed through one is found through the other once the change's message
 * arrives, and one listed while the other was down is found there as soon as it is back.</li>
 * <li>Each names itself as the issuer of its SSO tokens, signed with the one key ring they share: the reports
 * subsystem beside one instance refuses the other's tokens with 401 although their signatures verify.</li>
 * <li>Each keeps article lists and the callers of bearer tokens: a change through one shows in the other's next
 * answer.</li>
 * <li>Money: {@link MoneyProperty}'s random mix of paid calls, dependencies, refusals and refunds, spread over both,
 * creates and loses none (each instance admits, holds and records; one ledger settles).</li>
 * </ul>
 */
@ExtendWith(AtriumServer.class)
class TwoInstancesIT {

    private static AtriumServer.Peer peer;

    @BeforeAll
    static void startTheSecondInstance() throws Exception {
        assumeTrue(AtriumServer.get().resilience(), "needs the resilience run's own broker, shared by both instances");
        peer = AtriumServer.get().peer();
        peer.start();
    }

    @AfterAll
    static void stopTheSecondInstance() {
        if (peer != null) {
            peer.close();
        }
    }

    /** A word of eight random letters makes the search's terms unique to this run (a UUID's letters may be fewer). */
    private static String words(String kind) {
        var random = ThreadLocalRandom.current();
        var word = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        return kind + " " + word + " lighthouse";
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
        var staff = MarketplaceFixtures.staff();
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

    private static List<String> titles(Api api, String path) {
        var reply = api.get(path);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var titles = new java.util.ArrayList<String>();
        reply.json().get("items").forEach(item -> titles.add(item.get("title").asText()));
        return titles;
    }

    /** Each instance keeps article lists rendered; a write through one shows in the other's next list. */
    @Test
    void whenAnArticleChangesOnOneInstanceThenTheOthersNextListShowsIt() {
        var author = Accounts.verified("twin-author");
        var onPeer = Api.anonymous().at(peer.baseUrl());
        String list = "/api/v1/articles?author_id=" + author.id();
        var created = author.api().post("/api/v1/articles", Map.of("title", "First title", "body", "b"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        long id = created.json().get("id").asLong();
        assertThat(author.api().post("/api/v1/articles/" + id + "/publish").status()).isEqualTo(200);
        assertThat(titles(onPeer, list)).containsExactly("First title");
        assertThat(titles(onPeer, list)).containsExactly("First title");

        assertThat(author.api().patch("/api/v1/articles/" + id, Map.of("title", "Second title")).status())
                .isEqualTo(200);
        assertThat(titles(onPeer, list)).containsExactly("Second title");

        assertThat(author.api().delete("/api/v1/articles/" + id).status()).isEqualTo(204);
        assertThat(titles(onPeer, list)).isEmpty();
    }

    /** Each instance keeps the callers of bearer tokens; a user changed through one is acted on by the other at once. */
    @Test
    void whenAUserChangesThroughOneInstanceThenTheOtherActsOnItAtOnce() {
        var user = Accounts.verified("twin-caller");
        var admin = Accounts.admin();
        var onPeer = user.api().at(peer.baseUrl());
        assertThat(permissions(onPeer)).doesNotContain("file:upload");
        assertThat(permissions(onPeer)).doesNotContain("file:upload");

        assertThat(admin.api().post("/admin/users/" + user.id() + "/roles", Map.of("role", "pro_user")).status())
                .isEqualTo(201);
        assertThat(permissions(onPeer)).contains("file:upload");

        assertThat(admin.api().delete("/admin/users/" + user.id() + "/roles/pro_user").status()).isEqualTo(204);
        assertThat(permissions(onPeer)).doesNotContain("file:upload");

        assertThat(admin.api().patch("/admin/users/" + user.id(), Map.of("is_active", false)).status())
                .isEqualTo(200);
        assertThat(onPeer.get("/me/permissions").status()).isEqualTo(401);
    }

    private static List<String> permissions(Api api) {
        var reply = api.get("/me/permissions");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var names = new java.util.ArrayList<String>();
        reply.json().get("permissions").forEach(n -> names.add(n.asText()));
        return names;
    }

    private static String sso(Api api, Accounts.Account user) {
        var reply = api.post("/sso/login", Map.of("email", user.email(), "password", Accounts.PASSWORD,
                "redirect_url", AtriumServer.SSO_REDIRECT));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().get("token").asText();
    }

    @Test
    void whenPaidCallsAndRefundsAreSpreadOverBothInstancesThenNoMoneyIsCreatedOrLost() throws Exception {
        MoneyProperty.check(List.of(AtriumServer.get().baseUrl(), peer.baseUrl()),
                Long.getLong("atrium.fuzz.seed", System.nanoTime()), Integer.getInteger("atrium.fuzz.rounds", 120));
    }

    @Test
    void whenAWellSignedTokenNamesAnotherIssuerThenTheReportsSubsystemRefusesIt() {
        var user = Accounts.verified("reports-issuer");
        var onPeer = Api.anonymous().at(peer.baseUrl());
        String peerToken = sso(onPeer, user);
        String ownToken = sso(Api.anonymous(), user);

        assertThat(onPeer.withToken(peerToken).get("/reports/me").status())
                .as("the second instance's subsystem: its own issuer").isEqualTo(200);
        assertThat(Api.anonymous().withToken(ownToken).get("/reports/me").status()).isEqualTo(200);
        assertThat(Api.anonymous().withToken(peerToken).get("/reports/me").status())
                .as("the same key, another issuer").isEqualTo(401);
        assertThat(onPeer.withToken(ownToken).get("/reports/me").status()).isEqualTo(401);
    }
}
