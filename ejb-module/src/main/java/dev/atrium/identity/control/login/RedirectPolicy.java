package dev.atrium.identity.control.login;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import dev.atrium.platform.BaseUrl;

/**
 * Where SSO may send a browser: URLs under a prefix of {@code atrium.sso.allowed-redirects} (default: the base
 * URL). A URL matches a prefix when scheme, host and port are equal and its path continues the prefix's path at a
 * segment boundary, so {@code https://app.example} does not admit {@code https://app.example.evil} nor
 * {@code https://app.example@evil}.
 */
@ApplicationScoped
public class RedirectPolicy {

    @Inject
    Config config;

    @Inject
    BaseUrl baseUrl;

    private List<URI> allowed = List.of();

    @PostConstruct
    void parse() {
        allowed = config.getOptionalValues("atrium.sso.allowed-redirects", String.class)
                .orElseGet(() -> List.of(baseUrl.value()))
                .stream().map(String::trim).filter(s -> !s.isEmpty()).map(RedirectPolicy::parseUrl)
                .flatMap(Optional::stream).toList();
    }

    public boolean allows(String url) {
        var candidate = parseUrl(url);
        return candidate.isPresent() && allowed.stream().anyMatch(prefix -> matches(prefix, candidate.get()));
    }

    private static boolean matches(URI prefix, URI candidate) {
        if (!prefix.getScheme().equalsIgnoreCase(candidate.getScheme())
                || !prefix.getHost().equalsIgnoreCase(candidate.getHost())
                || port(prefix) != port(candidate)) {
            return false;
        }
        String base = prefix.getPath() == null || prefix.getPath().isEmpty() ? "/" : prefix.getPath();
        String path = candidate.getPath() == null || candidate.getPath().isEmpty() ? "/" : candidate.getPath();
        if (base.endsWith("/")) {
            return path.startsWith(base);
        }
        return path.equals(base) || path.startsWith(base + "/");
    }

    private static int port(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    static Optional<URI> parseUrl(String text) {
        if (text == null || text.isBlank() || text.length() > 2000) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(text.trim()).normalize();
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean ok = (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && uri.getRawUserInfo() == null && (uri.getPath() == null || !uri.getPath().contains(".."));
            return ok ? Optional.of(uri) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
