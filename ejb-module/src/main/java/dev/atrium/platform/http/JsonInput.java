package dev.atrium.platform.http;

import java.io.InputStream;
import java.io.StringReader;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.bind.JsonbException;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonGenerationException;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import jakarta.ws.rs.ProcessingException;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * The one place that decides what malformed JSON is, for every reader of untrusted JSON (request bodies through
 * JSON-B, PATCH bodies, login fields, agent cards): text that is not one JSON value, stops early, or nests arrays
 * and objects deeper than {@value #MAX_DEPTH} levels. Malformed JSON is answered 400 ({@link #malformed}), never
 * 500. The depth is bounded at the parser through {@link #provider()}, which the API's JSON-B uses too.
 */
public final class JsonInput {

    /** Deep enough for any card, schema or body of the API; Parsson's own default (1000) is far above it. */
    public static final int MAX_DEPTH = 64;

    private static final String DETAILS = "The body is not valid JSON of the expected shape, or nests deeper than "
            + MAX_DEPTH + " levels";

    private static final JsonProvider PROVIDER = new DepthLimitedJsonProvider(JsonProvider.provider(), MAX_DEPTH);
    private static final JsonParserFactory PARSERS = PROVIDER.createParserFactory(Map.of());

    private JsonInput() {
    }

    /** The JSON-P provider whose parsers refuse input nested deeper than {@link #MAX_DEPTH}. */
    public static JsonProvider provider() {
        return PROVIDER;
    }

    /** One JSON value from {@code text} and nothing after it, or {@link #malformed()}. */
    public static JsonValue read(String text) {
        return read(text, DETAILS);
    }

    /** One JSON value from a body (its encoding detected as JSON-P does) and nothing after it, or malformed. */
    public static JsonValue read(InputStream body) {
        return read(body, DETAILS);
    }

    /** One JSON value from {@code text} and nothing after it, or {@link #malformed} with {@code details}. */
    public static JsonValue read(String text, String details) {
        return read(() -> PARSERS.createParser(new StringReader(text == null ? "" : text)), details);
    }

    /** One JSON value from a body (its encoding detected as JSON-P does), or {@link #malformed}. */
    public static JsonValue read(InputStream body, String details) {
        return read(() -> PARSERS.createParser(body), details);
    }

    private static JsonValue read(Supplier<JsonParser> opening, String details) {
        // opening a parser on a stream already reads (to detect the encoding) and may fail
        try (JsonParser parser = opening.get()) {
            if (!parser.hasNext()) {
                throw malformed(details);
            }
            parser.next();
            JsonValue value = parser.getValue();
            if (parser.hasNext()) {
                throw malformed(details);
            }
            return value;
        } catch (RuntimeException e) {
            throw classify(e, details);
        }
    }

    public static BusinessException malformed(String details) {
        return new BusinessException(Problem.BAD_REQUEST, "Malformed JSON body", details);
    }

    public static BusinessException malformed() {
        return malformed(DETAILS);
    }

    /**
     * Whether a failure anywhere in {@code thrown}'s causes says the input was not acceptable JSON: JSON-P's and
     * JSON-B's exceptions (but not a failure to write JSON), Parsson's plain {@code RuntimeException} for input
     * nested too deep, and Jersey's cause-less {@link ProcessingException} of a body reader.
     */
    public static boolean isMalformed(Throwable thrown) {
        int hops = 0;
        for (Throwable c = thrown; c != null && hops < 32; c = c.getCause(), hops++) {
            if (c instanceof BusinessException) {
                return false;
            }
            if (c instanceof JsonGenerationException) {
                return false;
            }
            if (c instanceof JsonException || c instanceof JsonbException || fromParser(c)) {
                return true;
            }
            if (c instanceof ProcessingException && c.getCause() == null) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }

    /** Parsson signals input nested too deep with a plain {@code RuntimeException} from its parser. */
    private static boolean fromParser(Throwable t) {
        StackTraceElement[] trace = t.getStackTrace();
        return t.getClass() == RuntimeException.class && trace.length > 0
                && trace[0].getClassName().startsWith("org.eclipse.parsson.");
    }

    private static RuntimeException classify(RuntimeException e, String details) {
        if (e instanceof BusinessException) {
            return e;
        }
        return isMalformed(e) ? malformed(details) : e;
    }
}
