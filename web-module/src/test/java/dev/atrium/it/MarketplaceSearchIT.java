package dev.atrium.it;

import static dev.atrium.it.MarketplaceFixtures.awaitSearch;
import static dev.atrium.it.MarketplaceFixtures.card;
import static dev.atrium.it.MarketplaceFixtures.ids;
import static dev.atrium.it.MarketplaceFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/** Semantic search, hybrid ranking, recommendation, and the A2A and MCP views of an agent. */
@ExtendWith(AtriumServer.class)
class MarketplaceSearchIT {

    // plain category names (other test classes use "testing" and made-up ones): the task analysis reads them
    private static final String LANGUAGE = "language";
    private static final String FINANCE = "finance";
    private static final String CODE = "code";
    private static String translator;
    private static String invoices;
    private static String sentiment;
    private static String reviewer;
    private static String sql;
    private static String pending;
    private static Accounts.Account staff;

    private final Api anonymous = Api.anonymous();

    @BeforeAll
    static void catalog() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
        translator = MarketplaceFixtures.listed(staff, card(unique("german-translator"), "English German Translator",
                "Translates text between English and German, keeping formatting and technical terminology.",
                LANGUAGE, List.of("translate-text", "preserve-formatting")));
        invoices = MarketplaceFixtures.listed(staff, card(unique("invoice-reader"), "Invoice Reader",
                "Extracts vendor, totals, tax and line items from scanned supplier invoices into JSON.", FINANCE,
                List.of("extract-invoice-fields", "ocr-receipts")));
        sentiment = MarketplaceFixtures.listed(staff, card(unique("news-sentiment"), "Market News Sentiment",
                "Scores the sentiment of financial news headlines about listed companies and stock tickers.",
                FINANCE, List.of("analyze-news-sentiment")));
        reviewer = MarketplaceFixtures.listed(staff, card(unique("pr-reviewer"), "Pull Request Reviewer",
                "Reviews pull request diffs and finds bugs, security problems and style issues.", CODE,
                List.of("review-code", "find-bugs")));
        sql = MarketplaceFixtures.listed(staff, card(unique("sql-writer"), "Text to SQL",
                "Turns a question in plain English into an SQL query for a given database schema.", CODE,
                List.of("generate-sql")));
        pending = MarketplaceFixtures.submitted(MarketplaceFixtures.developer(staff, "waiting"), card(
                unique("french-translator"), "English French Translator",
                "Translates text between English and French, keeping formatting.", LANGUAGE,
                List.of("translate-text")));
    }

    private static String q(String text) {
        return "q=" + URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static List<Double> distances(Reply reply) {
        var distances = new ArrayList<Double>();
        reply.json().get("agents").forEach(a -> distances.add(a.get("distance").asDouble()));
        return distances;
    }

    @Test
    void whenSearchingThenTheClosestActiveAgentComesFirstWithAscendingDistance() {
        var reply = awaitSearch(anonymous, q("translate my user manual into German"),
                r -> ids(r).contains(translator));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(ids(reply).get(0)).isEqualTo(translator);
        assertThat(distances(reply)).isSorted().allSatisfy(d -> assertThat(d).isBetween(0.0, 2.0));
        assertThat(reply.json().get("agents")).hasSizeLessThanOrEqualTo(10);
        assertThat(reply.json().get("total").asLong()).isGreaterThanOrEqualTo(5);
        JsonNode first = reply.json().at("/agents/0");
        assertThat(first.get("name").asText()).startsWith("german-translator");
        assertThat(first.get("display_name").asText()).isEqualTo("English German Translator");
        assertThat(first.get("description").asText()).startsWith("Translates text");
        assertThat(first.get("quality_score").isNumber()).isTrue();
        assertThat(first.get("downloads").isIntegralNumber()).isTrue();
        assertThat(first.get("distance").isNumber()).isTrue();
        assertThat(ids(reply)).doesNotContain(pending);
    }

    @Test
    void whenACategoryIsGivenThenOnlyAgentsOfThatCategory() {
        var reply = awaitSearch(anonymous, q("pull the totals out of a supplier bill") + "&category=" + FINANCE,
                r -> ids(r).size() == 2);

        assertThat(ids(reply)).containsExactly(invoices, sentiment);
        assertThat(reply.json().get("total").asLong()).isEqualTo(2);
    }

    @Test
    void whenALimitIsGivenThenAtMostThatManyAndOutOfRangeIsInvalid() {
        var reply = anonymous.get("/v1/agents/search?" + q("review my code") + "&limit=2");

        assertThat(reply.json().get("agents")).hasSizeLessThanOrEqualTo(2);
        assertThat(anonymous.get("/v1/agents/search?" + q("x") + "&limit=0").status()).isEqualTo(422);
        assertThat(anonymous.get("/v1/agents/search?" + q("x") + "&limit=101").status()).isEqualTo(422);
        assertThat(anonymous.get("/v1/agents/search?" + q("x") + "&limit=ten").status()).isEqualTo(422);
        assertThat(anonymous.get("/v1/agents/search?" + q("x") + "&limit=100").status()).isEqualTo(200);
        assertThat(anonymous.get("/v1/agents/search").status()).isEqualTo(422);
        assertThat(anonymous.get("/v1/agents/search?q=%20").status()).isEqualTo(422);
    }

    @Test
    void whenAnAgentIsPendingOrTakenDownThenSearchDoesNotShowIt() {
        String doomed = MarketplaceFixtures.listed(staff, card(unique("haiku-poet"), "Haiku Poet",
                "Writes haiku poems about the seasons in the traditional five-seven-five form.", LANGUAGE,
                List.of("write-haiku")));
        String query = q("a haiku about autumn leaves") + "&category=" + LANGUAGE;
        assertThat(ids(awaitSearch(anonymous, query, r -> ids(r).contains(doomed)))).contains(doomed)
                .doesNotContain(pending);

        var takedown = staff.api().post("/v1/admin/agents/" + doomed + "/takedown",
                Map.of("reason", "copying_another_developer", "details", "Same code as an earlier agent"));
        assertThat(takedown.status()).isEqualTo(200);

        assertThat(ids(awaitSearch(anonymous, query, r -> !ids(r).contains(doomed)))).doesNotContain(doomed);
    }

    @Test
    void whenHybridThenKeywordsAndMeaningAreFusedAndTheModeIsChecked() {
        var reply = awaitSearch(anonymous, q("SQL query for my database schema") + "&mode=hybrid",
                r -> ids(r).contains(sql));

        assertThat(ids(reply).get(0)).isEqualTo(sql);
        assertThat(reply.json().at("/agents/0/distance").isNumber()).isTrue();
        var filtered = anonymous.get("/v1/agents/search?" + q("find bugs") + "&mode=hybrid&category=" + CODE);
        assertThat(ids(filtered)).containsExactlyInAnyOrder(reviewer, sql);
        assertThat(ids(filtered).get(0)).isEqualTo(reviewer);
        assertThat(anonymous.get("/v1/agents/search?" + q("x") + "&mode=psychic").status()).isEqualTo(422);
    }

    @Test
    void whenATaskIsGivenThenItIsAnalysedAndAgentsForItRecommended() {
        var reply = anonymous.post("/v1/recommendations",
                Map.of("task", "Our accountants need the VAT and line items pulled out of scanned supplier bills"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode analysis = reply.json().get("analysis");
        assertThat(analysis.get("required_capabilities")).extracting(JsonNode::asText)
                .contains("extract-invoice-fields");
        assertThat(analysis.get("category").asText()).isEqualTo(FINANCE);
        JsonNode agents = reply.json().get("agents");
        assertThat(agents).hasSizeLessThanOrEqualTo(5);
        assertThat(agents.get(0).get("id").asText()).isEqualTo(invoices);

        var one = anonymous.post("/v1/recommendations", Map.of("task", "translate a contract into German",
                "top_k", 1));
        assertThat(one.json().get("agents")).hasSize(1);
        assertThat(one.json().at("/agents/0/id").asText()).isEqualTo(translator);
        assertThat(anonymous.post("/v1/recommendations", Map.of("task", " ")).status()).isEqualTo(422);
        assertThat(anonymous.post("/v1/recommendations", Map.of("task", "x", "top_k", 0)).status()).isEqualTo(422);
    }

    @Test
    void whenAskedForTheA2aCardThenItHasTheAgentCardFieldsWithTheirTypes() {
        var reply = anonymous.get("/v1/agents/" + translator + "/a2a-card");

        assertThat(reply.status()).isEqualTo(200);
        JsonNode card = reply.json();
        for (String field : List.of("protocolVersion", "name", "description", "url", "version")) {
            assertThat(card.get(field).isTextual()).as(field).isTrue();
        }
        assertThat(card.get("name").asText()).isEqualTo("English German Translator");
        assertThat(card.get("version").asText()).isEqualTo("1.0.0");
        assertThat(card.get("url").asText()).startsWith("http").endsWith("/v1/agents/" + translator + "/invoke");
        JsonNode capabilities = card.get("capabilities");
        for (String flag : List.of("streaming", "pushNotifications", "stateTransitionHistory")) {
            assertThat(capabilities.get(flag).isBoolean()).as(flag).isTrue();
        }
        for (String modes : List.of("defaultInputModes", "defaultOutputModes")) {
            assertThat(card.get(modes).isArray()).isTrue();
            assertThat(card.get(modes)).extracting(JsonNode::asText).containsExactly("application/json");
        }
        assertThat(card.get("skills")).hasSize(2);
        card.get("skills").forEach(skill -> {
            assertThat(skill.get("id").isTextual()).isTrue();
            assertThat(skill.get("name").isTextual()).isTrue();
            assertThat(skill.get("description").isTextual()).isTrue();
            assertThat(skill.get("tags").isArray()).isTrue();
            assertThat(skill.get("examples").isArray()).isTrue();
            skill.get("examples").forEach(e -> assertThat(e.isTextual()).isTrue());
        });
        assertThat(card.get("skills")).extracting(s -> s.get("id").asText())
                .containsExactly("translate-text", "preserve-formatting");
        JsonNode bearer = card.at("/securitySchemes/bearer");
        assertThat(bearer.get("type").asText()).isEqualTo("http");
        assertThat(bearer.get("scheme").asText()).isEqualTo("bearer");
        assertThat(card.at("/security/0/bearer").isArray()).isTrue();
        assertThat(card.at("/provider/organization").isTextual()).isTrue();
    }

    @Test
    void whenAskedForTheMcpToolThenItHasNameDescriptionAndInputSchema() {
        var reply = anonymous.get("/v1/agents/" + invoices + "/mcp-tool");

        assertThat(reply.status()).isEqualTo(200);
        JsonNode tool = reply.json();
        assertThat(tool.get("name").asText()).matches("[a-zA-Z0-9_-]{1,64}").startsWith("invoice-reader");
        assertThat(tool.get("description").isTextual()).isTrue();
        JsonNode input = tool.get("inputSchema");
        assertThat(input.isObject()).isTrue();
        assertThat(input.get("type").asText()).isEqualTo("object");
        assertThat(input.at("/properties/text/type").asText()).isEqualTo("string");
        assertThat(input.get("required")).extracting(JsonNode::asText).containsExactly("text");
        assertThat(tool.at("/outputSchema/type").asText()).isEqualTo("object");
        assertThat(tool.get("title").asText()).isEqualTo("Invoice Reader");

        assertThat(anonymous.get("/v1/agents/" + pending + "/mcp-tool").status()).isEqualTo(404);
        assertThat(anonymous.get("/v1/agents/" + pending + "/a2a-card").status()).isEqualTo(404);
    }
}
