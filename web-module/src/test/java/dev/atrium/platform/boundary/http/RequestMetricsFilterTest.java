package dev.atrium.platform.boundary.http;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;

class RequestMetricsFilterTest {

    @Path("/v1/agents/")
    static class Agents {
        @POST
        @Path("{ref}/invoke")
        public void invoke() {
        }

        @GET
        public void list() {
        }
    }

    @Path("admin/users/{id: \\d+}")
    static class Users {
        @GET
        @Path("roles/{name: [a-z]{1,20}}")
        public void roles() {
        }
    }

    @Path("health")
    static class Health {
        @GET
        public void health() {
        }
    }

    @Test
    void whenAMethodIsMatchedThenTheRouteIsItsPathTemplateNotTheRawPath() throws Exception {
        assertThat(RequestMetricsFilter.route(Agents.class, Agents.class.getMethod("invoke")))
                .isEqualTo("/v1/agents/{ref}/invoke");
        assertThat(RequestMetricsFilter.route(Agents.class, Agents.class.getMethod("list"))).isEqualTo("/v1/agents");
        assertThat(RequestMetricsFilter.route(Health.class, Health.class.getMethod("health"))).isEqualTo("/health");
    }

    @Test
    void whenAParameterHasAPatternThenTheRouteNamesTheParameterOnly() throws Exception {
        assertThat(RequestMetricsFilter.route(Users.class, Users.class.getMethod("roles")))
                .isEqualTo("/admin/users/{id}/roles/{name}");
    }

    @Test
    void whenNothingMatchedThenTheRouteIsUnmatched() {
        assertThat(RequestMetricsFilter.route(null, null)).isEqualTo(RequestMetricsFilter.UNMATCHED);
    }
}
