package dev.atrium.identity.control.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.config.ConfigDefaults;

/** Keys derived from the master secret: one per use, stable for the same secret, none of them the secret itself. */
class MasterSecretTest {

    private static MasterSecret master(String secret) {
        var master = new MasterSecret();
        master.config = ConfigDefaults.of(IdentityConfig.class);
        master.platformConfig = ConfigDefaults.of(PlatformConfig.class);
        master.config.jwtSecret = Optional.of(secret);
        master.platformConfig.dataDir = "target/unused";
        master.load();
        return master;
    }

    @Test
    void whenAKeyIsDerivedThenItIsA256BitKeyStableForTheSecretAndLabel() {
        var one = master("integration-tests-secret-0123456789abcdef");
        var again = master("integration-tests-secret-0123456789abcdef");

        var key = one.derivedKey("agent-secrets-v1");

        assertThat(key.getAlgorithm()).isEqualTo("AES");
        assertThat(key.getEncoded()).hasSize(32);
        assertThat(again.derivedKey("agent-secrets-v1").getEncoded()).isEqualTo(key.getEncoded());
    }

    @Test
    void whenLabelsOrSecretsDifferThenTheKeysDifferAndNoneIsTheSecret() {
        var one = master("integration-tests-secret-0123456789abcdef");
        var other = master("integration-tests-secret-0123456789abcdeF");
        byte[] key = one.derivedKey("agent-secrets-v1").getEncoded();

        assertThat(one.derivedKey("agent-secrets-v2").getEncoded()).isNotEqualTo(key);
        assertThat(one.derivedKey("").getEncoded()).isNotEqualTo(key);
        assertThat(other.derivedKey("agent-secrets-v1").getEncoded()).isNotEqualTo(key);
        assertThat(key).isNotEqualTo(java.util.Arrays.copyOf(
                "integration-tests-secret-0123456789abcdef".getBytes(StandardCharsets.UTF_8), 32));
    }
}
