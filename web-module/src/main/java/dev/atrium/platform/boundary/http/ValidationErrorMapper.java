package dev.atrium.platform.boundary.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Bean Validation failures go to the one error mapper. Jersey ships its own mapper for {@link ValidationException}
 * that answers 400 without a body; a mapper for the exact type is chosen over it.
 */
@Provider
@ApplicationScoped
public class ValidationErrorMapper implements ExceptionMapper<ValidationException> {

    @Inject
    ErrorMapper errors;

    @Override
    public Response toResponse(ValidationException exception) {
        return errors.toResponse(exception);
    }
}
