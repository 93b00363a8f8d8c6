package dev.atrium.platform.http;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Map.Entry;
import java.util.stream.Stream;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonLocation;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import jakarta.json.stream.JsonParsingException;

/**
 * A parser whose {@link #skipObject()} and {@link #skipArray()} walk the input with {@link #next()}. Parsson's own
 * skipping reads raw tokens: it never counts the nesting depth, and at the end of truncated input it loops for ever
 * (seen with Parsson 1.1.7; JSON-B skips an unknown field that way, so a body cut off inside an unknown field held
 * a thread at full CPU). Walking with {@code next()} keeps the parser's depth limit and its end-of-input check.
 */
final class SkipSafeParser implements JsonParser {

    private final JsonParser delegate;
    /** The open containers, innermost first: {@code true} for an object. */
    private final ArrayDeque<Boolean> open = new ArrayDeque<>();
    private Event current;

    SkipSafeParser(JsonParser delegate) {
        this.delegate = delegate;
    }

    static JsonParserFactory factory(JsonParserFactory delegate) {
        return new JsonParserFactory() {
            @Override
            public JsonParser createParser(Reader reader) {
                return new SkipSafeParser(delegate.createParser(reader));
            }

            @Override
            public JsonParser createParser(InputStream in) {
                return new SkipSafeParser(delegate.createParser(in));
            }

            @Override
            public JsonParser createParser(InputStream in, Charset charset) {
                return new SkipSafeParser(delegate.createParser(in, charset));
            }

            @Override
            public JsonParser createParser(JsonObject object) {
                return delegate.createParser(object);
            }

            @Override
            public JsonParser createParser(JsonArray array) {
                return delegate.createParser(array);
            }

            @Override
            public Map<String, ?> getConfigInUse() {
                return delegate.getConfigInUse();
            }
        };
    }

    @Override
    public boolean hasNext() {
        return delegate.hasNext();
    }

    @Override
    public Event next() {
        if (!delegate.hasNext()) {
            throw new JsonParsingException("Unexpected end of the JSON text", delegate.getLocation());
        }
        current = delegate.next();
        switch (current) {
            case START_OBJECT -> open.push(Boolean.TRUE);
            case START_ARRAY -> open.push(Boolean.FALSE);
            case END_OBJECT, END_ARRAY -> open.poll();
            default -> {
            }
        }
        return current;
    }

    @Override
    public Event currentEvent() {
        return current;
    }

    @Override
    public void skipObject() {
        skip(Boolean.TRUE);
    }

    @Override
    public void skipArray() {
        skip(Boolean.FALSE);
    }

    /** Advances to the end of the innermost open container when it is of the given kind, as JSON-P says. */
    private void skip(Boolean object) {
        if (!object.equals(open.peek())) {
            return;
        }
        int level = open.size();
        while (open.size() >= level) {
            next();
        }
    }

    @Override
    public JsonObject getObject() {
        JsonObject value = delegate.getObject();
        closed(Event.END_OBJECT);
        return value;
    }

    @Override
    public JsonArray getArray() {
        JsonArray value = delegate.getArray();
        closed(Event.END_ARRAY);
        return value;
    }

    @Override
    public JsonValue getValue() {
        Event start = current;
        JsonValue value = delegate.getValue();
        if (start == Event.START_OBJECT || start == Event.START_ARRAY) {
            closed(start == Event.START_OBJECT ? Event.END_OBJECT : Event.END_ARRAY);
        }
        return value;
    }

    /** The delegate read a whole structure whose start this parser had seen. */
    private void closed(Event end) {
        open.poll();
        current = end;
    }

    @Override
    public Stream<JsonValue> getArrayStream() {
        return delegate.getArrayStream();
    }

    @Override
    public Stream<Entry<String, JsonValue>> getObjectStream() {
        return delegate.getObjectStream();
    }

    @Override
    public Stream<JsonValue> getValueStream() {
        return delegate.getValueStream();
    }

    @Override
    public String getString() {
        return delegate.getString();
    }

    @Override
    public boolean isIntegralNumber() {
        return delegate.isIntegralNumber();
    }

    @Override
    public int getInt() {
        return delegate.getInt();
    }

    @Override
    public long getLong() {
        return delegate.getLong();
    }

    @Override
    public BigDecimal getBigDecimal() {
        return delegate.getBigDecimal();
    }

    @Override
    public JsonLocation getLocation() {
        return delegate.getLocation();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
