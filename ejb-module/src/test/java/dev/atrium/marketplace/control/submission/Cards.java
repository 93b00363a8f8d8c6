package dev.atrium.marketplace.control.submission;

import java.io.StringReader;
import java.util.function.Consumer;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/** A valid agent card for tests, and variations of it. */
final class Cards {

    static final String VALID = """
            {
              "name": "pdf-summarizer",
              "display_name": "PDF Summarizer",
              "version": "1.2.3",
              "author": {"id": "42", "name": "Ada", "verified": false},
              "description": "Summarizes long PDF documents into key points.",
              "category": "documents",
              "tags": ["pdf", "summary"],
              "capabilities": ["summarize-documents", "extract-key-points"],
              "input_schema": {"type": "object", "required": ["url"],
                               "properties": {"url": {"type": "string", "format": "uri"},
                                              "style": {"type": "string", "enum": ["bullets", "prose"]}}},
              "output_schema": {"type": "object", "properties": {"summary": {"type": "string"}}},
              "dependencies": {"tools": ["pdf-reader"], "models": ["gpt-4o-mini"],
                               "agents": [{"name": "ocr-agent", "version": ">=1.0.0"}]},
              "pricing": {"model": "per_call", "price_usd": 0.01, "free_quota": 100},
              "runtime": {"entrypoint": ["python3", "main.py"], "memory_mb": 256, "timeout_s": 30,
                          "requires_network": false},
              "trust_level": "community_verified",
              "quality_score": 4.5,
              "total_calls": 0,
              "test_cases": [{"name": "one page", "input": {"url": "https://example.com/a.pdf"},
                              "expected": {"summary": "A summary"}}]
            }""";

    private Cards() {
    }

    static JsonObject valid() {
        try (var reader = Json.createReader(new StringReader(VALID))) {
            return reader.readObject();
        }
    }

    /** The valid card changed by {@code change}. */
    static String with(Consumer<JsonObjectBuilder> change) {
        JsonObjectBuilder builder = Json.createObjectBuilder(valid());
        change.accept(builder);
        return builder.build().toString();
    }
}
