package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.JwksVerificationKeyResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Single sign-on: RS256 tokens checked by an independent JWT library against the published JWKS, the ticket flow,
 * key rotation, and the usual attacks on tokens.
 */
@ExtendWith(AtriumServer.class)
class SsoIT {

    private static Reply ssoLogin(Accounts.Account user, String redirect) {
        return Api.anonymous().post("/sso/login", Map.of("email", user.email(), "password", Accounts.PASSWORD,
                "redirect_url", redirect));
    }

    private static JsonWebKeySet jwks() throws Exception {
        var reply = Api.anonymous().get("/.well-known/jwks.json");
        assertThat(reply.status()).isEqualTo(200);
        return new JsonWebKeySet(reply.body());
    }

    /** What a subsystem does: verify signature (RS256 only), issuer and expiry against the JWKS. */
    private static org.jose4j.jwt.JwtClaims verifyAsSubsystem(String token) throws Exception {
        return new JwtConsumerBuilder()
                .setRequireExpirationTime()
                .setExpectedIssuer(AtriumServer.get().baseUrl())
                .setVerificationKeyResolver(new JwksVerificationKeyResolver(jwks().getJsonWebKeys()))
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, "RS256")
                .build().processToClaims(token);
    }

    @Test
    void whenLoggingInForSsoThenAnRs256TokenThatAnIndependentLibraryVerifiesWithTheJwks() throws Exception {
        var user = Accounts.verified("sso");
        var reply = ssoLogin(user, AtriumServer.SSO_REDIRECT);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        String token = reply.json().get("token").asText();
        assertThat(reply.json().get("redirect").asText()).isEqualTo(AtriumServer.SSO_REDIRECT + "?token=" + token);

        var header = IdentityIT.part(token, 0);
        assertThat(header.get("alg").asText()).isEqualTo("RS256");
        assertThat(header.get("kid").asText()).startsWith("rs-");
        var claims = verifyAsSubsystem(token);
        assertThat(claims.getSubject()).isEqualTo(Long.toString(user.id()));
        assertThat(claims.getStringClaimValue("role")).isEqualTo("user");
        assertThat(claims.getStringClaimValue("type")).isEqualTo("access");
        for (var key : jwks().getJsonWebKeys()) {
            assertThat(((RsaJsonWebKey) key).getPrivateKey()).as("no private parts published").isNull();
        }
        assertThat(Api.anonymous().withToken(token).get("/api/v1/users/me").status()).isEqualTo(200);
    }

    @Test
    void whenTheRedirectIsNotAllowedThenNoTokenIsIssued() {
        var user = Accounts.verified("openredirect");
        for (String evil : new String[] {"https://evil.test/", "https://portal.atrium.test.evil.test/after-login",
                "https://portal.atrium.test@evil.test/after-login", "javascript:alert(1)",
                "https://portal.atrium.test/after-login-evil"}) {
            var reply = ssoLogin(user, evil);
            assertThat(reply.status()).as(evil).isEqualTo(422);
            assertThat(reply.body()).doesNotContain("token\"");
        }
    }

    @Test
    void whenDiscoveryIsAskedThenIssuerJwksAndEndpointsAreDescribed() {
        var doc = Api.anonymous().get("/.well-known/openid-configuration").json();
        String base = AtriumServer.get().baseUrl();
        assertThat(doc.get("issuer").asText()).isEqualTo(base);
        assertThat(doc.get("jwks_uri").asText()).isEqualTo(base + "/.well-known/jwks.json");
        assertThat(doc.get("id_token_signing_alg_values_supported")).extracting(n -> n.asText()).containsExactly("RS256");
        assertThat(doc.get("sso_ticket_validation_endpoint").asText()).isEqualTo(base + "/sso/validate");
    }

    @Test
    void whenUsingTheTicketFlowThenATicketIsValidOnceForItsServiceOnly() {
        var user = Accounts.verified("ticket");
        var redirect = user.api().get("/sso/login?service=" + AtriumServer.SSO_SERVICE);
        assertThat(redirect.status()).isEqualTo(303);
        var location = URI.create(redirect.header("Location"));
        assertThat(location.toString()).startsWith(AtriumServer.SSO_SERVICE + "?ticket=ST-");
        String ticket = location.getQuery().substring("ticket=".length());

        var wrongService = Api.anonymous().get("/sso/validate?ticket=" + ticket + "&service=https://other.test/");
        assertThat(wrongService.status()).as("a ticket is consumed even by a wrong service").isEqualTo(400);

        var fresh = URI.create(user.api().get("/sso/login?service=" + AtriumServer.SSO_SERVICE).header("Location"))
                .getQuery().substring("ticket=".length());
        var valid = Api.anonymous().get("/sso/validate?ticket=" + fresh + "&service=" + AtriumServer.SSO_SERVICE);
        assertThat(valid.status()).isEqualTo(200);
        assertThat(valid.json().get("id").asLong()).isEqualTo(user.id());
        assertThat(valid.json().get("email").asText()).isEqualTo(user.email());
        assertThat(valid.json().get("username").asText()).isEqualTo(user.username());
        assertThat(valid.json().get("roles")).extracting(n -> n.asText()).containsExactly("user");
        var reused = Api.anonymous().get("/sso/validate?ticket=" + fresh + "&service=" + AtriumServer.SSO_SERVICE);
        assertThat(reused.status()).isEqualTo(400);
    }

    @Test
    void whenTheTicketFlowIsStartedWithoutLoginOrForAForeignServiceThenRefused() {
        var anonymous = Api.anonymous().get("/sso/login?service=" + AtriumServer.SSO_SERVICE);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.json().at("/error/details").asText()).contains("/sso/login");
        var user = Accounts.verified("foreign");
        assertThat(user.api().get("/sso/login?service=https://evil.test/app").status()).isEqualTo(422);
    }

    @Test
    void whenFiveMinutesPassThenTheTicketExpires() {
        var user = Accounts.verified("oldticket");
        String ticket = URI.create(user.api().get("/sso/login?service=" + AtriumServer.SSO_SERVICE)
                .header("Location")).getQuery().substring("ticket=".length());
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofMinutes(5).plusSeconds(1));
            assertThat(Api.anonymous().get("/sso/validate?ticket=" + ticket + "&service=" + AtriumServer.SSO_SERVICE)
                    .status()).isEqualTo(400);
        }
    }

    @Test
    void whenKeysRotateThenOldTokensStillVerifyAndNewOnesUseTheNewKeys() throws Exception {
        var user = Accounts.verified("rotation");
        String oldSso = ssoLogin(user, AtriumServer.SSO_REDIRECT).json().get("token").asText();
        String oldAccess = user.accessToken();
        var admin = Accounts.admin();
        var rotated = admin.api().post("/admin/keys/rotate", Map.of());
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        assertThat(rotated.json().get("rotated")).hasSize(2);
        String newRsKid = rotated.json().get("rotated").get(1).get("kid").asText();

        assertThat(jwks().getJsonWebKeys()).extracting(k -> k.getKeyId())
                .contains(IdentityIT.part(oldSso, 0).get("kid").asText(), newRsKid);
        assertThat(verifyAsSubsystem(oldSso).getSubject()).isEqualTo(Long.toString(user.id()));
        assertThat(Api.anonymous().withToken(oldSso).get("/api/v1/users/me").status()).isEqualTo(200);
        assertThat(Api.anonymous().withToken(oldAccess).get("/api/v1/users/me").status()).isEqualTo(200);

        String newSso = ssoLogin(user, AtriumServer.SSO_REDIRECT).json().get("token").asText();
        assertThat(IdentityIT.part(newSso, 0).get("kid").asText()).isEqualTo(newRsKid);
        assertThat(admin.api().get("/admin/keys").json().get("items")).filteredOn(k ->
                k.get("status").asText().equals("current")).hasSize(2);
        assertThat(admin.api().get("/admin/audit-logs?action=key_rotate&actor_id=" + admin.id()).json()
                .get("total").asLong()).isPositive();

        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofMinutes(17));
            assertThat(jwks().getJsonWebKeys()).extracting(k -> k.getKeyId())
                    .as("the old RS256 key is gone once its tokens have expired")
                    .doesNotContain(IdentityIT.part(oldSso, 0).get("kid").asText());
        }
    }

    @Test
    void whenSeveralRotationsRunAtOnceThenEachAlgorithmStillHasOneCurrentKey() throws Exception {
        var admin = Accounts.admin();
        var pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Reply>> replies = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replies.add(pool.submit((Callable<Reply>) () -> admin.api().post("/admin/keys/rotate",
                        Map.of("algorithm", "HS256"))));
            }
            for (var reply : replies) {
                assertThat(reply.get().status()).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
        var keys = admin.api().get("/admin/keys").json().get("items");
        assertThat(keys).filteredOn(k -> k.get("algorithm").asText().equals("HS256")
                && k.get("status").asText().equals("current")).hasSize(1);
        assertThat(Accounts.verified("afterrotations").api().get("/api/v1/users/me").status()).isEqualTo(200);
    }

    @Test
    void whenATokenIsForgedOrTamperedThenItIsRefused() throws Exception {
        var user = Accounts.verified("attacks");
        String sso = ssoLogin(user, AtriumServer.SSO_REDIRECT).json().get("token").asText();
        String[] parts = sso.split("\\.");
        var api = Api.anonymous();

        String elevated = b64("{\"sub\":\"" + user.id() + "\",\"role\":\"admin\",\"type\":\"access\",\"exp\":4102444800,"
                + "\"iss\":\"" + AtriumServer.get().baseUrl() + "\"}");
        assertThat(api.withToken(parts[0] + "." + elevated + "." + parts[2]).get("/api/v1/users/me").status())
                .as("tampered payload").isEqualTo(401);
        assertThat(api.withToken(b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + parts[1] + ".")
                .get("/api/v1/users/me").status()).as("alg none").isEqualTo(401);

        String kid = IdentityIT.part(sso, 0).get("kid").asText();
        var publicKey = ((RsaJsonWebKey) jwks().findJsonWebKey(kid, null, null, null)).getRsaPublicKey();
        String header = b64("{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"" + kid + "\"}");
        String signingInput = header + "." + elevated;
        for (byte[] secret : new byte[][] {publicKey.getEncoded(), pem(publicKey.getEncoded())}) {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            String confused = signingInput + "." + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
            assertThat(api.withToken(confused).get("/api/v1/users/me").status())
                    .as("HS256 keyed with the RS256 public key").isEqualTo(401);
        }
        String unknownKid = b64("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"rs-unknown\"}") + "." + parts[1] + "."
                + parts[2];
        assertThat(api.withToken(unknownKid).get("/api/v1/users/me").status()).as("unknown kid").isEqualTo(401);

        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofMinutes(16));
            assertThat(api.withToken(sso).get("/api/v1/users/me").status()).as("expired").isEqualTo(401);
        }
        try {
            verifyAsSubsystem(parts[0] + "." + elevated + "." + parts[2]);
            throw new AssertionError("the independent library accepted a tampered token");
        } catch (InvalidJwtException expected) {
            // as a subsystem would, the library refuses it too
        }
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] pem(byte[] der) {
        return ("-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(der)
                + "\n-----END PUBLIC KEY-----\n").getBytes(StandardCharsets.US_ASCII);
    }
}
