package dev.atrium.reports.boundary;

import jakarta.annotation.security.DeclareRoles;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.auth.LoginConfig;

/** The container authenticates every request with MicroProfile JWT; the roles are the SSO token's groups. */
@ApplicationPath("/")
@LoginConfig(authMethod = "MP-JWT", realmName = "atrium")
@DeclareRoles({"user", "admin"})
public class ReportsApplication extends Application {
}
