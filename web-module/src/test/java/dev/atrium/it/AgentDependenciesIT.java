package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Declared agent dependencies resolve at submission (flat strategy): each must name a listed agent whose current
 * version fits the range, and none may lead back to the submitted agent; an image carries the version as its tag.
 */
@ExtendWith(AtriumServer.class)
class AgentDependenciesIT {

    private static Accounts.Account staff;

    @BeforeAll
    static void setUp() {
        staff = MarketplaceFixtures.staff();
    }

    private static ObjectNode dependingOn(String name, Object... dependencies) {
        ObjectNode card = MarketplaceFixtures.card(name);
        var agents = card.putObject("dependencies").putArray("agents");
        for (int i = 0; i < dependencies.length; i += 2) {
            agents.addObject().put("name", (String) dependencies[i]).put("version", (String) dependencies[i + 1]);
        }
        return card;
    }

    private static List<String> pointers(Reply reply) {
        var pointers = new ArrayList<String>();
        reply.json().get("errors").forEach(e -> pointers.add(e.get("pointer").asText() + " " + e.get("message")
                .asText()));
        return pointers;
    }

    @Test
    void whenEachDependencyIsListedAndFitsThenAcceptedOtherwiseEachIsNamedAtItsPointer() {
        String ocr = MarketplaceFixtures.unique("ocr");
        MarketplaceFixtures.listed(staff, MarketplaceFixtures.card(ocr));
        String pending = MarketplaceFixtures.unique("pending");
        MarketplaceFixtures.submitted(MarketplaceFixtures.developer(staff, "dep"), MarketplaceFixtures.card(pending));
        var dev = MarketplaceFixtures.developer(staff, "deps");

        var fits = MarketplaceFixtures.submit(dev.api(), dependingOn(MarketplaceFixtures.unique("reader"),
                ocr, "^1.0.0"), MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(fits.status()).as(fits.toString()).isEqualTo(202);

        var refused = MarketplaceFixtures.submit(dev.api(), dependingOn(MarketplaceFixtures.unique("reader"),
                ocr, ">=2.0.0", "no-such-agent-" + ocr, "*", pending, "*", ocr, "about one"),
                MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
        assertThat(refused.json().get("status").asText()).isEqualTo("rejected");
        assertThat(pointers(refused)).as(refused.toString()).anySatisfy(p -> assertThat(p)
                .startsWith("/dependencies/agents/3/version"));
        // a malformed range is a card problem, found before the registry is asked
        var resolved = MarketplaceFixtures.submit(dev.api(), dependingOn(MarketplaceFixtures.unique("reader"),
                ocr, ">=2.0.0", "no-such-agent-" + ocr, "*", pending, "*"), MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(resolved.status()).as(resolved.toString()).isEqualTo(422);
        assertThat(pointers(resolved)).hasSize(3).anySatisfy(p -> assertThat(p)
                        .startsWith("/dependencies/agents/0/version").contains("serves version 1.0.0"))
                .anySatisfy(p -> assertThat(p).startsWith("/dependencies/agents/1/name"))
                .anySatisfy(p -> assertThat(p).startsWith("/dependencies/agents/2/name").contains("no listed agent"));
    }

    @Test
    void whenADependencyLeadsBackToTheAgentOrTheAgentToItselfThenRefused() {
        var dev = MarketplaceFixtures.developer(staff, "cycle");
        String a = MarketplaceFixtures.unique("cycle-a");
        ObjectNode aCard = MarketplaceFixtures.card(a);
        String aId = MarketplaceFixtures.submitted(dev, aCard);
        MarketplaceFixtures.approve(staff, aId);
        String b = MarketplaceFixtures.unique("cycle-b");
        MarketplaceFixtures.approve(staff, MarketplaceFixtures.submitted(dev, dependingOn(b, a, "^1.0.0")));

        ObjectNode next = dependingOn(a, b, "*");
        next.put("version", "1.1.0");
        var cycle = MarketplaceFixtures.submit(dev.api(), next, MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(cycle.status()).as(cycle.toString()).isEqualTo(422);
        assertThat(pointers(cycle)).singleElement().satisfies(p -> assertThat(p)
                .startsWith("/dependencies/agents/0/name").contains("cycle"));

        ObjectNode self = dependingOn(a, a, "*");
        self.put("version", "1.1.0");
        var itself = MarketplaceFixtures.submit(dev.api(), self, MarketplaceFixtures.HELLO_BUNDLE);
        assertThat(itself.status()).isEqualTo(422);
        assertThat(pointers(itself)).singleElement().satisfies(p -> assertThat(p).contains("itself"));
    }

    @Test
    void whenTheImageTagIsNotTheVersionThenRefusedAtTheImage() {
        var dev = MarketplaceFixtures.developer(staff, "image");
        ObjectNode card = MarketplaceFixtures.card(MarketplaceFixtures.unique("imaged"));
        card.withObject("/runtime").put("docker_image", "registry.example/agents/imaged:latest");
        var refused = MarketplaceFixtures.submit(dev.api(), card, null);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
        assertThat(pointers(refused)).singleElement().satisfies(p -> assertThat(p)
                .startsWith("/runtime/docker_image").contains("1.0.0"));

        card.withObject("/runtime").put("docker_image", "registry.example/agents/imaged:1.0.0");
        assertThat(MarketplaceFixtures.submit(dev.api(), card, null).status()).isEqualTo(202);
    }
}
