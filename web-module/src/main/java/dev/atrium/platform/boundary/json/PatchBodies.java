package dev.atrium.platform.boundary.json;

import java.io.IOException;
import java.io.PushbackInputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validator;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import dev.atrium.platform.boundary.http.BodyLimitFilter;
import dev.atrium.platform.boundary.http.ErrorMapper;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.http.JsonInput;

/**
 * Reads {@link Patch}{@code <T>} and {@code List<Patch<T>>} bodies: parses the JSON once, remembers which fields
 * were present, binds the record with the API's JSON-B configuration and validates it. An interceptor rather than
 * a body reader, because Jersey caches its choice of JSON reader per media type and would hand these bodies to
 * the general JSON-B reader.
 */
@Provider
@ApplicationScoped
public class PatchBodies implements ReaderInterceptor {

    @Inject
    Validator validator;

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        Type generic = context.getGenericType();
        if (Patch.class.equals(context.getType())) {
            return patch(tree(context), recordType(generic), null);
        }
        if (List.class.equals(context.getType()) && generic instanceof ParameterizedType list
                && list.getActualTypeArguments()[0] instanceof ParameterizedType element
                && element.getRawType() == Patch.class) {
            if (!(tree(context) instanceof JsonArray array)) {
                throw BusinessException.validation("body: a JSON array is required");
            }
            var patches = new ArrayList<Patch<?>>();
            for (int i = 0; i < array.size(); i++) {
                patches.add(patch(array.get(i), recordType(element), "items[" + i + "]"));
            }
            return patches;
        }
        return context.proceed();
    }

    /** The body, already held to the body limit by {@link BodyLimitFilter}, parsed straight from its stream. */
    private static JsonValue tree(ReaderInterceptorContext context) throws IOException {
        var in = new PushbackInputStream(context.getInputStream(), 1);
        int first;
        do {
            first = in.read();
        } while (first == ' ' || first == '\t' || first == '\r' || first == '\n');
        if (first < 0) {
            throw BusinessException.validation("body: a JSON body is required");
        }
        in.unread(first);
        return JsonInput.read(in);
    }

    private Patch<?> patch(JsonValue tree, Class<?> recordType, String where) {
        if (!(tree instanceof JsonObject object)) {
            throw BusinessException.validation((where == null ? "body" : where) + ": a JSON object is required");
        }
        Object value = Json.jsonb().fromJson(object.toString(), recordType);
        var violations = validator.validate(value);
        if (!violations.isEmpty()) {
            String details = ErrorMapper.describe(new ConstraintViolationException(violations));
            throw BusinessException.validation(where == null ? details : where + "." + details);
        }
        return new Patch<>(value, object.keySet());
    }

    private static Class<?> recordType(Type patchType) {
        if (patchType instanceof ParameterizedType p && p.getActualTypeArguments()[0] instanceof Class<?> c) {
            return c;
        }
        throw new IllegalStateException("Patch needs a concrete record type, got " + patchType);
    }
}
