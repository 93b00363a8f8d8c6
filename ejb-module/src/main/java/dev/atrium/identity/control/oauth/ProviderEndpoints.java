package dev.atrium.identity.control.oauth;

import java.util.Optional;
import java.util.Set;

import com.nimbusds.jose.JWSAlgorithm;

/**
 * A provider's endpoints as the flow uses them: configured ones, else those of the discovery document. {@code issuer}
 * is what ID tokens must name; {@code idTokenAlgorithms} the signature algorithms accepted for them.
 */
public record ProviderEndpoints(Optional<String> issuer, String authorizationEndpoint, String tokenEndpoint,
                                Optional<String> userinfoEndpoint, Optional<String> jwksUri,
                                OAuthProvider.ClientAuthMethod clientAuthMethod, Set<JWSAlgorithm> idTokenAlgorithms) {

    public ProviderEndpoints {
        idTokenAlgorithms = Set.copyOf(idTokenAlgorithms);
    }
}
