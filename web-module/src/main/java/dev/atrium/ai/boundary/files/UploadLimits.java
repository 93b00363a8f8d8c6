package dev.atrium.ai.boundary.files;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;

import dev.atrium.ai.control.TenantService;

/**
 * How large a caller's files may be: the tier's {@code max_file_size_mb} (spec 02: 10 for every tier), in MiB.
 * The multipart body around the file may be {@value #ENVELOPE_BYTES} bytes more (part headers, other fields).
 */
@ApplicationScoped
public class UploadLimits {

    static final long MIB = 1024L * 1024L;
    static final long ENVELOPE_BYTES = 64 * 1024;

    @EJB
    TenantService tenants;

    /** The largest file the user may upload, in bytes. */
    public long fileBytes(long userId) {
        return tenants.tierOf(userId).maxFileSizeMb() * MIB;
    }
}
