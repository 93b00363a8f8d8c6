package dev.atrium.identity.control.oauth;

import java.text.ParseException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.eclipse.microprofile.config.Config;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;

import dev.atrium.platform.BaseUrl;
import dev.atrium.platform.error.BusinessException;

/**
 * The configured providers, their endpoints (read from the issuer's discovery document when not configured) and
 * their signing keys. Discovery documents are kept an hour and key sets until a token names a key they lack; only
 * successful reads are kept, so a provider that was down is asked again at the next login.
 */
@ApplicationScoped
public class OAuthProviders {

    private static final Logger LOG = Logger.getLogger(OAuthProviders.class.getName());
    static final Duration DISCOVERY_TTL = Duration.ofHours(1);
    static final Duration KEYS_MIN_REFRESH = Duration.ofSeconds(10);
    static final Set<JWSAlgorithm> ASYMMETRIC = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
            JWSAlgorithm.ES512);

    private record Fetched<T>(T value, long atNanos) {
        boolean olderThan(Duration age) {
            return System.nanoTime() - atNanos > age.toNanos();
        }
    }

    @Inject
    Config config;

    @Inject
    OAuthHttp http;

    @Inject
    BaseUrl baseUrl;

    private Map<String, OAuthProvider> providers = Map.of();
    private final Map<String, Fetched<JsonObject>> discovery = new ConcurrentHashMap<>();
    private final Map<String, Fetched<JWKSet>> keys = new ConcurrentHashMap<>();

    @PostConstruct
    void load() {
        providers = Map.copyOf(OAuthProviderSettings.read(config.getPropertyNames(),
                key -> config.getOptionalValue(key, String.class), baseUrl.value(), LOG::warning));
        if (!providers.isEmpty()) {
            LOG.info(() -> "OAuth providers: " + String.join(", ", providers.keySet()));
        }
    }

    /** The provider of that name; 404 when none is configured. */
    public OAuthProvider require(String name) {
        OAuthProvider provider = name == null ? null : providers.get(name);
        if (provider == null) {
            throw BusinessException.notFound("OAuth provider");
        }
        return provider;
    }

    public Set<String> names() {
        return providers.keySet();
    }

    public ProviderEndpoints endpoints(OAuthProvider provider) {
        Optional<JsonObject> doc = provider.issuer().isPresent() && !provider.fullyConfigured()
                ? Optional.of(discover(provider.issuer().get())) : Optional.empty();
        String authorization = provider.authorizationEndpoint().or(() -> doc.flatMap(d -> text(d, "authorization_endpoint")))
                .orElseThrow(() -> OAuthHttp.upstream("discovery document lacks authorization_endpoint"));
        String token = provider.tokenEndpoint().or(() -> doc.flatMap(d -> text(d, "token_endpoint")))
                .orElseThrow(() -> OAuthHttp.upstream("discovery document lacks token_endpoint"));
        Optional<String> userinfo = provider.userinfoEndpoint().or(() -> doc.flatMap(d -> text(d, "userinfo_endpoint")));
        Optional<String> jwks = provider.jwksUri().or(() -> doc.flatMap(d -> text(d, "jwks_uri")));
        // the discovery document names the issuer exactly as its ID tokens do
        Optional<String> issuer = doc.flatMap(d -> text(d, "issuer")).or(provider::issuer);
        return new ProviderEndpoints(issuer, authorization, token, userinfo, jwks, authMethod(provider, doc),
                algorithms(doc));
    }

    /** The provider's key set; {@code refresh} reads it again (a token named a key not in it), at most every 10 s. */
    public JWKSet keys(String jwksUri, boolean refresh) {
        var cached = keys.get(jwksUri);
        if (cached != null && !(refresh && cached.olderThan(KEYS_MIN_REFRESH))) {
            return cached.value();
        }
        try {
            JWKSet set = JWKSet.parse(http.getJson("key set", jwksUri, null).toString());
            keys.put(jwksUri, new Fetched<>(set, System.nanoTime()));
            return set;
        } catch (ParseException e) {
            throw OAuthHttp.upstream("key set is not a JWK set");
        }
    }

    private JsonObject discover(String issuer) {
        var cached = discovery.get(issuer);
        if (cached != null && !cached.olderThan(DISCOVERY_TTL)) {
            return cached.value();
        }
        String base = withoutTrailingSlash(issuer);
        JsonObject doc = http.getJson("discovery document", base + "/.well-known/openid-configuration", null);
        // OpenID Connect Discovery 1.0, 4.3: the document must name the issuer it was fetched for
        String named = text(doc, "issuer").orElse("");
        if (!withoutTrailingSlash(named).equals(base)) {
            LOG.warning(() -> "Discovery document of " + issuer + " names issuer " + named);
            throw OAuthHttp.upstream("discovery document names another issuer");
        }
        discovery.put(issuer, new Fetched<>(doc, System.nanoTime()));
        return doc;
    }

    private static String withoutTrailingSlash(String url) {
        return url.replaceAll("/+$", "");
    }

    static OAuthProvider.ClientAuthMethod authMethod(OAuthProvider provider, Optional<JsonObject> doc) {
        if (provider.clientAuthMethod().isPresent()) {
            return provider.clientAuthMethod().get();
        }
        if (provider.clientSecret().isEmpty()) {
            return OAuthProvider.ClientAuthMethod.NONE;
        }
        Set<String> supported = doc.map(d -> strings(d, "token_endpoint_auth_methods_supported")).orElse(Set.of());
        // RFC 8414: when the list is absent, client_secret_basic is the default
        if (supported.isEmpty() || supported.contains("client_secret_basic")) {
            return OAuthProvider.ClientAuthMethod.CLIENT_SECRET_BASIC;
        }
        return supported.contains("client_secret_post") ? OAuthProvider.ClientAuthMethod.CLIENT_SECRET_POST
                : OAuthProvider.ClientAuthMethod.CLIENT_SECRET_BASIC;
    }

    static Set<JWSAlgorithm> algorithms(Optional<JsonObject> doc) {
        var algorithms = new LinkedHashSet<JWSAlgorithm>();
        doc.map(d -> strings(d, "id_token_signing_alg_values_supported")).orElse(Set.of()).stream()
                .map(JWSAlgorithm::parse).filter(ASYMMETRIC::contains).forEach(algorithms::add);
        // RS256 is the algorithm every OpenID provider must support
        return algorithms.isEmpty() ? Set.of(JWSAlgorithm.RS256) : algorithms;
    }

    private static Optional<String> text(JsonObject o, String name) {
        return o.get(name) instanceof JsonString s && !s.getString().isBlank() ? Optional.of(s.getString())
                : Optional.empty();
    }

    private static Set<String> strings(JsonObject o, String name) {
        if (!(o.get(name) instanceof JsonArray array)) {
            return Set.of();
        }
        var values = new LinkedHashSet<String>();
        array.forEach(v -> {
            if (v instanceof JsonString s) {
                values.add(s.getString());
            }
        });
        return values;
    }
}
