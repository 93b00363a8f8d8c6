package dev.atrium.identity.control.token;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.platform.BaseUrl;
import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.time.MovableClock;

/** A token service on an in-memory key ring, and a signer for tokens with any header and claims, for tests. */
public final class TokenFixture {

    static final String SECRET = "unit-test-secret-0123456789abcdefghij";

    public final MovableClock clock = new MovableClock(Clock.fixed(Instant.parse("2026-11-22T10:00:00Z"), ZoneOffset.UTC));
    public final KeyRing ring = new KeyRing();
    public final InMemoryKeyRingStore store = new InMemoryKeyRingStore();
    public final TokenService tokens = new TokenService();

    public TokenFixture() {
        var master = new MasterSecret();
        master.config = ConfigDefaults.of(IdentityConfig.class);
        master.platformConfig = ConfigDefaults.of(PlatformConfig.class);
        master.config.jwtSecret = Optional.of(SECRET);
        master.platformConfig.dataDir = "target/unused";
        master.load();
        ring.store = store;
        ring.config = ConfigDefaults.of(IdentityConfig.class);
        ring.master = master;
        ring.clock = clock;
        ring.config.tokensAccessTtlSeconds = 900;
        ring.config.tokensRefreshTtlSeconds = 604800;
        ring.config.tokensVerifyTtlSeconds = 86400;
        ring.bootstrap();
        tokens.keys = ring;
        tokens.config = ConfigDefaults.of(IdentityConfig.class);
        tokens.clock = clock;
        tokens.config.tokensAccessTtlSeconds = 900;
        tokens.config.tokensRefreshTtlSeconds = 604800;
        tokens.config.tokensVerifyTtlSeconds = 86400;
        tokens.baseUrl = BaseUrl.of("http://localhost:8080");
    }

    String kid() {
        return ring.currentHmac().kid();
    }

    long inSeconds(long seconds) {
        return clock.instant().getEpochSecond() + seconds;
    }

    /** The header and claims exactly as given, signed HS256 with our current key. */
    String signed(String header, String claims) {
        return signed(header, claims, ring.currentHmac().secret());
    }

    static String signed(String header, String claims, byte[] secret) {
        return signedInput(b64(header) + "." + b64(claims), secret);
    }

    /** Encoded header and claims as given, with their HS256 signature appended. */
    static String signedInput(String input, byte[] secret) {
        try {
            var mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return input + "." + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    /**
     * Every other spelling of a base64url segment that decodes to the same bytes (its last character with unused bits
     * set); none when the segment's length leaves no unused bits.
     */
    static List<String> respellings(String segment) {
        int rest = segment.length() % 4;
        if (rest < 2) {
            return List.of();
        }
        int unused = rest == 2 ? 0x0F : 0x03;
        String head = segment.substring(0, segment.length() - 1);
        int last = ALPHABET.indexOf(segment.charAt(segment.length() - 1));
        var out = new ArrayList<String>();
        for (int bits = 1; bits <= unused; bits++) {
            out.add(head + ALPHABET.charAt(last & ~unused | bits));
        }
        return out;
    }
}
