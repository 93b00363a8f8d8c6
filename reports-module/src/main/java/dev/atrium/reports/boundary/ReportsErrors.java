package dev.atrium.reports.boundary;

import jakarta.json.Json;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.reports.control.ReportsException;

/** The one place that writes the portal's error envelope, shaped as Atrium's: {@code {error: {code, message}}}. */
@Provider
public class ReportsErrors implements ExceptionMapper<ReportsException> {

    @Override
    public Response toResponse(ReportsException e) {
        var body = Json.createObjectBuilder().add("error", Json.createObjectBuilder()
                .add("code", e.code()).add("message", e.getMessage())).build();
        return Response.status(e.status()).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }
}
