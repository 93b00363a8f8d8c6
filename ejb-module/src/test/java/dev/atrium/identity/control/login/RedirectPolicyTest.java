package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class RedirectPolicyTest {

    private static RedirectPolicy policy(String... prefixes) {
        var p = new RedirectPolicy();
        p.config = new org.eclipse.microprofile.config.Config() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> Optional<List<T>> getOptionalValues(String name, Class<T> type) {
                return name.equals("atrium.sso.allowed-redirects") ? Optional.of((List<T>) List.of(prefixes))
                        : Optional.empty();
            }

            @Override
            public <T> T getValue(String name, Class<T> type) {
                throw new UnsupportedOperationException(name);
            }

            @Override
            public org.eclipse.microprofile.config.ConfigValue getConfigValue(String name) {
                throw new UnsupportedOperationException(name);
            }

            @Override
            public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
                return Optional.empty();
            }

            @Override
            public Iterable<String> getPropertyNames() {
                return List.of();
            }

            @Override
            public Iterable<org.eclipse.microprofile.config.spi.ConfigSource> getConfigSources() {
                return List.of();
            }

            @Override
            public <T> Optional<org.eclipse.microprofile.config.spi.Converter<T>> getConverter(Class<T> type) {
                return Optional.empty();
            }

            @Override
            public <T> T unwrap(Class<T> type) {
                throw new UnsupportedOperationException();
            }
        };
        p.parse();
        return p;
    }

    @Test
    void whenUrlIsUnderAnAllowedPrefixThenAllowed() {
        var p = policy("https://app.example.test/portal", "http://localhost:3000");
        assertThat(p.allows("https://app.example.test/portal")).isTrue();
        assertThat(p.allows("https://app.example.test/portal/home?x=1")).isTrue();
        assertThat(p.allows("http://localhost:3000/anything")).isTrue();
    }

    @Test
    void whenUrlOnlyLooksLikeAnAllowedOneThenRefused() {
        var p = policy("https://app.example.test/portal");
        assertThat(p.allows("https://app.example.test.evil.test/portal")).isFalse();
        assertThat(p.allows("https://app.example.test@evil.test/portal")).isFalse();
        assertThat(p.allows("https://app.example.test/portal-evil")).isFalse();
        assertThat(p.allows("https://app.example.test/portal/../admin")).isFalse();
        assertThat(p.allows("http://app.example.test/portal")).isFalse();
        assertThat(p.allows("https://app.example.test:8443/portal")).isFalse();
        assertThat(p.allows("javascript:alert(1)")).isFalse();
        assertThat(p.allows("//evil.test/portal")).isFalse();
        assertThat(p.allows(null)).isFalse();
    }
}
