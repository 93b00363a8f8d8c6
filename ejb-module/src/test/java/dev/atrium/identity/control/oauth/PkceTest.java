package dev.atrium.identity.control.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PkceTest {

    @Test
    void whenTheVerifierOfRfc7636AppendixBThenItsS256ChallengeIsTheRfcs() {
        assertThat(Pkce.challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
                .isEqualTo("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    @Test
    void whenVerifiersAreMadeThenTheyAreUnreservedCharactersOfAllowedLengthAndDiffer() {
        String one = Pkce.newVerifier();
        String two = Pkce.newVerifier();

        // RFC 7636 4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"
        assertThat(one).matches("[A-Za-z0-9._~-]{43,128}");
        assertThat(two).isNotEqualTo(one);
        assertThat(Pkce.challenge(one)).matches("[A-Za-z0-9_-]{43}").isNotEqualTo(Pkce.challenge(two));
    }
}
