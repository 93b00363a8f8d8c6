package dev.atrium.identity.control.oauth;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.time.Duration;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.oauth2.sdk.util.JSONObjectUtils;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.BoundedSender;

/**
 * The few HTTP exchanges with a provider: discovery and key documents, the token request and userinfo, built with
 * the Nimbus OAuth 2.0 SDK and sent through {@link BoundedSender} (one deadline per exchange, answers cut off at
 * 1 MiB while they stream). A provider that cannot be reached, answers 5xx or answers something unreadable
 * is "upstream unavailable" (502); a token request the provider refuses is the client's bad request (400). Answers
 * never carry the provider's text or our secrets: only the standard error code, which is safe to show.
 */
@ApplicationScoped
public class OAuthHttp {

    private static final Logger LOG = Logger.getLogger(OAuthHttp.class.getName());
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int BODY_MAX = 1 << 20;

    // a provider's endpoints are configured or discovered, never found elsewhere: redirects are not followed
    private final BoundedSender sender = new BoundedSender(CONNECT_TIMEOUT, TIMEOUT, BODY_MAX);

    /** The JSON object at {@code url}; with {@code bearer}, a userinfo request with that access token. */
    public JsonObject getJson(String what, String url, String bearer) {
        URI uri = uri(what, url);
        HTTPRequest request = bearer == null ? new HTTPRequest(HTTPRequest.Method.GET, uri)
                : new UserInfoRequest(uri, new BearerAccessToken(bearer)).toHTTPRequest();
        HTTPResponse response = send(what, request);
        if (response.getStatusCode() != 200) {
            LOG.warning(() -> "OAuth " + what + " at " + url + " answered " + response.getStatusCode());
            throw upstream(what + " answered " + response.getStatusCode());
        }
        return object(what, response.getBody());
    }

    /** The authorization-code grant with the PKCE verifier; answers the token response. */
    public JsonObject exchangeCode(OAuthProvider provider, ProviderEndpoints endpoints, String code,
                                   String redirectUri, String codeVerifier) {
        var client = new ClientID(provider.clientId());
        // these two methods are only ever chosen with a secret (OAuthProviderSettings, OAuthProviders.authMethod)
        Secret secret = provider.clientSecret().map(Secret::new).orElse(null);
        ClientAuthentication authentication = switch (endpoints.clientAuthMethod()) {
            case CLIENT_SECRET_BASIC -> new ClientSecretBasic(client, secret);
            case CLIENT_SECRET_POST -> new ClientSecretPost(client, secret);
            case NONE -> null;
        };
        URI endpoint = uri("token endpoint", endpoints.tokenEndpoint());
        var grant = new AuthorizationCodeGrant(new AuthorizationCode(code), URI.create(redirectUri));
        // sent as stored: Pkce made it, so the checks of Nimbus's CodeVerifier would add nothing
        TokenRequest.Builder request = authentication == null ? new TokenRequest.Builder(endpoint, client, grant)
                : new TokenRequest.Builder(endpoint, authentication, grant);
        HTTPResponse response = send("token endpoint",
                request.customParameter("code_verifier", codeVerifier).build().toHTTPRequest());
        int status = response.getStatusCode();
        if (status == 200) {
            JsonObject tokens = object("token endpoint", response.getBody());
            if (!(tokens.get("access_token") instanceof JsonString)) {
                throw upstream("token endpoint answered without an access token");
            }
            return tokens;
        }
        if (status == 400 || status == 401) {
            String error = errorCode(response);
            LOG.info(() -> "OAuth provider " + provider.name() + " refused the authorization code: " + error);
            throw new BusinessException(Problem.BAD_REQUEST, "The provider refused the authorization code",
                    "error: " + error);
        }
        LOG.warning(() -> "OAuth token endpoint of " + provider.name() + " answered " + status);
        throw upstream("token endpoint answered " + status);
    }

    private HTTPResponse send(String what, HTTPRequest request) {
        request.setAccept("application/json");
        try {
            return request.send(sender);
        } catch (BoundedSender.TooLarge e) {
            throw upstream(what + " answered more than " + BODY_MAX + " bytes");
        } catch (IOException e) {
            LOG.warning(() -> "OAuth " + what + " at " + request.getURI().getHost() + " unreachable: " + e);
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
    private static String errorCode(HTTPResponse response) {
        try {
            // read whatever the Content-Type: only the code is kept
            String error = ErrorObject.parse(JSONObjectUtils.parse(response.getBody())).getCode();
            return error != null && error.matches("[a-z_]{1,64}") ? error : "unknown";
        } catch (ParseException | RuntimeException e) {
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

    static BusinessException upstream(String details) {
        return new BusinessException(Problem.UPSTREAM, "The identity provider is unavailable", details);
    }
}
