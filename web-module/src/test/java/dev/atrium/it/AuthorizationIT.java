package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Roles, permissions and the administration of users (spec 01 authorization). */
@ExtendWith(AtriumServer.class)
class AuthorizationIT {

    @Test
    void whenAskingMyPermissionsThenRolesAndTheirPermissionCodes() {
        var user = Accounts.verified("perm");
        var reply = user.api().get("/me/permissions");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().at("/user/id").asLong()).isEqualTo(user.id());
        assertThat(reply.json().at("/user/username").asText()).isEqualTo(user.username());
        assertThat(reply.json().get("roles")).extracting(n -> n.asText()).containsExactly("user");
        assertThat(reply.json().get("permissions")).extracting(n -> n.asText())
                .containsExactly("agent:publish", "chat");

        var admin = Accounts.admin().api().get("/me/permissions").json();
        assertThat(admin.get("roles")).extracting(n -> n.asText()).contains("admin");
        assertThat(admin.get("permissions")).extracting(n -> n.asText())
                .contains("admin", "chat", "file:upload", "user:read", "user:delete", "role:assign", "audit:read");
        assertThat(Api.anonymous().get("/me/permissions").status()).isEqualTo(401);
    }

    @Test
    void whenAPermissionIsMissingThen403NamingIt() {
        var user = Accounts.verified("noperm");
        var list = user.api().get("/admin/users");
        assertThat(list.status()).isEqualTo(403);
        assertThat(list.json().at("/error/message").asText()).contains("user:read");
        assertThat(user.api().delete("/admin/users/1").json().at("/error/message").asText()).contains("user:delete");
        assertThat(user.api().get("/admin/audit-logs").json().at("/error/message").asText()).contains("audit:read");
    }

    @Test
    void whenListingUsersThenListConventionsAndFilters() {
        var target = Accounts.verified("listed");
        var admin = Accounts.admin();
        var page = admin.api().get("/admin/users?email=" + target.email()).json();
        assertThat(page.get("total").asLong()).isEqualTo(1);
        var item = page.get("items").get(0);
        assertThat(item.get("id").asLong()).isEqualTo(target.id());
        assertThat(item.get("roles")).extracting(n -> n.asText()).containsExactly("user");
        assertThat(item.get("is_active").asBoolean()).isTrue();
        assertThat(item.has("hashed_password")).isFalse();
        assertThat(admin.api().get("/admin/users?page_size=2&sort=-created_at").json().get("items")).hasSize(2);
        assertThat(admin.api().get("/admin/users?role=admin").json().get("items").get(0).get("role").asText())
                .isEqualTo("admin");
        assertThat(admin.api().get("/admin/users?page_size=500").status()).isEqualTo(422);
    }

    @Test
    void whenARoleIsGrantedThenPermissionsAndRefreshedTokensFollow() {
        var user = Accounts.verified("promoted");
        var admin = Accounts.admin();
        var granted = admin.api().post("/admin/users/" + user.id() + "/roles", Map.of("role", "pro_user"));
        assertThat(granted.status()).isEqualTo(201);
        assertThat(granted.json().get("roles")).extracting(n -> n.asText()).containsExactly("user", "pro_user");
        assertThat(admin.api().post("/admin/users/" + user.id() + "/roles", Map.of("role", "pro_user")).status())
                .isEqualTo(200);
        assertThat(admin.api().post("/admin/users/" + user.id() + "/roles", Map.of("role", "emperor")).status())
                .isEqualTo(422);

        assertThat(user.api().get("/me/permissions").json().get("permissions")).extracting(n -> n.asText())
                .contains("file:upload");
        var refreshed = Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken()));
        assertThat(IdentityIT.part(refreshed.json().get("access_token").asText(), 1).get("role").asText())
                .isEqualTo("pro_user");

        assertThat(admin.api().delete("/admin/users/" + user.id() + "/roles/pro_user").status()).isEqualTo(204);
        assertThat(admin.api().delete("/admin/users/" + user.id() + "/roles/pro_user").status()).isEqualTo(404);
        assertThat(admin.api().delete("/admin/users/" + user.id() + "/roles/user").status()).isEqualTo(409);
        assertThat(user.api().get("/me/permissions").json().get("permissions")).extracting(n -> n.asText())
                .containsExactly("agent:publish", "chat");

        var audit = admin.api().get("/admin/audit-logs?user_id=" + user.id() + "&action=role_grant").json();
        assertThat(audit.get("total").asLong()).isEqualTo(1);
        assertThat(audit.get("items").get(0).get("actor_id").asLong()).isEqualTo(admin.id());
    }

    @Test
    void whenAUserIsDeletedThenItsTokensStopWorkingAndSelfDeletionIsRefused() {
        var victim = Accounts.verified("deleted");
        var admin = Accounts.admin();
        assertThat(victim.api().get("/api/v1/users/me").status()).isEqualTo(200);
        var deleted = admin.api().delete("/admin/users/" + victim.id());
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(deleted.body()).isEmpty();
        assertThat(victim.api().get("/api/v1/users/me").status()).isEqualTo(401);
        assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", victim.refreshToken())).status())
                .isEqualTo(401);
        assertThat(admin.api().delete("/admin/users/" + victim.id()).status()).isEqualTo(404);
        assertThat(admin.api().delete("/admin/users/" + admin.id()).status()).isEqualTo(409);
        assertThat(admin.api().get("/admin/audit-logs?action=user_delete&user_id=" + victim.id()).json()
                .get("total").asLong()).isEqualTo(1);
    }

    @Test
    void whenAUserIsDeactivatedThenItsTokensStopWorkingUntilReactivated() {
        var user = Accounts.verified("deactivated");
        var admin = Accounts.admin();
        // the revocation must fall in a later second than the credentials' issue: move the server clock, not wait
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(2));
            var off = admin.api().patch("/admin/users/" + user.id(), Map.of("is_active", false));
            assertThat(off.status()).as(off.toString()).isEqualTo(200);
            assertThat(off.json().get("is_active").asBoolean()).isFalse();
            assertThat(user.api().get("/api/v1/users/me").status()).isEqualTo(401);
            assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken())).status())
                    .isEqualTo(401);
            assertThat(Api.anonymous().post("/login", Map.of("email", user.email(), "password", Accounts.PASSWORD))
                    .status()).isEqualTo(403);
            assertThat(admin.api().patch("/admin/users/" + user.id(), Map.of("is_active", true)).status())
                    .isEqualTo(200);
            assertThat(user.api().get("/api/v1/users/me").status()).as("old tokens stay ended").isEqualTo(401);
            assertThat(Api.anonymous().post("/login", Map.of("email", user.email(), "password", Accounts.PASSWORD))
                    .status()).isEqualTo(200);
            assertThat(admin.api().patch("/admin/users/" + admin.id(), Map.of("is_active", false)).status())
                    .isEqualTo(409);
            assertThat(user.api().patch("/admin/users/" + user.id(), Map.of("is_active", true)).status())
                    .isEqualTo(401);
        }
    }

    @Test
    void whenListingRolesThenTheSeededRolesWithPermissions() {
        var roles = Accounts.admin().api().get("/admin/roles").json().get("items");
        assertThat(roles).extracting(r -> r.get("name").asText())
                .containsExactly("user", "pro_user", "developer", "admin");
        assertThat(roles.get(1).get("permissions")).extracting(n -> n.asText())
                .containsExactlyInAnyOrder("agent:publish", "chat", "file:upload");
    }

    @Test
    void whenReadingTheAuditLogThenEntriesCarryAddressAgentAndOutcome() {
        var api = Api.anonymous().header("User-Agent", "audit-test/1.0");
        String email = Accounts.uniqueEmail("audited");
        api.post("/register", Map.of("email", email, "username", "audited", "password", "Passw0rdOK"));
        api.post("/login", Map.of("email", email, "password", "Wrong-Passw0rd"));
        var admin = Accounts.admin();
        var failures = admin.api().get("/admin/audit-logs?action=login&success=false&ip_address=" + api.address())
                .json();
        assertThat(failures.get("total").asLong()).isEqualTo(1);
        var entry = failures.get("items").get(0);
        assertThat(entry.get("user_agent").asText()).isEqualTo("audit-test/1.0");
        assertThat(entry.get("success").asBoolean()).isFalse();
        var registered = admin.api().get("/admin/audit-logs?action=register&ip_address=" + api.address()).json();
        assertThat(registered.get("total").asLong()).isEqualTo(1);
        assertThat(admin.api().get("/admin/audit-logs?created_after=2000-01-01&created_before=2000-01-02").json()
                .get("total").asLong()).isZero();
    }
}
