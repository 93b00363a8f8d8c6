package dev.atrium.it;

import java.net.http.HttpHeaders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/** A response as the tests read it. */
public record Reply(int status, HttpHeaders headers, String body) {

    public JsonNode json() {
        try {
            return Api.JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new AssertionError("Not JSON (" + status + "): " + body, e);
        }
    }

    public String header(String name) {
        return headers.firstValue(name).orElse(null);
    }

    /** The business code of an error envelope. */
    public int code() {
        return json().path("error").path("code").asInt();
    }

    @Override
    public String toString() {
        return status + " " + body;
    }
}
