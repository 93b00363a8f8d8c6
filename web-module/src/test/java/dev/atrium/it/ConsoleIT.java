package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The operators' console in a real browser (Debian's headless Chromium through Selenium) against the shared
 * server: sign in, approve a pending agent, deactivate a user, start a payout run and download its file, and a
 * non-admin refused. Each screen is saved as a screenshot under {@code target/console-screenshots}; a failed test
 * saves its page there too.
 */
@ExtendWith({AtriumServer.class, ConsoleBrowser.OnFailure.class})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleIT {

    private static Accounts.Account staff;
    private static ConsoleBrowser browser;

    @BeforeAll
    static void open() {
        ConsoleBrowser.requireAvailable();
        staff = MarketplaceFixtures.staff();
        browser = new ConsoleBrowser();
        ConsoleBrowser.OnFailure.current = browser;
        browser.signIn(staff.email(), Accounts.PASSWORD);
        browser.await(By.id("nav"));
        browser.awaitText(By.id("who"), staff.username());
    }

    @AfterAll
    static void close() {
        ConsoleBrowser.OnFailure.current = null;
        if (browser != null) {
            browser.close();
        }
    }

    private static By button(String name) {
        return By.cssSelector("button[name='" + name + "']");
    }

    private static void click(String name) {
        browser.wait.until(ExpectedConditions.elementToBeClickable(button(name))).click();
    }

    private static void awaitFlash(String text) {
        browser.awaitText(By.id("flash"), text);
    }

    @Test
    @Order(1)
    void whenAnAdministratorSignsInThenEveryScreenShowsAndIsCaptured() {
        for (var screen : List.of(Map.entry("users", "Users"), Map.entry("agents", "Agent review queue"),
                Map.entry("jobs", "Batch jobs"), Map.entry("billing", "Billing"), Map.entry("system", "System"),
                Map.entry("audit", "Audit log"), Map.entry("alerts", "Security alerts"))) {
            browser.open("/console#/" + screen.getKey());
            browser.awaitText(By.tagName("h1"), screen.getValue());
            browser.screenshot("screen-" + screen.getKey());
        }
        browser.open("/console#/system");
        browser.awaitText(By.id("health"), "Database");
        assertThat(browser.driver.findElement(By.id("health")).getText()).contains("Object store");
        assertThat(browser.driver.findElement(By.id("queues")).getText()).contains("Outbox events waiting")
                .contains("DLQ");
        browser.awaitText(By.id("sandbox"), "Trust level");
        assertThat(browser.driver.findElement(By.id("sandbox")).getText()).contains("official").contains("1024 MB")
                .contains("50 % of one CPU");
        assertThat(browser.driver.findElement(By.id("deprecations")).getText())
                .contains(AtriumServer.DEPRECATED_PREFIX).contains("/api/v2/tags").contains("retired (410)");
        browser.open("/console#/jobs");
        browser.awaitText(By.id("jobs"), "monthly-payout");
        assertThat(browser.driver.findElement(By.id("jobs")).getText()).contains("daily-usage-report")
                .contains("daily-marketplace-report").contains("quality-scoring");
    }

    @Test
    @Order(2)
    void whenAReviewerApprovesAPendingAgentThenItIsListed() {
        var developer = MarketplaceFixtures.developer(staff, "console-dev");
        // what an author wrote is shown as text, never as markup
        String hostile = "<img src=x onerror=\"document.title='pwned'\">";
        ObjectNode card = MarketplaceFixtures.card(MarketplaceFixtures.unique("console-agent"), "Console " + hostile,
                "Approved from the console " + hostile, "productivity", List.of("console-check"));
        String id = MarketplaceFixtures.submitted(developer, card);

        browser.open("/console#/agents?search=" + card.get("name").asText());
        browser.awaitText(By.cssSelector("table.list"), card.get("name").asText());
        browser.screenshot("screen-agents-queue");
        browser.driver.findElement(By.cssSelector("tr.row")).click();
        browser.await(By.id("review"));
        browser.awaitText(By.id("checks"), "static_scan");
        assertThat(browser.driver.findElement(By.id("card")).getText()).contains("\"capabilities\"");
        assertThat(browser.driver.findElements(By.cssSelector("main img"))).isEmpty();
        assertThat(browser.driver.findElement(By.tagName("h1")).getText()).contains(hostile);
        browser.screenshot("screen-agent-review");
        click("approve");
        awaitFlash("Approved");

        var agent = staff.api().get("/v1/agents/" + id);
        assertThat(agent.json().get("status").asText()).isEqualTo("active");
        assertThat(browser.driver.getTitle()).isEqualTo("Atrium console");
    }

    @Test
    @Order(3)
    void whenAnAdministratorDeactivatesAUserWithAReasonThenTheUserCannotLogIn() {
        var user = Accounts.verified("console-victim");
        browser.open("/console#/users?search=" + user.username());
        browser.awaitText(By.cssSelector("table.list"), user.email());
        browser.driver.findElement(By.cssSelector("tr.row")).click();
        browser.await(By.cssSelector("input[name=reason]")).sendKeys("Console test: abuse report 42");
        browser.screenshot("screen-user");
        click("deactivate");
        awaitFlash("User deactivated");
        browser.awaitText(By.id("user"), "Console test: abuse report 42");

        var login = Api.anonymous().post("/login", Map.of("email", user.email(), "password", Accounts.PASSWORD));
        assertThat(login.status()).isEqualTo(403);
        assertThat(login.json().at("/error/code").asInt()).isEqualTo(10005);
        assertThat(user.api().get("/me/permissions").status()).isEqualTo(401);

        click("reactivate");
        awaitFlash("User reactivated");
        assertThat(Api.anonymous().post("/login", Map.of("email", user.email(), "password", Accounts.PASSWORD))
                .status()).isEqualTo(200);
    }

    @Test
    @Order(4)
    void whenAnAdministratorStartsAPayoutRunForAMonthThenItsFileDownloads() throws Exception {
        String month = earningsMonth();

        browser.open("/console#/billing");
        var monthInput = browser.await(By.cssSelector("#payouts input[name=month]"));
        // a month input takes the value through script in every Chromium; typing depends on the locale
        browser.driver.executeScript("arguments[0].value = arguments[1]", monthInput, month);
        click("start-payout");
        awaitFlash("Payout run for " + month + " started");
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (browser.driver.findElements(By.cssSelector("#payouts a[name=payout-file]")).isEmpty()) {
            assertThat(System.nanoTime()).as("the payout file link within 90 s").isLessThan(deadline);
            Thread.sleep(1000);
            click("show-run");
            browser.await(By.id("payouts"));
        }
        browser.screenshot("screen-billing-payout");
        browser.driver.findElement(By.cssSelector("#payouts a[name=payout-file]")).click();

        Path file = browser.downloads.resolve("atrium-payouts-" + month + ".xml");
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!Files.exists(file) && System.nanoTime() < until) {
            Thread.sleep(200);
        }
        assertThat(file).exists();
        String xml = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(xml).contains("pain.001.001.09").contains("<IBAN>GB82WEST12345698765432</IBAN>");

        browser.open("/console#/jobs/monthly-payout");
        browser.awaitText(By.id("executions"), "MONTH=" + month);
        browser.screenshot("screen-job-payout");
    }

    /** A paid call this month, earning a developer with a bank account 70.00: the month to settle. */
    private static String earningsMonth() throws Exception {
        ObjectNode card = InvokeFixtures.pythonCard("console-paid");
        card.putObject("pricing").put("model", "per_call").put("price_usd", new BigDecimal("100.00"))
                .put("free_quota", 0);
        var agent = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
        assertThat(agent.author().api().put("/v1/me/payout-account", Map.of("method", "bank_transfer",
                "holder_name", "Console Earner", "iban", "GB82 WEST 1234 5698 7654 32", "bic", "NWBKGB2L"))
                .status()).isEqualTo(200);
        var caller = Accounts.verified("console-caller");
        assertThat(staff.api().post("/v1/admin/billing/credits", Map.of("user_id", caller.id(), "amount", 200,
                "reason", "Console payout test")).status()).isEqualTo(201);
        assertThat(InvokeFixtures.invoke(caller.api(), agent.id(), Map.of("text", "x")).status()).isEqualTo(200);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<Map<String, Object>> charged;
        do {
            charged = InvokeFixtures.rows("SELECT recorded_at FROM agent_usage_records r JOIN journal_entries j "
                    + "ON j.reference = 'usage:' || r.id WHERE r.user_id = ?", caller.id());
            if (charged.isEmpty()) {
                Thread.sleep(200);
            }
        } while (charged.isEmpty() && System.nanoTime() < deadline);
        assertThat(charged).as("the call's usage posted to the ledger").isNotEmpty();
        var recorded = (java.sql.Timestamp) charged.get(0).get("recorded_at");
        return java.time.YearMonth.from(recorded.toInstant().atZone(java.time.ZoneOffset.UTC)).toString();
    }

    @Test
    @Order(5)
    void whenASecurityAlertIsOpenThenTheConsoleListsItAndAcknowledgesIt() {
        var user = Accounts.verified("console-roamer");
        for (String from : new String[] {"172.20.1.1", "2001:db8:9::1"}) {
            Accounts.login(Api.anonymous().header("X-Forwarded-For", from), user.email(), user.username());
        }
        String subject = "user:" + user.id();

        browser.open("/console#/alerts?status=open&subject=" + subject);
        browser.awaitText(By.cssSelector("table.list"), "location_change");
        assertThat(browser.driver.findElement(By.cssSelector("table.list")).getText()).contains(subject);
        browser.screenshot("screen-alerts-open");
        click("ack");
        awaitFlash("Acknowledged");

        var alert = staff.api().get("/admin/alerts?subject=" + subject + "&kind=location_change").json();
        assertThat(alert.at("/items/0/status").asText()).isEqualTo("acknowledged");
        assertThat(alert.at("/items/0/acknowledged_by").asLong()).isEqualTo(staff.id());
    }

    @Test
    @Order(6)
    void whenAUserWithoutConsolePermissionsSignsInThenTheConsoleRefusesThem() {
        var user = Accounts.verified("console-outsider");
        try (var other = new ConsoleBrowser()) {
            other.signIn(user.email(), Accounts.PASSWORD);
            other.awaitText(By.id("signin-error"), "no access to the operators' console");
            assertThat(other.driver.findElement(By.id("nav")).isDisplayed()).isFalse();
            assertThat(other.driver.manage().getCookieNamed("session_id")).isNull();
            other.screenshot("screen-refused");
        }
        var refused = Api.anonymous().post("/console/session", Map.of("email", user.email(),
                "password", Accounts.PASSWORD));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    @Order(7)
    void whenTheConsoleIsServedThenItsPolicyForbidsInlineScriptAndFraming() throws Exception {
        var client = HttpClient.newHttpClient();
        for (String path : List.of("/console", "/console/console.js", "/console/console.css")) {
            var response = client.send(HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + path))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            assertThat(response.headers().allValues("Content-Security-Policy")).as(path)
                    .containsExactly("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                            + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
            assertThat(response.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        }
        var page = client.send(HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + "/console")).GET()
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(page).doesNotContainPattern("<script>|<script [^>]*>[^<]+</script>|\\sstyle=|\\son[a-z]+=");
        assertThat(client.send(HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl()
                + "/console/../WEB-INF/web.xml")).GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isIn(400, 404);
    }

    @Test
    @Order(8)
    void whenAConsoleSessionChangesStateWithoutACsrfTokenThenItIsRefused() throws Exception {
        var cookies = new java.net.CookieManager();
        var client = HttpClient.newBuilder().cookieHandler(cookies).build();
        String base = AtriumServer.get().baseUrl();
        var signIn = client.send(HttpRequest.newBuilder(URI.create(base + "/console/session"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        Api.JSON.writeValueAsString(Map.of("email", staff.email(), "password", Accounts.PASSWORD))))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(signIn.statusCode()).isEqualTo(200);
        assertThat(signIn.headers().firstValue("Set-Cookie").orElseThrow()).contains("HttpOnly")
                .contains("SameSite=Strict").contains("Secure");
        String cookie = signIn.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
        var victim = Accounts.verified("console-csrf");

        var forged = client.send(HttpRequest.newBuilder(URI.create(base + "/admin/users/" + victim.id()))
                .header("Cookie", cookie).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"is_active\":false,\"reason\":\"x\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("CSRF");
        assertThat(victim.api().get("/me/permissions").status()).isEqualTo(200);
        var form = client.send(HttpRequest.newBuilder(URI.create(base + "/console/session"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("email=a%40b.c&password=x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(form.statusCode()).as("a cross-site form cannot sign in").isEqualTo(415);
    }
    @Test
    @Order(9)
    void whenAReviewerRejectsWithReasonsThenTheAgentIsRejectedWithThem() {
        var developer = MarketplaceFixtures.developer(staff, "console-rejected");
        ObjectNode card = MarketplaceFixtures.card(MarketplaceFixtures.unique("console-reject"), "Rejected agent",
                "Rejected from the console", "productivity", List.of("console-reject"));
        String id = MarketplaceFixtures.submitted(developer, card);

        browser.open("/console#/agents/" + id);
        browser.await(By.cssSelector("textarea[name=reasons]"))
                .sendKeys("The description promises a summary it never gives\nNo useful output for empty input");
        click("reject");
        awaitFlash("Rejected");

        assertThat(staff.api().get("/v1/agents/" + id).json().get("status").asText()).isEqualTo("rejected");
        var version = staff.api().get("/v1/admin/submissions?agent_id=" + id).json().at("/items/0");
        assertThat(version.get("decision_note").asText())
                .isEqualTo("The description promises a summary it never gives\nNo useful output for empty input");
    }

    @Test
    @Order(10)
    void whenAnAdministratorGrantsAndRevokesARoleAndEndsSessionsThenTheUserAndTheAuditLogShowIt() {
        var user = Accounts.verified("console-roles");
        browser.open("/console#/users/" + user.id());
        var grant = new org.openqa.selenium.support.ui.Select(browser.await(By.cssSelector("select[name=role]")));
        grant.selectByValue("developer");
        click("grant");
        awaitFlash("Role developer granted");
        assertThat(staff.api().get("/admin/users/" + user.id()).json().get("roles").toString()).contains("developer");

        click("revoke-developer");
        awaitFlash("Role developer revoked");
        assertThat(staff.api().get("/admin/users/" + user.id()).json().get("roles").toString())
                .doesNotContain("developer");

        click("end-sessions");
        awaitFlash("All sessions and tokens of the user have ended");
        browser.awaitText(By.cssSelector("main"), "sessions_end");
        assertThat(browser.driver.findElement(By.cssSelector("main")).getText()).contains("role_grant")
                .contains("role_revoke");
    }

    @Test
    @Order(11)
    void whenAnAdministratorCreditsAUserAndReconcilesTheMonthThenTheBalanceLedgerAndReportShow() {
        var user = Accounts.verified("console-credit");
        browser.open("/console#/billing?user_id=" + user.id());
        browser.await(By.cssSelector("input[name=amount]")).sendKeys("12.34");
        browser.driver.findElement(By.cssSelector("input[name=credit_reason]")).sendKeys("Goodwill after an outage");
        click("credit");
        awaitFlash("Credited");
        browser.awaitText(By.id("ledger-lines"), "Goodwill after an outage");
        assertThat(browser.driver.findElement(By.id("ledger-lines")).getText()).contains("admin_credit")
                .contains("12.34 USD");
        browser.screenshot("screen-billing-ledger");

        String month = java.time.YearMonth.now(java.time.ZoneOffset.UTC).toString();
        browser.driver.executeScript("arguments[0].value = arguments[1]",
                browser.driver.findElement(By.cssSelector("input[name=rmonth]")), month);
        click("reconcile-month");
        browser.awaitText(By.id("reconciliation"), "Reconciliation of " + month);

        var balance = user.api().get("/v1/me/balance").json().get("balance").decimalValue();
        var ledger = user.api().get("/v1/me/ledger").json();
        assertThat(ledger.at("/items/0/kind").asText()).isEqualTo("admin_credit");
        assertThat(ledger.at("/items/0/amount").decimalValue()).isEqualByComparingTo("12.34");
        assertThat(browser.driver.findElement(By.id("balance")).getText())
                .contains(balance.stripTrailingZeros().toPlainString());
        assertThat(browser.driver.findElement(By.id("reconciliation")).getText()).contains("Unbalanced entries");
    }

    @Test
    @Order(12)
    void whenAnAdministratorStartsAJobFromItsScreenThenTheExecutionIsListed() {
        browser.open("/console#/jobs/quality-scoring");
        click("start");
        awaitFlash("Started execution #");
        String execution = browser.driver.findElement(By.id("flash")).getText().replaceAll(".*#", "");
        var end = BatchIT.awaitEnd(staff.api(), "/admin/batch-executions/" + execution, Duration.ofSeconds(90));
        assertThat(end.get("status").asText()).isEqualTo("COMPLETED");
        click("refresh");
        By row = By.cssSelector("tr[data-execution='" + execution + "']");
        browser.awaitText(row, "COMPLETED");
        assertThat(browser.driver.findElement(row).getText()).contains("score: COMPLETED · read ");
    }
}
