package dev.atrium.identity.control.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class OAuthProviderSettingsTest {

    private final List<String> warnings = new ArrayList<>();

    private Map<String, OAuthProvider> read(Map<String, String> properties, Map<String, String> environment) {
        var names = new ArrayList<>(properties.keySet());
        names.addAll(environment.keySet());
        // MicroProfile Config's environment mapping: dots and hyphens become underscores, upper case
        return OAuthProviderSettings.read(names, key -> Optional.ofNullable(properties.get(key))
                .or(() -> Optional.ofNullable(environment.get(key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase()))),
                "https://atrium.example/", warnings::add);
    }

    @Test
    void whenConfiguredByPropertyOrEnvironmentThenBothAreFoundWithHyphensFromUnderscores() {
        var providers = read(Map.of(
                "atrium.oauth.google.client-id", "g-client",
                "atrium.oauth.google.client-secret", "g-secret",
                "atrium.oauth.google.issuer", "https://accounts.google.com/"),
                Map.of("ATRIUM_OAUTH_MY_IDP_CLIENT_ID", "m-client",
                        "ATRIUM_OAUTH_MY_IDP_ISSUER", "https://idp.example"));

        assertThat(providers).containsOnlyKeys("google", "my-idp");
        var google = providers.get("google");
        assertThat(google.clientId()).isEqualTo("g-client");
        assertThat(google.clientSecret()).contains("g-secret");
        assertThat(google.issuer()).contains("https://accounts.google.com/");
        assertThat(google.scope()).isEqualTo("openid email profile");
        assertThat(google.redirectUri()).isEqualTo("https://atrium.example/auth/google/callback");
        assertThat(google.toString()).doesNotContain("g-secret");
        assertThat(providers.get("my-idp").clientSecret()).isEmpty();
        assertThat(providers.get("my-idp").redirectUri()).isEqualTo("https://atrium.example/auth/my-idp/callback");
        assertThat(warnings).isEmpty();
    }

    @Test
    void whenEndpointsAreExplicitThenNoIssuerIsNeeded() {
        var providers = read(Map.of(
                "atrium.oauth.github.client-id", "c",
                "atrium.oauth.github.client-secret", "s",
                "atrium.oauth.github.authorization-endpoint", "https://github.com/login/oauth/authorize",
                "atrium.oauth.github.token-endpoint", "https://github.com/login/oauth/access_token",
                "atrium.oauth.github.userinfo-endpoint", "https://api.github.com/user",
                "atrium.oauth.github.scope", "read:user user:email",
                "atrium.oauth.github.redirect-uri", "https://app.example/oauth/github",
                "atrium.oauth.github.client-auth-method", "client_secret_post"), Map.of());

        var github = providers.get("github");
        assertThat(github.issuer()).isEmpty();
        assertThat(github.fullyConfigured()).isTrue();
        assertThat(github.scope()).isEqualTo("read:user user:email");
        assertThat(github.redirectUri()).isEqualTo("https://app.example/oauth/github");
        assertThat(github.clientAuthMethod()).contains(OAuthProvider.ClientAuthMethod.CLIENT_SECRET_POST);
    }

    @Test
    void whenSettingsAreIncompleteOrWrongThenTheProviderIsLeftOutWithAWarning() {
        var providers = read(Map.of(
                "atrium.oauth.nothing.client-id", "c",
                "atrium.oauth.relative.client-id", "c",
                "atrium.oauth.relative.issuer", "/not/absolute",
                "atrium.oauth.method.client-id", "c",
                "atrium.oauth.method.issuer", "https://idp.example",
                "atrium.oauth.method.client-auth-method", "client_secret_basic",
                "atrium.oauth.ok.client-id", "c",
                "atrium.oauth.ok.issuer", "https://idp.example"), Map.of());

        assertThat(providers).containsOnlyKeys("ok");
        assertThat(warnings).hasSize(3).anyMatch(w -> w.contains("'method'") && w.contains("client-secret"));
    }

    @Test
    void whenNamesAreNotLowerCaseLettersDigitsAndHyphensOrTooLongThenIgnored() {
        assertThat(OAuthProviderSettings.names(List.of("atrium.oauth.Upper.client-id", "atrium.oauth.a_b.client-id",
                "atrium.oauth.twenty-one-characters.client-id", "atrium.oauth.twenty-characters-ok.client-id",
                "ATRIUM_OAUTH__CLIENT_ID", "atrium.oauth.x.client-secret", "OTHER_OAUTH_X_CLIENT_ID")))
                .containsExactly("twenty-characters-ok");
    }
}
