package dev.atrium.reports.boundary;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.json.Json;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.reports.control.ReportsException;

/**
 * The one place that writes the portal's error envelope, shaped as Atrium's: {@code {error: {code, message}}}; for
 * the portal's own errors, and for JAX-RS's refusals (a role missing, a path or method not served), whose status it
 * keeps. {@link ErrorPages} writes the same for the container's refusals, with the codes and messages here.
 */
@Provider
public class ReportsErrors implements ExceptionMapper<Exception> {

    private static final Logger LOG = Logger.getLogger(ReportsErrors.class.getName());

    @Override
    public Response toResponse(Exception e) {
        if (e instanceof ReportsException r) {
            return envelope(r.status(), r.code(), r.getMessage());
        }
        int status = e instanceof WebApplicationException w ? w.getResponse().getStatus() : 500;
        if (status == 500) {
            LOG.log(Level.WARNING, "The reports portal failed", e);
        }
        return envelope(status, code(status), message(status));
    }

    private static Response envelope(int status, String code, String message) {
        var body = Json.createObjectBuilder().add("error", Json.createObjectBuilder()
                .add("code", code).add("message", message)).build();
        var response = Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body);
        if (status == 401) {
            response.header("WWW-Authenticate", "Bearer");
        }
        return response.build();
    }

    static String code(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 415 -> "unsupported_media_type";
            default -> status >= 500 ? "internal_error" : "request_refused";
        };
    }

    static String message(int status) {
        return switch (status) {
            case 400 -> "The request could not be read";
            case 401 -> "A valid Atrium single sign-on token is required (Authorization: Bearer)";
            case 403 -> "Your roles do not allow this report";
            case 404 -> "No such report";
            case 405 -> "This method is not allowed here";
            default -> status >= 500 ? "The reports portal failed; try again later" : "The request was refused";
        };
    }
}
