package dev.atrium.marketplace.control.pii;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The spellings that hid personal data from the masking (issue 48, finding 9) and their relatives, what must survive
 * masking unchanged although it looks close, personal data as JSON keys, and long adversarial input for the
 * normaliser. Decided here: up to three layers of encoding are decoded ({@code %252540}), a fourth is not; named
 * references are read in any case ({@code &COMMAT;}); full-width digits and separators count.
 */
class PersonalDataSpellingsTest {

    static Stream<Arguments> hostile() {
        return Stream.of(
                Arguments.of("email", "john%40example.com"),
                Arguments.of("email", "john%2540example.com"),
                Arguments.of("email", "john%252540example.com"),
                Arguments.of("email", "john&#64;example.com"),
                Arguments.of("email", "john&#064;example.com"),
                Arguments.of("email", "john&#x40;example.com"),
                Arguments.of("email", "john&#X40;example.com"),
                Arguments.of("email", "john&commat;example.com"),
                Arguments.of("email", "john&COMMAT;example.com"),
                Arguments.of("email", "john&CoMmAt;example.com"),
                Arguments.of("email", "john&amp;#64;example.com"),
                Arguments.of("email", "john%26%2364%3Bexample.com"),
                Arguments.of("email", "john&#65312;example.com"),
                Arguments.of("email", "john%2Edoe%40example%2Ecom"),
                Arguments.of("email", "john&period;doe&#64;example&#46;com"),
                Arguments.of("email", "john @ example.com"),
                Arguments.of("email", "john   @   example.com"),
                Arguments.of("email", "john\u00A0@\u00A0example.com"),
                Arguments.of("email", "john%20@%20example.com"),
                Arguments.of("email", "\"john doe\"@example.com"),
                Arguments.of("email", "\"john.doe\"@example.com"),
                Arguments.of("email", "\\\"john doe\\\"@example.com"),
                Arguments.of("email", "&quot;john doe&quot;@example.com"),
                Arguments.of("email", "\"john doe\" @ example.com"),
                Arguments.of("card", "4111.1111.1111.1111"),
                Arguments.of("card", "4111_1111_1111_1111"),
                Arguments.of("card", "4111/1111/1111/1111"),
                Arguments.of("card", "4111  1111  1111  1111"),
                Arguments.of("card", "4111 1111  1111   1111"),
                Arguments.of("card", "4111\t\t1111\t\t1111\t\t1111"),
                Arguments.of("card", "4111-1111.1111/1111"),
                Arguments.of("card", "3782.822463.10005"),
                Arguments.of("card", "5555_5555_5555_4444"),
                Arguments.of("card", "4111%201111%201111%201111"),
                Arguments.of("card", "4111%2E1111%2e1111%2E1111"),
                Arguments.of("card", "4111&#32;1111&nbsp;1111&#x20;1111"),
                Arguments.of("card", "4111&period;1111&period;1111&period;1111"),
                Arguments.of("card", "&#52;111111111111111"),
                Arguments.of("card", "%34111111111111111"),
                Arguments.of("card", "4111\uFF0E1111\uFF0E1111\uFF0E1111"),
                Arguments.of("card", "\uFF14\uFF11\uFF11\uFF11\uFF0D\uFF11\uFF11\uFF11\uFF11\uFF0D\uFF11\uFF11\uFF11"
                        + "\uFF11\uFF0D\uFF11\uFF11\uFF11\uFF11"),
                Arguments.of("card", "4111\u3000\u30001111\u3000\u30001111\u3000\u30001111"),
                Arguments.of("iban", "DE89-3704-0044-0532-0130-00"),
                Arguments.of("iban", "DE89.3704.0044.0532.0130.00"),
                Arguments.of("iban", "DE89_3704_0044_0532_0130_00"),
                Arguments.of("iban", "DE89/3704/0044/0532/0130/00"),
                Arguments.of("iban", "DE89  3704  0044  0532  0130  00"),
                Arguments.of("iban", "gb82-west-1234-5698-7654-32"),
                Arguments.of("iban", "de89%203704%200044%200532%200130%2000"),
                Arguments.of("iban", "DE89&#45;3704&#45;0044&#45;0532&#45;0130&#45;00"),
                Arguments.of("phone", "+1/415/555/2671"),
                Arguments.of("phone", "+1 415 555 2671x5"),
                Arguments.of("phone", "+1 415 555 2671X5"),
                Arguments.of("phone", "+1 415 555 2671 x5"),
                Arguments.of("phone", "+1 415 555 2671 ext. 123"),
                Arguments.of("phone", "+1 415 555 2671 ext 123"),
                Arguments.of("phone", "+1 415 555 2671 Ext:42"),
                Arguments.of("phone", "+1 415 555 2671#12"),
                Arguments.of("phone", "(415) 555-2671 x123"),
                Arguments.of("phone", "415-555-2671x5"),
                Arguments.of("phone", "415/555/2671"),
                Arguments.of("phone", "+1 415  555  2671"),
                Arguments.of("phone", "+44%2020%207946%200958"),
                Arguments.of("phone", "%2B44 20 7946 0958"),
                Arguments.of("phone", "&#43;44 20 7946 0958"),
                Arguments.of("phone", "&plus;44 20 7946 0958"),
                Arguments.of("phone", "+44&nbsp;20&nbsp;7946&nbsp;0958"),
                Arguments.of("phone", "\uFF0B44 20 7946 0958"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("hostile")
    void whenPersonalDataIsSpelledToHideThenItIsMaskedInItsOriginalSpelling(String kind, String value) {
        for (String text : List.of(value, "see " + value + ".", "(" + value + ")", "a: " + value + ", b",
                value + "\n" + value, "[" + value + "]")) {
            var masking = PersonalData.mask(Json.createValue(text));
            String masked = ((JsonString) masking.value()).getString();
            assertThat(masking.kinds()).as(text).containsExactly(kind);
            assertThat(masked).as(text).contains("[" + kind + "]").doesNotContain(value);
            assertThat(PersonalData.find(masking.value())).as(masked).isEmpty();
            assertThat(PersonalData.maskText(text).text()).isEqualTo(masked);
            assertThat(PersonalData.maskText(masked).text()).as(masked).isEqualTo(masked);
        }
        assertThat(PersonalData.maskText(value).text()).isEqualTo("[" + kind + "]");
    }

    @Test
    void whenEncodedFourLayersDeepThenTheEncodingIsNotDecoded() {
        assertThat(PersonalData.maskText("john%25252540example.com").kinds()).isEmpty();
        assertThat(PersonalData.maskText("john%252540example.com").kinds()).containsExactly("email");
    }

    @Test
    void whenOnlyPartOfATextIsEncodedThenTheRestKeepsItsSpelling() {
        assertThat(PersonalData.maskText("a%20b: john%40example.com &amp; 50%25 off").text())
                .isEqualTo("a%20b: [email] &amp; 50%25 off");
        assertThat(PersonalData.maskText("<a href=\"mailto:john%40example.com\">write</a>").text())
                .isEqualTo("<a href=\"mailto:[email]\">write</a>");
    }

    @Test
    void whenAPhoneIsHyphenatedToAWordThenOnlyAHexadecimalWordMakesItAnIdentifier() {
        assertThat(PersonalData.maskText("Mobile-0151 12345678").text()).isEqualTo("Mobile-[phone]");
        assertThat(PersonalData.maskText("415-555-2671-home").text()).isEqualTo("[phone]-home");
        assertThat(PersonalData.maskText("415-555-2671-beef").kinds()).isEmpty();
    }

    static Stream<Arguments> lookalikes() {
        return Stream.of(
                Arguments.of("version", "1.2.3.4"),
                Arguments.of("semver", "1.2.3-beta.4+build.5678"),
                Arguments.of("slashed ISO date", "2024/01/15"),
                Arguments.of("slashed European date", "15/01/2024"),
                Arguments.of("dotted date", "2024.01.15"),
                Arguments.of("underscored date", "2024_01_15"),
                Arguments.of("date and time", "2024/01/15 10:30"),
                Arguments.of("ISO timestamp", "2024-01-15T10:30:00.123+01:00"),
                Arguments.of("ISO timestamp with space", "2024-01-15 10:30:00"),
                Arguments.of("basic ISO timestamp", "20240115T103000Z"),
                Arguments.of("UUID", "550e8400-e29b-41d4-a716-446655440000"),
                Arguments.of("UUID of digits", "12345678-1234-1234-1234-123456789012"),
                Arguments.of("UUID with a national-number middle", "a456e89b-0123-4567-8901-abcdef012345"),
                Arguments.of("UUID with a card middle", "e89bcdef-4111-1111-1111-1111abcdef01"),
                Arguments.of("price", "$1,234.56"),
                Arguments.of("European price", "1.234.567,89 €"),
                Arguments.of("spaced price", "1 234 567.89 EUR"),
                Arguments.of("price list", "4.99 / 14.99 / 49.99"),
                Arguments.of("percent", "50% off, 100%25 sure"),
                Arguments.of("percent escapes of letters", "%41%42%43"),
                Arguments.of("URL", "https://example.com/search?q=a%20b&page=2"),
                Arguments.of("entities", "Tom &amp; Jerry &lt;b&gt; &copy; 2024 &#65;"),
                Arguments.of("at with no domain", "x @ y"),
                Arguments.of("meeting time", "meet @ 10.30"),
                Arguments.of("unit price", "5 @ 3.50 each"),
                Arguments.of("mention", "thanks @john.doe"),
                Arguments.of("mention after a word", "cc: alice @bob.smith"),
                Arguments.of("quoted without a domain", "\"john doe\"@localhost"),
                Arguments.of("quote then at", "said \"\"@example.com"),
                Arguments.of("resolution", "1920x1080"),
                Arguments.of("hex number", "0x4111111111111111"),
                Arguments.of("path of numbers", "/v1/agents/12/runs/34"),
                Arguments.of("path with a year", "/archive/2024/01/15/report"),
                Arguments.of("IP and port", "10.0.0.1:8080"),
                Arguments.of("coordinates", "48.8566, 2.3522"),
                Arguments.of("order id", "ORD_2024_0001"),
                Arguments.of("ticket", "item #12345"),
                Arguments.of("short groups", "12_34_56"),
                Arguments.of("underscored identifier", "run_4111_1111_1111_1111"),
                Arguments.of("underscored suffix", "4111_1111_1111_1111_old"),
                Arguments.of("IBAN badly hyphenated", "DE-89370400440532013000"),
                Arguments.of("IBAN mixed grouping", "DE89-3704 00440532013000"),
                Arguments.of("dotted Luhn failure", "4111.1111.1111.1112"),
                Arguments.of("slashed no network", "1234/5678/9012/3452"),
                Arguments.of("too long extension", "1920x1080x720"),
                Arguments.of("full-width version", "\uFF11\uFF0E\uFF12\uFF0E\uFF13"),
                Arguments.of("lone encoded at", "%40 &#64; &commat;"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("lookalikes")
    void whenTextOnlyLooksLikePersonalDataThenItIsKept(String name, String text) {
        var masking = PersonalData.mask(Json.createValue(text));
        assertThat(((JsonString) masking.value()).getString()).isEqualTo(text);
        assertThat(masking.kinds()).isEmpty();
        assertThat(PersonalData.maskText(text).text()).isEqualTo(text);
    }

    @Test
    void whenKeysCarryPersonalDataThenEachBecomesAUniqueMaskAndOtherKeysKeepTheirNames() {
        JsonObject input = Json.createObjectBuilder()
                .add("bob@example.com", 1)
                .add("text", "hello")
                .add("alice%40example.org", 2)
                .add("[email]", "a key that is a mask already")
                .add("[email]#2", "and another")
                .add("+44 20 7946 0958", Json.createObjectBuilder().add("4111.1111.1111.1111", true))
                .add("phone_number", "n/a")
                .add("email", "")
                .add("2024-01-15", "a date")
                .add("card_4111111111111111", "an identifier")
                .build();

        var masking = PersonalData.mask(input);

        JsonObject masked = masking.value().asJsonObject();
        assertThat(masked.keySet()).containsExactly("[email]#3", "text", "[email]#4", "[email]", "[email]#2",
                "[phone]", "phone_number", "email", "2024-01-15", "card_4111111111111111");
        assertThat(masked.getInt("[email]#3")).isEqualTo(1);
        assertThat(masked.getInt("[email]#4")).isEqualTo(2);
        assertThat(masked.getJsonObject("[phone]").keySet()).containsExactly("[card]");
        assertThat(masking.kinds()).containsExactly("email", "phone", "card");
        assertThat(PersonalData.find(masked)).isEmpty();
        assertThat(PersonalData.mask(masked).value()).isEqualTo(masked);
    }

    @Test
    void whenOnlySchemaPropertiesAreKeysThenTheObjectIsUnchanged() {
        JsonObject input = Json.createObjectBuilder().add("text", "hello").add("count", 3)
                .add("user_email", "none").add("iban_country", "DE").add("v1.2.3.4", 1).build();
        var masking = PersonalData.mask(input);
        assertThat(masking.value()).isEqualTo(input);
        assertThat(masking.kinds()).isEmpty();
    }

    static Stream<Arguments> adversarial() {
        int mb = 1 << 20;
        return Stream.of(
                Arguments.of("percent signs", "%".repeat(mb)),
                Arguments.of("escaped percent signs", "%25".repeat(mb / 3)),
                Arguments.of("double-encoded at signs", "%2540".repeat(mb / 5)),
                Arguments.of("almost escapes", "%4".repeat(mb / 2)),
                Arguments.of("ampersands", "&".repeat(mb)),
                Arguments.of("reference starts", "&#".repeat(mb / 2)),
                Arguments.of("long references", "&#00000000000".repeat(mb / 13)),
                Arguments.of("named references", "&amp;".repeat(mb / 5)),
                Arguments.of("unknown names", "&abcdefghij".repeat(mb / 11)),
                Arguments.of("encoded e-mails", "a&#64;b.co ".repeat(mb / 11)),
                Arguments.of("spaced at signs", " @ ".repeat(mb / 3)),
                Arguments.of("spaced e-mails", "a @ b ".repeat(mb / 6)),
                Arguments.of("quotes", "\"".repeat(mb - 1) + "@"),
                Arguments.of("quoted local parts", "\"a\"@".repeat(mb / 4)),
                Arguments.of("long quoted local part", "\"" + "a ".repeat(mb / 2) + "\"@example.com"),
                Arguments.of("escaped quotes", "\\\"".repeat(mb / 2) + "@x.io"),
                Arguments.of("dotted groups", "4111.".repeat(mb / 5)),
                Arguments.of("underscored groups", "4111_".repeat(mb / 5)),
                Arguments.of("slashed groups", "+1/".repeat(mb / 3)),
                Arguments.of("extensions", "1x".repeat(mb / 2)),
                Arguments.of("spaced extensions", "415-555-2671 x1 ".repeat(mb / 16)),
                Arguments.of("extension words", "1 ext".repeat(mb / 5)),
                Arguments.of("hyphenated IBAN starts", "DE89-".repeat(mb / 5)),
                Arguments.of("spaces", " ".repeat(mb)),
                Arguments.of("double spaces and digits", "1  ".repeat(mb / 3)),
                Arguments.of("full-width dots", "\uFF0E".repeat(mb)),
                Arguments.of("percent-encoded cards", "4111%201111%201111%201111 ".repeat(mb / 26)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("adversarial")
    void whenAMegabyteOfAdversarialEncodingIsMaskedThenItFinishes(String name, String text) {
        var masking = PersonalData.maskText(text);
        assertThat(masking.text()).isNotNull();
        assertThat(PersonalData.maskText(masking.text()).text()).isEqualTo(masking.text());
    }
}
