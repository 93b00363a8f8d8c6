package dev.atrium.reports.control;

/** A request the portal cannot answer, with the status and a stable code for the error envelope. */
public class ReportsException extends RuntimeException {

    private final int status;
    private final String code;

    public ReportsException(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
