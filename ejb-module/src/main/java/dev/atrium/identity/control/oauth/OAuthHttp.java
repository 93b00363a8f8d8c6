package dev.atrium.identity.control.oauth;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * The few HTTP exchanges with a provider: discovery and key documents, the token request and userinfo. A provider
 * that cannot be reached, answers 5xx or answers something unreadable is "upstream unavailable" (502); a token
 * request the provider refuses is the client's bad request (400). Answers never carry the provider's text or our
 * secrets: only the standard error code, which is safe to show.
 */
@ApplicationScoped
public class OAuthHttp {

    private static final Logger LOG = Logger.getLogger(OAuthHttp.class.getName());
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int BODY_MAX = 1 << 20;

    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            // a provider's endpoints are configured or discovered; none of them is followed elsewhere
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    /** The JSON object at {@code url}; with {@code bearer}, sent as the access token (userinfo). */
    public JsonObject getJson(String what, String url, String bearer) {
        var request = HttpRequest.newBuilder(uri(what, url)).timeout(TIMEOUT).header("Accept", "application/json");
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        HttpResponse<String> response = send(what, request.GET().build());
        if (response.statusCode() != 200) {
            LOG.warning(() -> "OAuth " + what + " at " + url + " answered " + response.statusCode());
            throw upstream(what + " answered " + response.statusCode());
        }
        return object(what, response.body());
    }

    /** The authorization-code grant with the PKCE verifier; answers the token response. */
    public JsonObject exchangeCode(OAuthProvider provider, ProviderEndpoints endpoints, String code,
                                   String redirectUri, String codeVerifier) {
        var form = new LinkedHashMap<String, String>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri);
        form.put("code_verifier", codeVerifier);
        var request = HttpRequest.newBuilder(uri("token endpoint", endpoints.tokenEndpoint())).timeout(TIMEOUT)
                .header("Accept", "application/json")
                .header("Content-Type", "application/x-www-form-urlencoded");
        switch (endpoints.clientAuthMethod()) {
            case CLIENT_SECRET_BASIC -> request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (formEncode(provider.clientId()) + ":" + formEncode(provider.clientSecret().orElse("")))
                            .getBytes(StandardCharsets.UTF_8)));
            case CLIENT_SECRET_POST -> {
                form.put("client_id", provider.clientId());
                form.put("client_secret", provider.clientSecret().orElse(""));
            }
            case NONE -> form.put("client_id", provider.clientId());
        }
        String body = form.entrySet().stream().map(e -> formEncode(e.getKey()) + "=" + formEncode(e.getValue()))
                .collect(Collectors.joining("&"));
        HttpResponse<String> response = send("token endpoint",
                request.POST(HttpRequest.BodyPublishers.ofString(body)).build());
        int status = response.statusCode();
        if (status == 200) {
            JsonObject tokens = object("token endpoint", response.body());
            if (!(tokens.get("access_token") instanceof jakarta.json.JsonString)) {
                throw upstream("token endpoint answered without an access token");
            }
            return tokens;
        }
        if (status == 400 || status == 401) {
            String error = errorCode(response.body());
            LOG.info(() -> "OAuth provider " + provider.name() + " refused the authorization code: " + error);
            throw new BusinessException(Problem.BAD_REQUEST, "The provider refused the authorization code",
                    "error: " + error);
        }
        LOG.warning(() -> "OAuth token endpoint of " + provider.name() + " answered " + status);
        throw upstream("token endpoint answered " + status);
    }

    private HttpResponse<String> send(String what, HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.body() != null && response.body().length() > BODY_MAX) {
                throw upstream(what + " answered more than " + BODY_MAX + " characters");
            }
            return response;
        } catch (IOException e) {
            LOG.log(Level.WARNING, "OAuth " + what + " at " + request.uri().getHost() + " unreachable: " + e);
            throw upstream(what + " unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw upstream(what + " unreachable");
        }
    }

    private static JsonObject object(String what, String body) {
        try (var reader = JSON.createReader(new StringReader(body == null ? "" : body))) {
            JsonValue value = reader.readValue();
            if (value instanceof JsonObject o) {
                return o;
            }
        } catch (JsonException | IllegalStateException e) {
            // answered below
        }
        throw upstream(what + " answered something other than a JSON object");
    }

    /** The standard {@code error} code of an OAuth error answer, restricted to its alphabet; else "unknown". */
    static String errorCode(String body) {
        try (var reader = JSON.createReader(new StringReader(body == null ? "" : body))) {
            String error = reader.readObject().getString("error", "");
            return error.matches("[a-z_]{1,64}") ? error : "unknown";
        } catch (JsonException | IllegalStateException | ClassCastException e) {
            return "unknown";
        }
    }

    private static URI uri(String what, String url) {
        try {
            return URI.create(url);
        } catch (IllegalArgumentException e) {
            throw upstream(what + " URL is not valid");
        }
    }

    static String formEncode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    static BusinessException upstream(String details) {
        return new BusinessException(Problem.UPSTREAM, "The identity provider is unavailable", details);
    }

    /** Parameters as a query string, in the order given. */
    public static String query(Map<String, String> params) {
        return params.entrySet().stream().map(e -> formEncode(e.getKey()) + "=" + formEncode(e.getValue()))
                .collect(Collectors.joining("&"));
    }
}
