package dev.atrium.cli;

/** The CLI's exit codes, as docs/cli.md lists them. */
final class ExitCodes {

    /** Done. */
    static final int OK = 0;
    /** The user's mistake: wrong arguments, not logged in, refused by the server (4xx), invalid input. */
    static final int USER_ERROR = 1;
    /** The server's or the network's: 5xx, unreachable, no answer in time. */
    static final int SERVER_ERROR = 2;
    /** The agent ran and its run did not succeed (failed, timed out, hit a limit). */
    static final int RUN_FAILED = 3;

    private ExitCodes() {
    }
}
