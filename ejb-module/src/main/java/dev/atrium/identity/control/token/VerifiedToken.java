package dev.atrium.identity.control.token;

import java.time.Instant;

/** The claims of a token whose algorithm, key ({@code keyId}), signature, expiry and type were checked. */
public record VerifiedToken(long userId, String role, TokenType type, String tokenId, Instant issuedAt,
                            Instant expiresAt, String algorithm, String keyId, String raw) {
}
