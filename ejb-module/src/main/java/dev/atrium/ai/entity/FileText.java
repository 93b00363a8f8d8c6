package dev.atrium.ai.entity;

import java.util.Objects;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The text extracted from a ready file, kept apart from the file's row so that lists never load it. */
@Entity
@Table(name = "file_texts")
public class FileText {

    @Id
    @Column(name = "file_id")
    private UUID fileId;

    @Column(nullable = false)
    private String content;

    protected FileText() {
    }

    public FileText(UUID fileId, String content) {
        this.fileId = Objects.requireNonNull(fileId, "fileId");
        this.content = Objects.requireNonNull(content, "content");
    }

    public UUID fileId() {
        return fileId;
    }

    public String content() {
        return content;
    }
}
