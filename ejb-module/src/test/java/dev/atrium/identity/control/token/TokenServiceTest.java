package dev.atrium.identity.control.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.token.InvalidTokenException.Reason;
import dev.atrium.platform.BaseUrl;
import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.time.MovableClock;

class TokenServiceTest {

    private static final String SECRET = "unit-test-secret-0123456789abcdefghij";
    private final MovableClock clock = new MovableClock(Clock.fixed(Instant.parse("2026-11-22T10:00:00Z"),
            ZoneOffset.UTC));
    private TokenService tokens;

    private KeyRing ring;

    @BeforeEach
    void setUp() {
        var master = new MasterSecret();
        master.config = ConfigDefaults.of(IdentityConfig.class);
        master.platformConfig = ConfigDefaults.of(PlatformConfig.class);
        master.config.jwtSecret = Optional.of(SECRET);
        master.platformConfig.dataDir = "target/unused";
        master.load();
        ring = new KeyRing();
        ring.config = ConfigDefaults.of(IdentityConfig.class);
        ring.store = new InMemoryKeyRingStore();
        ring.master = master;
        ring.clock = clock;
        ring.config.tokensAccessTtlSeconds = 900;
        ring.config.tokensRefreshTtlSeconds = 604800;
        ring.config.tokensVerifyTtlSeconds = 86400;
        ring.bootstrap();
        tokens = new TokenService();
        tokens.config = ConfigDefaults.of(IdentityConfig.class);
        tokens.keys = ring;
        tokens.clock = clock;
        tokens.config.tokensAccessTtlSeconds = 900;
        tokens.config.tokensRefreshTtlSeconds = 604800;
        tokens.config.tokensVerifyTtlSeconds = 86400;
        tokens.baseUrl = BaseUrl.of("http://localhost:8080");
    }

    @Test
    void whenAnAccessTokenIsIssuedThenItVerifiesWithItsClaims() throws Exception {
        String token = tokens.issue(TokenType.ACCESS, 42, "user");
        var verified = tokens.verify(token, TokenType.ACCESS);
        assertThat(verified.userId()).isEqualTo(42);
        assertThat(verified.role()).isEqualTo("user");
        assertThat(verified.expiresAt()).isEqualTo(clock.instant().plusSeconds(900));
        var jwt = SignedJWT.parse(token);
        assertThat(jwt.getHeader().getKeyID()).startsWith("hs-");
        assertThat(jwt.getJWTClaimsSet().getSubject()).isEqualTo("42");
        assertThat(jwt.getJWTClaimsSet().getClaim("type")).isEqualTo("access");
    }

