package dev.atrium.reports.control;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Atrium's REST API, called with the caller's own token: Atrium checks the permissions and keeps the audit, as if
 * the caller had asked it directly.
 */
@ApplicationScoped
public class AtriumApi {

    private static final Logger LOG = Logger.getLogger(AtriumApi.class.getName());
    /** Atrium's answers read here are small; anything larger is not one of them. */
    static final int MAX_BODY = 1 << 20;

    @Inject
    @ConfigProperty(name = "atrium.base-url", defaultValue = "http://localhost:8080")
    String baseUrl;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public JsonObject get(String pathAndQuery, String bearer) {
        var request = HttpRequest.newBuilder(URI.create(baseUrl.replaceAll("/+$", "") + pathAndQuery))
                .timeout(Duration.ofSeconds(15)).header("Accept", "application/json")
                .header("Authorization", "Bearer " + bearer).GET().build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            LOG.warning(() -> "Atrium did not answer " + request.uri().getPath() + ": " + e.getClass().getSimpleName());
            throw unavailable();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable();
        }
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            // the token verified here but Atrium refuses it (revoked, user deactivated, permission withdrawn)
            throw new ReportsException(status, status == 401 ? "unauthorized" : "forbidden",
                    "Atrium refused the caller's token for this report");
        }
        if (status != 200 || response.body().length > MAX_BODY) {
            LOG.warning(() -> "Atrium answered " + status + " to " + request.uri().getPath());
            throw unavailable();
        }
        try (var reader = Json.createReader(new StringReader(new String(response.body(), StandardCharsets.UTF_8)))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            LOG.warning(() -> "Atrium's answer to " + request.uri().getPath() + " is not a JSON object");
            throw unavailable();
        }
    }

    private static ReportsException unavailable() {
        return new ReportsException(502, "atrium_unavailable", "Atrium could not be read; try again later");
    }
}
