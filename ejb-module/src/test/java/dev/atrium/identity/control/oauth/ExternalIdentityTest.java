package dev.atrium.identity.control.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import jakarta.json.Json;

import org.junit.jupiter.api.Test;

import dev.atrium.identity.entity.EmailAddress;

class ExternalIdentityTest {

    @Test
    void whenUserinfoOfAPlainOAuthProviderThenNumericIdAndLoginAreUsed() {
        var identity = ExternalIdentity.of(Json.createObjectBuilder().add("id", 583231).add("login", "octocat")
                .add("email", "octo@example.com").build());

        assertThat(identity.subject()).isEqualTo("583231");
        assertThat(identity.preferredUsername()).contains("octocat");
        assertThat(identity.emailVerified()).isFalse();
    }

    @Test
    void whenEmailVerifiedIsTrueOrTheTextTrueThenVerified() {
        assertThat(ExternalIdentity.of(Map.of("sub", "1", "email_verified", true)).emailVerified()).isTrue();
        assertThat(ExternalIdentity.of(Map.of("sub", "1", "email_verified", "true")).emailVerified()).isTrue();
        assertThat(ExternalIdentity.of(Map.of("sub", "1", "email_verified", "yes")).emailVerified()).isFalse();
        assertThat(ExternalIdentity.of(Json.createObjectBuilder().add("sub", "1").add("email_verified", true).build())
                .emailVerified()).isTrue();
    }

    @Test
    void whenTheIdTokenLacksTheEmailThenUserinfoCompletesItWithItsVerification() {
        var token = ExternalIdentity.of(Map.of("sub", "1", "name", "Jane"));
        var userinfo = ExternalIdentity.of(Map.of("sub", "1", "email", "jane@example.com", "email_verified", true,
                "name", "Other"));

        var identity = token.completedBy(userinfo);

        assertThat(identity.email()).contains("jane@example.com");
        assertThat(identity.emailVerified()).isTrue();
        assertThat(identity.name()).contains("Jane");
    }

    @Test
    void whenNamingANewUserThenPreferredUsernameThenNameThenTheAddressLocalPart() {
        var address = EmailAddress.of("jane.doe@example.com");

        assertThat(ExternalLoginService.username(ExternalIdentity.of(Map.of("sub", "1", "preferred_username", "jd",
                "name", "Jane Doe")), address)).isEqualTo("jd");
        assertThat(ExternalLoginService.username(ExternalIdentity.of(Map.of("sub", "1", "name", "Jane Doe")),
                address)).isEqualTo("Jane Doe");
        assertThat(ExternalLoginService.username(ExternalIdentity.of(Map.of("sub", "1")), address))
                .isEqualTo("jane.doe");
        assertThat(ExternalLoginService.username(ExternalIdentity.of(Map.of("sub", "1", "name", "x".repeat(80))),
                address)).hasSize(50);
    }
}
