package dev.atrium.platform.http;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonMergePatch;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonPatch;
import jakarta.json.JsonPatchBuilder;
import jakarta.json.JsonPointer;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.JsonWriterFactory;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;

/**
 * The container's JSON-P provider with its parsers and readers held to a nesting depth (Parsson's
 * {@code org.eclipse.parsson.maxDepth}, passed in the configuration map rather than as a system property). JSON-B
 * takes a provider, not parser settings, hence a whole provider that hands everything else on unchanged. Its
 * parsers skip safely ({@link SkipSafeParser}).
 */
final class DepthLimitedJsonProvider extends JsonProvider {

    static final String PARSSON_MAX_DEPTH = "org.eclipse.parsson.maxDepth";

    private final JsonProvider delegate;
    private final int maxDepth;
    private final JsonParserFactory parsers;
    private final JsonReaderFactory readers;

    DepthLimitedJsonProvider(JsonProvider delegate, int maxDepth) {
        this.delegate = delegate;
        this.maxDepth = maxDepth;
        this.parsers = SkipSafeParser.factory(delegate.createParserFactory(limited(null)));
        this.readers = delegate.createReaderFactory(limited(null));
    }

    private Map<String, ?> limited(Map<String, ?> config) {
        var merged = new HashMap<String, Object>();
        if (config != null) {
            merged.putAll(config);
        }
        // Parsson counts the levels entered below the outermost one, and refuses when that count reaches its limit
        merged.put(PARSSON_MAX_DEPTH, maxDepth + 1);
        return merged;
    }

    @Override
    public JsonParser createParser(Reader reader) {
        return parsers.createParser(reader);
    }

    @Override
    public JsonParser createParser(InputStream in) {
        return parsers.createParser(in);
    }

    @Override
    public JsonParserFactory createParserFactory(Map<String, ?> config) {
        return SkipSafeParser.factory(delegate.createParserFactory(limited(config)));
    }

    @Override
    public JsonReader createReader(Reader reader) {
        return readers.createReader(reader);
    }

    @Override
    public JsonReader createReader(InputStream in) {
        return readers.createReader(in);
    }

    @Override
    public JsonReaderFactory createReaderFactory(Map<String, ?> config) {
        return delegate.createReaderFactory(limited(config));
    }

    @Override
    public JsonGenerator createGenerator(Writer writer) {
        return delegate.createGenerator(writer);
    }

    @Override
    public JsonGenerator createGenerator(OutputStream out) {
        return delegate.createGenerator(out);
    }

    @Override
    public JsonGeneratorFactory createGeneratorFactory(Map<String, ?> config) {
        return delegate.createGeneratorFactory(config);
    }

    @Override
    public JsonWriter createWriter(Writer writer) {
        return delegate.createWriter(writer);
    }

    @Override
    public JsonWriter createWriter(OutputStream out) {
        return delegate.createWriter(out);
    }

    @Override
    public JsonWriterFactory createWriterFactory(Map<String, ?> config) {
        return delegate.createWriterFactory(config);
    }

    @Override
    public JsonObjectBuilder createObjectBuilder() {
        return delegate.createObjectBuilder();
    }

    @Override
    public JsonObjectBuilder createObjectBuilder(JsonObject object) {
        return delegate.createObjectBuilder(object);
    }

    @Override
    public JsonObjectBuilder createObjectBuilder(Map<String, ?> map) {
        return delegate.createObjectBuilder(map);
    }

    @Override
    public JsonArrayBuilder createArrayBuilder() {
        return delegate.createArrayBuilder();
    }

    @Override
    public JsonArrayBuilder createArrayBuilder(JsonArray array) {
        return delegate.createArrayBuilder(array);
    }

    @Override
    public JsonArrayBuilder createArrayBuilder(Collection<?> collection) {
        return delegate.createArrayBuilder(collection);
    }

    @Override
    public JsonBuilderFactory createBuilderFactory(Map<String, ?> config) {
        return delegate.createBuilderFactory(config);
    }

    @Override
    public JsonPointer createPointer(String pointer) {
        return delegate.createPointer(pointer);
    }

    @Override
    public JsonPatchBuilder createPatchBuilder() {
        return delegate.createPatchBuilder();
    }

    @Override
    public JsonPatchBuilder createPatchBuilder(JsonArray array) {
        return delegate.createPatchBuilder(array);
    }

    @Override
    public JsonPatch createPatch(JsonArray array) {
        return delegate.createPatch(array);
    }

    @Override
    public JsonPatch createDiff(JsonStructure source, JsonStructure target) {
        return delegate.createDiff(source, target);
    }

    @Override
    public JsonMergePatch createMergePatch(JsonValue patch) {
        return delegate.createMergePatch(patch);
    }

    @Override
    public JsonMergePatch createMergeDiff(JsonValue source, JsonValue target) {
        return delegate.createMergeDiff(source, target);
    }

    @Override
    public JsonString createValue(String value) {
        return delegate.createValue(value);
    }

    @Override
    public JsonNumber createValue(int value) {
        return delegate.createValue(value);
    }

    @Override
    public JsonNumber createValue(long value) {
        return delegate.createValue(value);
    }

    @Override
    public JsonNumber createValue(double value) {
        return delegate.createValue(value);
    }

    @Override
    public JsonNumber createValue(BigDecimal value) {
        return delegate.createValue(value);
    }

    @Override
    public JsonNumber createValue(BigInteger value) {
        return delegate.createValue(value);
    }

    @Override
    public JsonNumber createValue(Number value) {
        return delegate.createValue(value);
    }
}
