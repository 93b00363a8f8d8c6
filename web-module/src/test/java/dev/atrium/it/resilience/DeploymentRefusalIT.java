package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.it.AtriumServer;

/**
 * A deployment the platform refuses, seen from a second start of the application beside the running server. It runs
 * in the resilience suite, whose server is the services configuration, because each such start takes as long as a
 * server's and the services suite is the run's longest lane.
 */
@ExtendWith(AtriumServer.class)
class DeploymentRefusalIT {

    @Test
    void whenTheDatabaseIsExternalAndNoProcessorIsSetThenTheDeploymentIsRefusedNamingTheSetting() throws Exception {
        var unset = new HashMap<String, String>();
        unset.put("ATRIUM_BILLING_PROCESSOR", null);

        String log = AtriumServer.get().refusedStart(unset);

        assertThat(log).contains("SEVERE").contains("Refusing to start: ATRIUM_BILLING_PROCESSOR is not set and the "
                + "database is external (ATRIUM_DB_URL); choose stripe or webhook");
        assertThat(log).doesNotContain("No payment processor is configured");
    }
}