    @Test
    void whenTheLifetimeHasPassedThenExpired() {
        String token = tokens.issue(TokenType.EMAIL_VERIFY, 1, "user");
        clock.advance(Duration.ofHours(24));
        assertThatThrownBy(() -> tokens.verify(token, TokenType.EMAIL_VERIFY))
                .isInstanceOfSatisfying(InvalidTokenException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.EXPIRED));
    }

    @Test
    void whenOneSecondBeforeExpiryThenStillValid() throws Exception {
        String token = tokens.issue(TokenType.REFRESH, 1, "user");
        clock.advance(Duration.ofDays(7).minusSeconds(1));
        assertThat(tokens.verify(token, TokenType.REFRESH).userId()).isEqualTo(1);
    }

    @Test
    void whenTheTypeDiffersThenRejected() {
        String refresh = tokens.issue(TokenType.REFRESH, 1, "user");
        assertThatThrownBy(() -> tokens.verify(refresh, TokenType.ACCESS))
                .isInstanceOfSatisfying(InvalidTokenException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.WRONG_TYPE));
    }

    @Test
    void whenThePayloadIsTamperedThenTheSignatureFails() {
        String[] parts = tokens.issue(TokenType.ACCESS, 1, "user").split("\\.");
        String payload = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"sub\":\"1\",\"role\":\"admin\",\"type\":\"access\",\"exp\":4102444800}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> tokens.verify(parts[0] + "." + payload + "." + parts[2], TokenType.ACCESS))
                .isInstanceOfSatisfying(InvalidTokenException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.SIGNATURE));
    }

    @Test
    void whenAlgorithmIsNoneThenRejected() {
        String[] parts = tokens.issue(TokenType.ACCESS, 1, "user").split("\\.");
        String header = Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> tokens.verify(header + "." + parts[1] + ".", TokenType.ACCESS))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void whenSignedWithAnotherKeyOrUnknownKidThenRejected() throws Exception {
        var claims = new JWTClaimsSet.Builder().subject("1").claim("type", "access")
                .expirationTime(java.util.Date.from(clock.instant().plusSeconds(60))).build();
        var jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("hs-unknown").build(), claims);
        jwt.sign(new MACSigner("another-secret-0123456789abcdefghijkl".getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> tokens.verify(jwt.serialize(), TokenType.ACCESS))
                .isInstanceOfSatisfying(InvalidTokenException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.UNKNOWN_KEY));
    }

    @Test
    void whenGarbageThenMalformed() {
        assertThatThrownBy(() -> tokens.verify("not.a.token", TokenType.ACCESS))
                .isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> tokens.verify("", TokenType.ACCESS)).isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void whenTheSecretIsShorterThan32BytesThenTheMasterSecretRefusesToStart() {
        var master = new MasterSecret();
        master.config = ConfigDefaults.of(IdentityConfig.class);
        master.platformConfig = ConfigDefaults.of(PlatformConfig.class);
        master.config.jwtSecret = Optional.of("too-short");
        master.platformConfig.dataDir = "target/unused";
        assertThatThrownBy(master::load).isInstanceOf(IllegalStateException.class).hasMessageContaining("32");
    }

    @Test
    void whenKeysRotateThenOldTokensVerifyUntilTheyExpireAndNewOnesUseTheNewKid() throws Exception {
        String before = tokens.issue(TokenType.REFRESH, 5, "user");
        String oldKid = SignedJWT.parse(before).getHeader().getKeyID();
        String newKid = ring.rotate(KeyRing.HS256);
        assertThat(newKid).isNotEqualTo(oldKid);
        String after = tokens.issue(TokenType.REFRESH, 5, "user");
        assertThat(SignedJWT.parse(after).getHeader().getKeyID()).isEqualTo(newKid);
        assertThat(tokens.verify(before, TokenType.REFRESH).userId()).isEqualTo(5);

        clock.advance(Duration.ofDays(7).plusMinutes(2));
        ring.rotateIfOlderThan(KeyRing.HS256, Duration.ofDays(365));
        assertThat(ring.keys()).extracting(k -> k.kid()).doesNotContain(oldKid);
    }

    @Test
    void whenAnSsoTokenIsIssuedThenItVerifiesWithThePublicJwksOnlyAsRs256() throws Exception {
        String sso = tokens.issueSso(9, "admin", java.util.List.of("admin", "user"));
        var jwt = SignedJWT.parse(sso);
        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        // what MicroProfile JWT requires of a token (iss, sub, exp, iat, jti) and the roles it maps from groups
        var claims = jwt.getJWTClaimsSet();
        assertThat(claims.getIssuer()).isNotBlank();
        assertThat(claims.getSubject()).isEqualTo("9");
        assertThat(claims.getExpirationTime()).isNotNull();
        assertThat(claims.getIssueTime()).isNotNull();
        assertThat(claims.getJWTID()).isNotBlank();
        assertThat(claims.getStringListClaim("groups")).containsExactly("admin", "user");
        var publicKey = ring.publicJwks().getKeyByKeyId(jwt.getHeader().getKeyID()).toRSAKey();
        assertThat(publicKey.isPrivate()).isFalse();
        assertThat(jwt.verify(new com.nimbusds.jose.crypto.RSASSAVerifier(publicKey))).isTrue();
        assertThat(tokens.verify(sso, TokenType.ACCESS, true).role()).isEqualTo("admin");
        assertThatThrownBy(() -> tokens.verify(sso, TokenType.ACCESS, false))
                .isInstanceOfSatisfying(InvalidTokenException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.ALGORITHM));
    }

    @Test
    void whenAnHs256TokenIsSignedWithTheRsaPublicKeyThenItIsRejected() throws Exception {
        var rsa = ring.publicJwks().getKeys().get(0).toRSAKey();
        var claims = new JWTClaimsSet.Builder().subject("1").claim("type", "access").claim("role", "admin")
                .expirationTime(java.util.Date.from(clock.instant().plusSeconds(60))).build();
        var forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(rsa.getKeyID()).build(), claims);
        forged.sign(new MACSigner(rsa.toRSAPublicKey().getEncoded()));
        assertThatThrownBy(() -> tokens.verify(forged.serialize(), TokenType.ACCESS, true))
                .isInstanceOfSatisfying(InvalidTokenException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.UNKNOWN_KEY));
    }
}
