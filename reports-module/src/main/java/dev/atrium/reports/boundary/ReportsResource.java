package dev.atrium.reports.boundary;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.jwt.JsonWebToken;

import dev.atrium.reports.control.AtriumApi;
import dev.atrium.reports.control.ReportsException;

/** The caller's month and, for administrators, the platform's; both read from Atrium with the caller's token. */
@Path("/")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ReportsResource {

    private static final Pattern MONTH = Pattern.compile("^\\d{4}-(0[1-9]|1[0-2])$");

    @Inject
    JsonWebToken caller;

    @Inject
    AtriumApi atrium;

    @GET
    @Path("me")
    @RolesAllowed({"user", "admin"})
    public JsonObject me(@QueryParam("month") String month) {
        YearMonth m = month(month);
        JsonObject revenue = atrium.get("/v1/me/revenue?month=" + m, caller.getRawToken());
        JsonObject usage = atrium.get("/v1/me/usage?month=" + m + "&page_size=1", caller.getRawToken());
        return Json.createObjectBuilder()
                .add("user_id", caller.getSubject())
                .add("groups", Json.createArrayBuilder(List.copyOf(new TreeSet<>(caller.getGroups()))))
                .add("token_expires_at", Instant.ofEpochSecond(caller.getExpirationTime()).toString())
                .add("month", m.toString())
                .add("usage", Json.createObjectBuilder().add("records", usage.getInt("total", 0)))
                .add("revenue", pick(revenue, "calls", "gross", "developer_share", "pending", "paid_out",
                        "currency"))
                .build();
    }

    @GET
    @Path("platform")
    @RolesAllowed("admin")
    public JsonObject platform(@QueryParam("month") String month) {
        YearMonth m = month(month);
        JsonObject reconciliation = atrium.get("/v1/admin/billing/reconciliation?month=" + m,
                caller.getRawToken());
        return Json.createObjectBuilder()
                .add("month", m.toString())
                .add("reconciliation", pick(reconciliation, "agrees", "usage_records", "usage_charged",
                        "usage_entries", "entries_charged"))
                .build();
    }

    private static YearMonth month(String value) {
        if (value == null || value.isEmpty()) {
            return YearMonth.now(ZoneOffset.UTC);
        }
        if (value.length() > 7 || !MONTH.matcher(value).matches()) {
            throw new ReportsException(400, "invalid_month", "month must be YYYY-MM");
        }
        return YearMonth.parse(value);
    }

    private static JsonObjectBuilder pick(JsonObject from, String... names) {
        var picked = Json.createObjectBuilder();
        for (String name : names) {
            if (from.containsKey(name)) {
                picked.add(name, from.get(name));
            }
        }
        return picked;
    }
}
