package dev.atrium.identity.control.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.atrium.identity.entity.OAuthAccount;

/**
 * Reads the configured providers. A provider exists when {@code atrium.oauth.<name>.client-id} is set, under that
 * name or as the environment variable {@code ATRIUM_OAUTH_<NAME>_CLIENT_ID} (underscores in {@code NAME} stand for
 * hyphens, as MicroProfile Config maps them). A provider whose settings are incomplete is left out with a warning
 * rather than failing the start: the other providers and password login keep working.
 */
public final class OAuthProviderSettings {

    static final String PREFIX = "atrium.oauth.";
    private static final Pattern PROPERTY = Pattern.compile("atrium\\.oauth\\.([a-z0-9-]+)\\.client-id");
    private static final Pattern ENVIRONMENT = Pattern.compile("ATRIUM_OAUTH_([A-Z0-9_]+)_CLIENT_ID");

    private OAuthProviderSettings() {
    }

    /** The provider names that the given property names configure, sorted. */
    public static TreeSet<String> names(Iterable<String> propertyNames) {
        var names = new TreeSet<String>();
        for (String property : propertyNames) {
            var p = PROPERTY.matcher(property);
            if (p.matches()) {
                names.add(p.group(1));
                continue;
            }
            var e = ENVIRONMENT.matcher(property);
            if (e.matches()) {
                names.add(e.group(1).toLowerCase(Locale.ROOT).replace('_', '-'));
            }
        }
        names.removeIf(n -> !OAuthAccount.PROVIDER_NAME.matcher(n).matches() || n.startsWith("-") || n.endsWith("-"));
        return names;
    }

    /**
     * The providers configured: {@code lookup} answers a configuration key ({@code atrium.oauth.<name>.<setting>}),
     * {@code baseUrl} is the public base URL the default redirect URI is built on.
     */
    public static Map<String, OAuthProvider> read(Iterable<String> propertyNames,
                                                  Function<String, Optional<String>> lookup, String baseUrl,
                                                  Consumer<String> warn) {
        var providers = new TreeMap<String, OAuthProvider>();
        for (String name : names(propertyNames)) {
            try {
                providers.put(name, provider(name, key -> lookup.apply(PREFIX + name + "." + key)
                        .map(String::strip).filter(v -> !v.isEmpty()), baseUrl));
            } catch (IllegalArgumentException e) {
                warn.accept("OAuth provider '" + name + "' left out: " + e.getMessage());
            }
        }
        return providers;
    }

    static OAuthProvider provider(String name, Function<String, Optional<String>> setting, String baseUrl) {
        String clientId = setting.apply("client-id")
                .orElseThrow(() -> new IllegalArgumentException("client-id is empty"));
        // kept as written: ID tokens must name the issuer exactly, trailing slash included
        Optional<String> issuer = setting.apply("issuer").map(v -> url("issuer", v));
        Optional<String> authorization = setting.apply("authorization-endpoint").map(v -> url("authorization-endpoint", v));
        Optional<String> token = setting.apply("token-endpoint").map(v -> url("token-endpoint", v));
        if (issuer.isEmpty() && (authorization.isEmpty() || token.isEmpty())) {
            throw new IllegalArgumentException("set issuer (for OIDC discovery), or authorization-endpoint and "
                    + "token-endpoint");
        }
        Optional<String> userinfo = setting.apply("userinfo-endpoint").map(v -> url("userinfo-endpoint", v));
        Optional<String> jwks = setting.apply("jwks-uri").map(v -> url("jwks-uri", v));
        if (issuer.isEmpty() && userinfo.isEmpty()) {
            // without an issuer an ID token cannot be checked, so the user is read from userinfo
            throw new IllegalArgumentException("set issuer, or userinfo-endpoint: the user must be read from "
                    + "somewhere");
        }
        String redirect = setting.apply("redirect-uri").map(v -> url("redirect-uri", v))
                .orElse(baseUrl.replaceAll("/+$", "") + "/auth/" + name + "/callback");
        Optional<OAuthProvider.ClientAuthMethod> method = setting.apply("client-auth-method")
                .map(v -> OAuthProvider.ClientAuthMethod.of(v).orElseThrow(() -> new IllegalArgumentException(
                        "client-auth-method must be client_secret_basic, client_secret_post or none")));
        Optional<String> secret = setting.apply("client-secret");
        if (secret.isEmpty() && method.isPresent() && method.get() != OAuthProvider.ClientAuthMethod.NONE) {
            throw new IllegalArgumentException("client-auth-method " + method.get().value()
                    + " needs a client-secret");
        }
        return new OAuthProvider(name, clientId, secret, issuer, authorization, token, userinfo, jwks,
                setting.apply("scope").orElse(OAuthProvider.DEFAULT_SCOPE), redirect, method);
    }

    private static String url(String key, String value) {
        try {
            var uri = new URI(value);
            if (!uri.isAbsolute() || uri.getHost() == null
                    || !("https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme()))) {
                throw new IllegalArgumentException(key + " must be an absolute http(s) URL");
            }
            if (uri.getRawFragment() != null) {
                throw new IllegalArgumentException(key + " must not have a fragment");
            }
            return value;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(key + " is not a URL");
        }
    }
}
