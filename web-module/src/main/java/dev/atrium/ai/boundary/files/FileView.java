package dev.atrium.ai.boundary.files;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.atrium.ai.boundary.chat.MessageView;
import dev.atrium.ai.entity.FileStatus;
import dev.atrium.ai.entity.StoredFile;

/**
 * Spec 02's File: {@code id}, {@code filename} (sanitised), {@code file_type} (content type), {@code file_size}
 * (bytes), {@code storage_path}, {@code status} ({@code uploaded}, {@code processing}, {@code ready},
 * {@code failed}), {@code metadata} (the document's, once ready) and {@code created_at}; beside them the reason a
 * file failed, how much text was extracted and whether it was cut, and when processing ended.
 */
public record FileView(String id, String filename, String fileType, long fileSize, String storagePath,
                       String status, Object metadata, String error, int textLength, boolean textTruncated,
                       Instant createdAt, Instant processedAt, Map<String, String> _links) {

    static final String BASE = "/api/files/";

    static FileView from(StoredFile f) {
        String self = BASE + f.id();
        var links = new LinkedHashMap<String, String>();
        links.put("self", self);
        links.put("content", self + "/content");
        if (f.status() == FileStatus.READY) {
            links.put("text", self + "/text");
        }
        return new FileView(f.id().toString(), f.filename(), f.fileType(), f.fileSize(), f.storagePath(),
                f.status().value(), MessageView.json(f.metadata()), f.error(), f.textLength(), f.textTruncated(),
                f.createdAt(), f.processedAt(), links);
    }
}
