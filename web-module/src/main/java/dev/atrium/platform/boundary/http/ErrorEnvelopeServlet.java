package dev.atrium.platform.boundary.http;

import java.io.IOException;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.atrium.platform.error.Problem;

/**
 * Answers errors raised by the container itself (outside JAX-RS) with the same envelope. It also takes
 * {@code /webjars/*}, which the container would otherwise serve from the WebJars' {@code META-INF/resources}: Swagger
 * UI's demonstration page among them. The API page serves the files it needs itself ({@code /openapi/ui}).
 */
@WebServlet(urlPatterns = {"/error-envelope", "/webjars/*"})
public class ErrorEnvelopeServlet extends HttpServlet {

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : 404;
        if (status < 400) {
            status = 500;
        }
        if (response.getHeader(RequestIds.HEADER) == null) {
            response.setHeader(RequestIds.HEADER, RequestIds.generate());
        }
        HttpPolicyFilter.writeError(response, status, Problem.forStatus(status), StatusTexts.of(status), null);
    }
}
