package dev.atrium.platform.boundary.json;

import jakarta.json.bind.Jsonb;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;

/** Hands JAX-RS the API's JSON-B configuration for every request and response body. */
@Provider
public class JsonbResolver implements ContextResolver<Jsonb> {

    @Override
    public Jsonb getContext(Class<?> type) {
        return Json.jsonb();
    }
}
