package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Issue 49: the page that renders the OpenAPI document ({@code /openapi/ui}, Swagger UI from its WebJar) in a real
 * browser under its strict policy: it lists the operations, and "Try it out" on {@code GET /health} calls the server
 * and shows the answer. Every file of the page comes from this server.
 */
@ExtendWith({AtriumServer.class, ConsoleBrowser.OnFailure.class})
class ApiPageIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static ConsoleBrowser browser;

    @BeforeAll
    static void open() {
        ConsoleBrowser.requireAvailable();
        browser = new ConsoleBrowser();
        ConsoleBrowser.OnFailure.current = browser;
    }

    @AfterAll
    static void close() {
        ConsoleBrowser.OnFailure.current = null;
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void whenThePageIsFetchedThenItAndItsFilesComeFromThisServerUnderAPolicyWithoutInlineScript() throws Exception {
        var page = get("/openapi/ui");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertThat(policy).contains("script-src 'self'").doesNotContain("unsafe-inline").doesNotContain("unsafe-eval");
        assertThat(page.headers().allValues("Content-Security-Policy")).hasSize(1);
        // no inline script and nothing from another origin
        assertThat(page.body()).doesNotContain("<script>").doesNotContain("//cdn").doesNotContain("https://");
        for (String file : List.of("/openapi/ui/swagger-ui-bundle.js", "/openapi/ui/initializer.js",
                "/openapi/ui/swagger-ui.css")) {
            var asset = get(file);
            assertThat(asset.statusCode()).as(file).isEqualTo(200);
            assertThat(asset.body()).as(file).isNotBlank();
        }
        var other = get("/openapi/ui/index.html");
        assertThat(other.statusCode()).isEqualTo(404);
        assertThat(other.body()).contains("\"error\"");
    }

    @Test
    void whenThePageOpensThenItListsTheOperationsAndTryItOutCallsTheHealthCheck() {
        // a deep link: Swagger UI opens the operation and scrolls to it
        browser.open("/openapi/ui#/operations/HealthResource_health");
        browser.wait.until(ExpectedConditions.numberOfElementsToBeMoreThan(By.cssSelector(".opblock"), 5));
        assertThat(browser.driver.findElement(By.cssSelector(".info .title")).getText()).startsWith("Atrium");
        Object operations = browser.driver.executeScript("return window.ui.specSelectors.operations().size");
        assertThat(((Number) operations).intValue()).as("the operations the page lists").isGreaterThan(100);
        Object tags = browser.driver.executeScript(
                "return window.ui.specSelectors.taggedOperations().keySeq().toArray()");
        assertThat(((List<?>) tags).stream().map(String::valueOf).toList()).as("the sections the page shows")
                .contains("ai", "identity", "marketplace", "billing", "operations");
        browser.screenshot("api-page");
        WebElement health = browser.await(By.id("operations-operations-HealthResource_health"));

        if (health.findElements(By.cssSelector(".try-out__btn")).isEmpty()) {
            health.findElement(By.cssSelector(".opblock-summary-control")).click();
        }
        browser.wait.until(ExpectedConditions.elementToBeClickable(
                health.findElement(By.cssSelector(".try-out__btn")))).click();
        browser.wait.until(ExpectedConditions.elementToBeClickable(
                health.findElement(By.cssSelector("button.execute")))).click();

        By status = By.cssSelector("#operations-operations-HealthResource_health .live-responses-table "
                + ".response .response-col_status");
        browser.wait.until(ExpectedConditions.textToBePresentInElementLocated(status, "200"));
        String body = health.findElement(By.cssSelector(".live-responses-table .response-col_description pre"))
                .getText();
        assertThat(body).contains("\"database\"").contains("\"ok\"");
        String url = health.findElement(By.cssSelector(".request-url pre")).getText();
        assertThat(url).isEqualTo(AtriumServer.get().baseUrl() + "/health");
        browser.screenshot("api-page-try-it-out");
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
