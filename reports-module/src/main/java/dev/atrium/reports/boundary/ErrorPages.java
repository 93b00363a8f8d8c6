package dev.atrium.reports.boundary;

import java.io.IOException;

import jakarta.json.Json;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The container's own refusals in the portal's envelope ({@code web.xml} sends its error pages here): MicroProfile
 * JWT answers a missing or invalid token with 401 before any resource runs, and the listener answers paths and
 * methods nothing serves. The body never repeats what the request carried.
 */
@WebServlet("/errors")
public class ErrorPages extends HttpServlet {

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer s ? s : HttpServletResponse.SC_NOT_FOUND;
        var body = Json.createObjectBuilder().add("error", Json.createObjectBuilder()
                .add("code", ReportsErrors.code(status)).add("message", ReportsErrors.message(status))).build();
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        if (status == HttpServletResponse.SC_UNAUTHORIZED) {
            response.setHeader("WWW-Authenticate", "Bearer");
        }
        response.getWriter().write(body.toString());
    }
}
