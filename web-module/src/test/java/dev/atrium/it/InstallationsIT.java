package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Installations of agents and the list filters that came with them (issue 50), through the running server:
 * installing is idempotent per user (201, then 200), uninstalling 204 then 404, {@code downloads} counts distinct
 * users who ever installed, also under concurrent requests, {@code sort=downloads}, the caller's installation list,
 * and the {@code price_min}/{@code price_max} range filters with a table of hostile values and a seeded loop.
 */
@ExtendWith(AtriumServer.class)
class InstallationsIT {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261129L);

    private static Accounts.Account staff;
    private static String category;
    /** Listed agents of one category priced 0.00, 0.50 and 2.25 USD. */
    private static String free;
    private static String cheap;
    private static String dear;

    @BeforeAll
    static void setUp() {
        staff = MarketplaceFixtures.staff();
        category = MarketplaceFixtures.unique("inst");
        free = listed("free", "freemium", 0);
        cheap = listed("cheap", "per_call", 0.5);
        dear = listed("dear", "per_call", 2.25);
    }

    private static String listed(String base, String model, double price) {
        return listed(base, model, price, category);
    }

    private static String listed(String base, String model, double price, String inCategory) {
        String name = MarketplaceFixtures.unique(base);
        ObjectNode card = MarketplaceFixtures.card(name, "Agent " + name, "Installs for tests named " + name + ".",
                inCategory, List.of("install-me"));
        ((ObjectNode) card.get("pricing")).put("model", model).put("price_usd", price);
        return MarketplaceFixtures.listed(staff, card);
    }

    private static Reply install(Accounts.Account user, String agent) {
        return user.api().post("/v1/agents/" + agent + "/installations");
    }

    private static long downloads(String agent) {
        return Api.anonymous().get("/v1/agents/" + agent).json().get("downloads").asLong();
    }

    private static List<String> agentsOfCategory(String query) {
        var reply = Api.anonymous().get("/v1/agents?category=" + category + query);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var ids = new ArrayList<String>();
        reply.json().get("items").forEach(a -> ids.add(a.get("id").asText()));
        return ids;
    }

    @Test
    void whenAUserInstallsTwiceThenOneInstallationAndUninstallingTwiceIsThen404() {
        var user = Accounts.verified("installer");
        long before = downloads(cheap);

        var first = install(user, cheap);
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(first.json().get("agent_id").asText()).isEqualTo(cheap);
        var second = install(user, cheap);
        assertThat(second.status()).as("the existing installation: " + second).isEqualTo(200);
        assertThat(second.json().get("id").asText()).isEqualTo(first.json().get("id").asText());
        assertThat(downloads(cheap)).isEqualTo(before + 1);

        var mine = user.api().get("/v1/me/installations");
        assertThat(mine.status()).as(mine.toString()).isEqualTo(200);
        assertThat(mine.json().get("total").asLong()).isEqualTo(1);
        assertThat(mine.json().get("page").asInt()).isEqualTo(1);
        assertThat(mine.json().get("page_size").asInt()).isEqualTo(20);
        assertThat(mine.json().at("/items/0/agent_id").asText()).isEqualTo(cheap);

        assertThat(user.api().delete("/v1/agents/" + cheap + "/installations").status()).isEqualTo(204);
        var again = user.api().delete("/v1/agents/" + cheap + "/installations");
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.code()).isEqualTo(40400);
        assertThat(user.api().get("/v1/me/installations").json().get("total").asLong()).isZero();
        assertThat(downloads(cheap)).as("uninstalling does not lower downloads").isEqualTo(before + 1);

        var back = install(user, cheap);
        assertThat(back.status()).as("installed again: " + back).isEqualTo(201);
        assertThat(downloads(cheap)).as("the same user counts once").isEqualTo(before + 1);
        assertThat(Accounts.verified("never").api().delete("/v1/agents/" + cheap + "/installations").status())
                .isEqualTo(404);
    }

    @Test
    void whenTwentyConcurrentInstallsComeFromTenUsersThenDownloadsCountsTen() throws Exception {
        // a category of its own, so that its downloads and price stay out of the other tests' lists
        String agent = listed("crowd", "per_call", 0.01, MarketplaceFixtures.unique("crowd"));
        var users = new ArrayList<Accounts.Account>();
        for (int i = 0; i < 10; i++) {
            users.add(Accounts.verified("crowd" + i));
        }
        var start = new CountDownLatch(1);
        var pool = Executors.newFixedThreadPool(20);
        try {
            var replies = new ArrayList<Future<Reply>>();
            for (int i = 0; i < 20; i++) {
                var user = users.get(i % 10);
                replies.add(pool.submit((Callable<Reply>) () -> {
                    start.await();
                    return install(user, agent);
                }));
            }
            start.countDown();
            var statuses = new ArrayList<Integer>();
            for (var reply : replies) {
                statuses.add(reply.get().status());
            }
            assertThat(statuses).as("no request fails").allMatch(s -> s == 200 || s == 201);
            assertThat(statuses.stream().filter(s -> s == 201)).as("one new installation per user").hasSize(10);
        } finally {
            pool.shutdownNow();
        }
        assertThat(downloads(agent)).isEqualTo(10);
        for (var user : users) {
            assertThat(user.api().get("/v1/me/installations?agent_id=" + agent).json().get("total").asLong())
                    .isEqualTo(1);
        }
    }

    @Test
    void whenSortedByDownloadsThenTheMostInstalledComeFirst() {
        for (int i = 0; i < 2; i++) {
            assertThat(install(Accounts.verified("sorter"), dear).status()).isEqualTo(201);
        }
        assertThat(install(Accounts.verified("sorter"), free).status()).isEqualTo(201);
        var ids = agentsOfCategory("&sort=-downloads,name");
        var counts = ids.stream().map(InstallationsIT::downloads).toList();
        assertThat(counts).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(ids.indexOf(dear)).isLessThan(ids.indexOf(free));
        assertThat(agentsOfCategory("&sort=downloads,name").get(0)).isNotEqualTo(dear);
        var cursor = Api.anonymous().get("/v1/agents?category=" + category + "&sort=-downloads&limit=1");
        assertThat(cursor.status()).as(cursor.toString()).isEqualTo(200);
        var next = Api.anonymous().get("/v1/agents?category=" + category + "&sort=-downloads&limit=1&cursor="
                + cursor.json().get("next_cursor").asText());
        assertThat(next.status()).as(next.toString()).isEqualTo(200);
        assertThat(next.json().at("/items/0/id").asText()).isNotEqualTo(cursor.json().at("/items/0/id").asText());
    }

    @Test
    void whenTheAgentIsUnknownNotListedOrTheCallerAnonymousThenRefused() {
        var user = Accounts.verified("refused");
        for (String id : List.of("00000000-0000-0000-0000-000000000000", "0000", "not-an-id",
                UUID.randomUUID().toString(), "ffffffff-ffff-ffff-ffff-ffffffffffff-ff")) {
            var reply = install(user, id);
            assertThat(reply.status()).as(id + ": " + reply).isEqualTo(404);
            assertThat(reply.code()).as(id).isEqualTo(40400);
        }
        // bytes the HTTP parser refuses itself (an empty 400, as ContainerErrorsIT shows) or the application 404s
        for (String id : List.of("%00", "..%2F..%2Fadmin", "%E2%80%AE")) {
            var reply = install(user, id);
            assertThat(reply.status()).as(id + ": " + reply).isIn(400, 404);
            if (!reply.body().isEmpty()) {
                assertThat(reply.code()).as(id).isIn(40000, 40400);
            }
        }
        assertThat(Api.anonymous().post("/v1/agents/" + cheap + "/installations").status()).isEqualTo(401);
        assertThat(Api.anonymous().get("/v1/me/installations").status()).isEqualTo(401);

        var developer = MarketplaceFixtures.developer(staff, "pending-dev");
        String pending = MarketplaceFixtures.submitted(developer,
                MarketplaceFixtures.card(MarketplaceFixtures.unique("pending")));
        assertThat(install(user, pending).status()).as("a stranger does not see a pending agent").isEqualTo(404);
        var own = install(developer, pending);
        assertThat(own.status()).as("its author sees it, but it is not listed: " + own).isEqualTo(409);
        assertThat(own.code()).isEqualTo(40900);
    }

    @Test
    void whenTheInstallationListGetsHostileParametersThen422NeverA500() {
        var user = Accounts.verified("listhostile");
        assertThat(install(user, free).status()).isEqualTo(201);
        assertThat(install(user, dear).status()).isEqualTo(201);
        var page = user.api().get("/v1/me/installations?page_size=1&sort=installed_at");
        assertThat(page.json().get("total").asLong()).isEqualTo(2);
        assertThat(page.json().at("/items/0/agent_id").asText()).isEqualTo(free);
        var cursor = user.api().get("/v1/me/installations?limit=1");
        assertThat(cursor.json().at("/items/0/agent_id").asText()).as("newest first").isEqualTo(dear);
        var next = user.api().get("/v1/me/installations?limit=1&cursor=" + cursor.json().get("next_cursor").asText());
        assertThat(next.json().at("/items/0/agent_id").asText()).isEqualTo(free);
        assertThat(next.json().get("next_cursor").isNull()).isTrue();

        for (String query : List.of("page=0", "page_size=101", "limit=0", "limit=abc", "agent_id=not-a-uuid",
                "page=1&limit=5", "cursor=%25%25", "cursor=bm9wZQ", "created_after=yesterday", "ids=x")) {
            var reply = user.api().get("/v1/me/installations?" + query);
            assertThat(reply.status()).as(query + ": " + reply).isIn(400, 422);
            assertThat(reply.code()).as(query).isIn(40000, 40001);
        }
    }

    @Test
    void whenFilteredByPriceThenBoundsAreInclusiveOnTheListedPrice() {
        assertThat(agentsOfCategory("&price_min=0.5&sort=name")).containsExactlyInAnyOrder(cheap, dear);
        assertThat(agentsOfCategory("&price_max=0.5")).containsExactlyInAnyOrder(free, cheap);
        assertThat(agentsOfCategory("&price_min=0.500001&price_max=2.25")).containsExactly(dear);
        assertThat(agentsOfCategory("&price_min=0&price_max=0")).containsExactly(free);
        assertThat(agentsOfCategory("&price_min=3")).isEmpty();
        assertThat(agentsOfCategory("&price_min=2.25&price_max=2.25")).containsExactly(dear);
        assertThat(agentsOfCategory("&sort=-price_usd")).containsExactly(dear, cheap, free);
        var listed = Api.anonymous().get("/v1/agents/" + dear).json();
        assertThat(new BigDecimal(listed.get("price_usd").asText())).isEqualByComparingTo("2.25");
        var cursor = Api.anonymous().get("/v1/agents?category=" + category + "&sort=price_usd&limit=2");
        var next = Api.anonymous().get("/v1/agents?category=" + category + "&sort=price_usd&limit=2&cursor="
                + cursor.json().get("next_cursor").asText());
        assertThat(next.json().at("/items/0/id").asText()).isEqualTo(dear);
    }

    /** Hostile price bounds: each one 422/40001 naming the parameter. */
    @Test
    void whenAPriceBoundIsHostileThen422NamingIt() {
        var failures = new ArrayList<String>();
        for (String value : List.of("-1", "-0.01", "abc", "1e3", "1E-2", "NaN", "Infinity", "-Infinity", "0x10",
                "+1", "1.", ".5", "1.1234567", "10000000", "99999999999999999999999", "1,000", "1_000", "١٢",
                "1 2", "0.5.5", "1;DROP TABLE agents", "'", "%00", "1\u00a0", "\u202e1")) {
            for (String name : List.of("price_min", "price_max")) {
                var reply = Api.anonymous().get("/v1/agents?" + name + "="
                        + URLEncoder.encode(value, StandardCharsets.UTF_8));
                if (reply.status() != 422 || reply.code() != 40001
                        || !reply.json().at("/error/details").asText().contains(name)) {
                    failures.add(name + "=" + value + " -> " + reply);
                }
            }
        }
        for (String query : List.of("price_min=2&price_max=1", "price_min=0.000002&price_max=0.000001",
                "price_min=1,2", "price_max=1&price_max=2")) {
            var reply = Api.anonymous().get("/v1/agents?" + query);
            if (reply.status() != 422 || reply.code() != 40001) {
                failures.add(query + " -> " + reply);
            }
        }
        assertThat(failures).isEmpty();
        assertThat(Api.anonymous().get("/v1/agents?price_min=&price_max=").status())
                .as("an empty filter is no filter, as for every list filter").isEqualTo(200);
        assertThat(Api.anonymous().get("/v1/agents?price_min=1000000&price_max=1000000").status()).isEqualTo(200);
    }

    /** Random query values for the price bounds: a clean 200 or 422, never a 500, and a 200 only for a decimal. */
    @Test
    void whenPriceBoundsAreRandomThenEachIsAnsweredCleanly() {
        var random = new Random(SEED);
        String alphabet = "0123456789.-+eE ,x_%'\"\\;";
        var failures = new ArrayList<String>();
        for (int i = 0; i < 40; i++) {
            var value = new StringBuilder();
            for (int j = 0, n = 1 + random.nextInt(12); j < n; j++) {
                value.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String text = value.toString();
            var reply = Api.anonymous().get("/v1/agents?category=" + category + "&price_min="
                    + URLEncoder.encode(text, StandardCharsets.UTF_8));
            // as the server reads a filter: comma-separated, trimmed, blanks dropped, duplicates once
            var values = java.util.Arrays.stream(text.split(",")).map(String::trim).filter(v -> !v.isEmpty())
                    .distinct().toList();
            boolean valid = values.isEmpty() || values.size() == 1
                    && values.get(0).matches("[0-9]{1,7}(\\.[0-9]{1,6})?")
                    && new BigDecimal(values.get(0)).compareTo(new BigDecimal("1000000")) <= 0;
            boolean clean = valid ? reply.status() == 200 : reply.status() == 422 && reply.code() == 40001;
            if (!clean) {
                failures.add("'" + text + "' -> " + reply);
            }
        }
        assertThat(failures).isEmpty();
    }
}
