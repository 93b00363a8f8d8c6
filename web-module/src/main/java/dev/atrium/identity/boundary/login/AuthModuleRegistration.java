package dev.atrium.identity.boundary.login;

import jakarta.inject.Inject;
import jakarta.security.auth.message.config.AuthConfigFactory;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/**
 * Registers {@link AtriumAuthModule} for this WAR with the container (Jakarta Authentication 3.0), and removes it
 * when the WAR stops. In the EAR, Payara's MicroProfile JWT mechanism of the reports module is visible to this WAR
 * too, and Soteria registers its bridge for it while the WAR starts; listeners run after that, so this registration
 * replaces it here, while the reports module keeps MicroProfile JWT.
 */
@WebListener
public class AuthModuleRegistration implements ServletContextListener {

    @Inject
    AtriumAuthenticationMechanism mechanism;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        AuthConfigFactory.getFactory().registerServerAuthModule(new AtriumAuthModule(mechanism),
                event.getServletContext());
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        AuthConfigFactory.getFactory().removeServerAuthModule(event.getServletContext());
    }
}
