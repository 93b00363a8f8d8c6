package dev.atrium.ai.boundary.files;

/**
 * The answer to an upload: spec 02's {@code {file_id, status}} with {@code status} = {@code processing} (the parse
 * job is queued), and spec 01's object of a 202 ({@code id}, {@code href}: where to poll).
 */
public record FileAccepted(String fileId, String status, String id, String href) {
}
