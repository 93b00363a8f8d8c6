package dev.atrium.platform.http;

import jakarta.json.spi.JsonProvider;

/**
 * The JSON-P provider, looked up once. Every static {@code jakarta.json.Json} factory call looks the provider up
 * again through the service loader, which scans the application's jars for a resource: on the chat stream, where
 * each fragment is written as JSON, that lookup cost more than the fragment.
 */
public final class JsonProviders {

    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonProviders() {
    }
}
