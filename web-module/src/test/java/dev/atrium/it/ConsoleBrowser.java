package dev.atrium.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium from Debian's packages, driven through Debian's chromedriver: the driver's path is given, so
 * Selenium Manager never looks for (or downloads) a browser. Downloads land in a directory of their own.
 * As a JUnit extension it saves a screenshot of the page when a test fails.
 */
public final class ConsoleBrowser implements AutoCloseable {

    static final Path SCREENSHOTS = Path.of("target/console-screenshots");
    private static final String CHROMIUM = System.getProperty("atrium.it.chromium", "/usr/bin/chromium");
    private static final String DRIVER = System.getProperty("atrium.it.chromedriver", "/usr/bin/chromedriver");

    final ChromeDriver driver;
    final Path downloads;
    final WebDriverWait wait;

    ConsoleBrowser() {
        try {
            downloads = Files.createTempDirectory(Path.of("target"), "console-downloads");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var options = new ChromeOptions().setBinary(CHROMIUM)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                        "--window-size=1400,1000", "--no-first-run", "--disable-extensions",
                        "--disable-background-networking", "--disable-component-update", "--lang=en-US");
        options.setExperimentalOption("prefs", Map.of(
                "download.default_directory", downloads.toAbsolutePath().toString(),
                "download.prompt_for_download", false,
                "safebrowsing.enabled", false));
        var service = new ChromeDriverService.Builder().usingDriverExecutable(Path.of(DRIVER).toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        wait = new WebDriverWait(driver, Duration.ofSeconds(20));
    }

    /** Whether this machine has the browser and its driver ({@code scripts/services} installs both). */
    static boolean available() {
        return Files.isExecutable(Path.of(CHROMIUM)) && Files.isExecutable(Path.of(DRIVER));
    }

    /**
     * For a browser test's set-up: fails when the browser is missing and scripts/test asked for every service
     * ({@code ATRIUM_TEST_REQUIRE_SERVICES}); on a developer's machine without one, skips the class.
     */
    static void requireAvailable() {
        if (available()) {
            return;
        }
        if (Boolean.parseBoolean(System.getenv("ATRIUM_TEST_REQUIRE_SERVICES"))) {
            throw new IllegalStateException("chromium and chromedriver are required: run scripts/services");
        }
        org.junit.jupiter.api.Assumptions.abort("chromium or chromedriver is missing: run scripts/services");
    }

    void open(String pathAndHash) {
        driver.get(AtriumServer.get().baseUrl() + pathAndHash);
    }

    WebElement await(By by) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    void awaitText(By by, String text) {
        wait.until(ExpectedConditions.textToBePresentInElementLocated(by, text));
    }

    void signIn(String email, String password) {
        open("/console");
        await(By.cssSelector("#signin input[name=email]")).sendKeys(email);
        driver.findElement(By.cssSelector("#signin input[name=password]")).sendKeys(password);
        driver.findElement(By.cssSelector("#signin button[type=submit]")).click();
    }

    Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }

    /** Saves the page of a failed test as {@code target/console-screenshots/failed-<test>.png}. */
    static final class OnFailure implements TestWatcher {

        static ConsoleBrowser current;

        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (current != null) {
                try {
                    System.out.println("Screenshot: " + current.screenshot(
                            "failed-" + context.getRequiredTestMethod().getName()).toAbsolutePath());
                } catch (RuntimeException e) {
                    System.out.println("No screenshot: " + e);
                }
            }
        }
    }
}
