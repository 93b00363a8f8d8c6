package dev.atrium.cli;

/** A failure the CLI reports in one line and ends with its exit code. */
final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    static CliException user(String message) {
        return new CliException(ExitCodes.USER_ERROR, message);
    }

    int exitCode() {
        return exitCode;
    }
}
