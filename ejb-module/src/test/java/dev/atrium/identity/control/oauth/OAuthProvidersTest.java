package dev.atrium.identity.control.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JWSAlgorithm;

import dev.atrium.identity.control.oauth.OAuthProvider.ClientAuthMethod;

class OAuthProvidersTest {

    private static OAuthProvider provider(String secret, ClientAuthMethod method) {
        return new OAuthProvider("acme", "c", Optional.ofNullable(secret), Optional.of("https://id.example"),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), OAuthProvider.DEFAULT_SCOPE,
                "https://atrium.example/auth/acme/callback", Optional.ofNullable(method));
    }

    private static Optional<JsonObject> methods(String... supported) {
        var list = Json.createArrayBuilder();
        for (String s : supported) {
            list.add(s);
        }
        return Optional.of(Json.createObjectBuilder().add("token_endpoint_auth_methods_supported", list).build());
    }

    @Test
    void whenChoosingClientAuthenticationThenConfigurationThenSecretThenDiscovery() {
        assertThat(OAuthProviders.authMethod(provider("s", ClientAuthMethod.CLIENT_SECRET_POST), methods()))
                .isEqualTo(ClientAuthMethod.CLIENT_SECRET_POST);
        assertThat(OAuthProviders.authMethod(provider(null, null), methods("client_secret_basic")))
                .isEqualTo(ClientAuthMethod.NONE);
        assertThat(OAuthProviders.authMethod(provider("s", null), Optional.empty()))
                .isEqualTo(ClientAuthMethod.CLIENT_SECRET_BASIC);
        assertThat(OAuthProviders.authMethod(provider("s", null), methods("private_key_jwt", "client_secret_post")))
                .isEqualTo(ClientAuthMethod.CLIENT_SECRET_POST);
        assertThat(OAuthProviders.authMethod(provider("s", null), methods("client_secret_post", "client_secret_basic")))
                .isEqualTo(ClientAuthMethod.CLIENT_SECRET_BASIC);
    }

    @Test
    void whenTheProviderAnnouncesAlgorithmsThenOnlyAsymmetricOnesAreAccepted() {
        var doc = Json.createObjectBuilder().add("id_token_signing_alg_values_supported",
                Json.createArrayBuilder().add("none").add("HS256").add("ES256").add("RS256")).build();

        assertThat(OAuthProviders.algorithms(Optional.of(doc))).containsExactlyInAnyOrder(JWSAlgorithm.ES256,
                JWSAlgorithm.RS256);
        assertThat(OAuthProviders.algorithms(Optional.empty())).containsExactly(JWSAlgorithm.RS256);
        var onlySymmetric = Json.createObjectBuilder().add("id_token_signing_alg_values_supported",
                Json.createArrayBuilder().add("HS256")).build();
        assertThat(OAuthProviders.algorithms(Optional.of(onlySymmetric))).containsExactly(JWSAlgorithm.RS256);
    }
}
