package dev.atrium.marketplace.control.pii;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;


/**
 * Finds and masks personal data (e-mail addresses, phone numbers, payment card numbers, IBANs) in the JSON an
 * agent is given and in the text it logs. The text is first normalised (percent escapes and HTML character
 * references that give digits, {@code @} or separators are decoded, up to three layers; full-width separators, runs
 * of spaces and the spaces around an {@code @} are evened out), then each kind has its own detector, a hand-written
 * left-to-right scanner whose look-around is bounded by a constant, so the work is linear in the input whatever the
 * input is: no regular expression can backtrack here. What is found is replaced in the original spelling. The rules
 * are in the package {@code pii} (docs/decisions/marketplace.md repeats them).
 *
 * <p>In JSON, strings anywhere are masked, and so are object keys: a key carrying personal data becomes its mask
 * ({@code [email]}), made unique with {@code #2}, {@code #3}, … when another key already has that name; a key
 * without personal data (the input schema's property names) is never changed. An integral JSON number that is a card
 * number becomes the string {@code "[card]"} (the personal data matters more than the type).
 */
public final class PersonalData {

    /** A masked JSON value and the distinct kinds that were masked (email, phone, card, iban; that order). */
    public record Masking(JsonValue value, List<String> kinds) {
        public Masking {
            kinds = List.copyOf(kinds);
        }
    }

    /** A masked text and the distinct kinds that were masked. */
    public record TextMasking(String text, List<String> kinds) {
        public TextMasking {
            kinds = List.copyOf(kinds);
        }
    }

    private PersonalData() {
    }

    /** Masks personal data inside every string and key (and card numbers written as JSON numbers). */
    public static Masking mask(JsonValue value) {
        EnumSet<Kind> found = EnumSet.noneOf(Kind.class);
        JsonValue masked = maskValue(value, found);
        return new Masking(masked, labels(found));
    }

    /** The kinds of personal data in the value, keys included, without changing anything. */
    public static List<String> find(JsonValue value) {
        return mask(value).kinds();
    }

    /** Masks personal data in plain text (an agent's log). */
    public static TextMasking maskText(String text) {
        EnumSet<Kind> found = EnumSet.noneOf(Kind.class);
        String masked = text == null ? null : Masker.mask(text, found);
        return new TextMasking(masked, labels(found));
    }

    static boolean luhn(CharSequence digits) {
        return NumberDetector.luhn(digits);
    }

    private static List<String> labels(Set<Kind> found) {
        return found.stream().map(Kind::label).toList();
    }

    private static JsonValue maskValue(JsonValue value, Set<Kind> found) {
        if (value == null) {
            return null;
        }
        switch (value.getValueType()) {
            case OBJECT -> {
                return maskObject((JsonObject) value, found);
            }
            case ARRAY -> {
                JsonArrayBuilder builder = JSON.createArrayBuilder();
                for (JsonValue item : (JsonArray) value) {
                    builder.add(maskValue(item, found));
                }
                return builder.build();
            }
            case STRING -> {
                String text = ((JsonString) value).getString();
                String masked = Masker.mask(text, found);
                return masked.equals(text) ? value : JSON.createValue(masked);
            }
            case NUMBER -> {
                if (isCardNumber((JsonNumber) value)) {
                    found.add(Kind.CARD);
                    return JSON.createValue(Kind.CARD.mask());
                }
                return value;
            }
            default -> {
                return value;
            }
        }
    }

    /** Keys without personal data keep their names; masked ones take a name no other key has, in the same order. */
    private static JsonObject maskObject(JsonObject object, Set<Kind> found) {
        List<String> masks = new ArrayList<>(object.size());
        Set<String> taken = new HashSet<>();
        for (String key : object.keySet()) {
            String masked = Masker.mask(key, found);
            masks.add(masked);
            if (masked.equals(key)) {
                taken.add(key);
            }
        }
        JsonObjectBuilder builder = JSON.createObjectBuilder();
        int k = 0;
        for (Map.Entry<String, JsonValue> entry : object.entrySet()) {
            String masked = masks.get(k++);
            String name = masked;
            if (!masked.equals(entry.getKey())) {
                for (int suffix = 2; !taken.add(name); suffix++) {
                    name = masked + "#" + suffix;
                }
            }
            builder.add(name, maskValue(entry.getValue(), found));
        }
        return builder.build();
    }

    private static boolean isCardNumber(JsonNumber number) {
        BigDecimal decimal = number.bigDecimalValue();
        if (decimal.signum() <= 0 || decimal.scale() > 0 && decimal.stripTrailingZeros().scale() > 0) {
            return false;
        }
        if (decimal.precision() - decimal.scale() > 19) {
            return false;
        }
        BigInteger integer = decimal.toBigIntegerExact();
        return Masker.isCardNumber(integer.toString());
    }
}
