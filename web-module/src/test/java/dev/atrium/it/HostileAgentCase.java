package dev.atrium.it;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every hostile-agent test class shares: a reviewer to list its agents, a caller, and a well-behaved agent
 * that must still answer after each attack. Each attack keeps its own class, so one stopped attack is one result.
 */
@ExtendWith(AtriumServer.class)
abstract class HostileAgentCase {

    static Accounts.Account staff;
    static Accounts.Account caller;
    static String calm;

    @BeforeAll
    static void listTheWellBehavedAgent() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
        caller = Accounts.verified("caller");
        calm = HostileAgents.wellBehaved(staff);
    }
}
