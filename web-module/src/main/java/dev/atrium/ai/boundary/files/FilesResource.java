package dev.atrium.ai.boundary.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityPart;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.ai.control.files.FileNames;
import dev.atrium.ai.control.files.FileService;
import dev.atrium.ai.control.files.FileUpload;
import dev.atrium.ai.entity.StoredFile;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.PathIds;
import dev.atrium.platform.boundary.openapi.ListOf;
import dev.atrium.platform.error.BusinessException;

/**
 * Spec 02's files: an upload (permission {@code file:upload}, at most the tier's {@code max_file_size_mb}) is stored
 * at once and answered 202 while a worker extracts its text and metadata; its owner polls the status, reads the
 * text, downloads the bytes and deletes it. Reading needs only to be the owner: anyone else's file is 404.
 */
@Path("api/files")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "ai")
public class FilesResource {

    static final String PART = "file";

    @EJB
    FileService files;

    @Inject
    UploadLimits limits;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @POST
    @Path("upload")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @RequiresPermission("file:upload")
    @FileUploadLimit
    @Operation(summary = "Upload a file; it is stored at once and its text extracted in the background",
            description = "multipart/form-data with the part file. The part's filename is sanitised (last path "
                    + "segment, no control characters, at most 200 bytes); its Content-Type is recorded, or detected "
                    + "from the content and name when absent or application/octet-stream. At most the tier's "
                    + "max_file_size_mb (10 MiB); larger uploads are refused with 413 while they stream. Poll href "
                    + "until status is ready or failed.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.MULTIPART_FORM_DATA,
            schema = @Schema(implementation = FileUploadForm.class)))
    @APIResponse(responseCode = "202", description = "Accepted: stored, the parse job is queued",
            content = @Content(schema = @Schema(implementation = FileAccepted.class)))
    @APIResponse(responseCode = "413", description = "The file is larger than the tier allows")
    @APIResponse(responseCode = "503", description = "The object store is unreachable; nothing was kept")
    public Response upload(List<EntityPart> parts) {
        long userId = Callers.required(request).userId();
        EntityPart part = filePart(parts);
        StoredFile file;
        try (InputStream content = part.getContent()) {
            file = files.upload(userId, new FileUpload(part.getFileName().orElse(null), contentType(part), content),
                    limits.fileBytes(userId));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String id = file.id().toString();
        return Response.accepted(new FileAccepted(id, "processing", id, FileView.BASE + id))
                .header(HttpHeaders.LOCATION, FileView.BASE + id).build();
    }

    private static EntityPart filePart(List<EntityPart> parts) {
        var named = parts == null ? List.<EntityPart>of() : parts.stream().filter(p -> PART.equals(p.getName()))
                .toList();
        if (named.isEmpty()) {
            throw BusinessException.validation(PART + ": the part is required");
        }
        if (named.size() > 1) {
            throw BusinessException.validation(PART + ": send one file per upload");
        }
        return named.get(0);
    }

    /** The part's own Content-Type header as sent, not the text/plain default of a part without one. */
    private static String contentType(EntityPart part) {
        for (Map.Entry<String, List<String>> header : part.getHeaders().entrySet()) {
            if (HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(header.getKey()) && !header.getValue().isEmpty()) {
                return header.getValue().get(0);
            }
        }
        return null;
    }

    @GET
    @Operation(summary = "The caller's files, newest first; filters status, file_type; search in file names")
    @Parameter(name = "status", description = "uploaded, processing, ready, failed; several separated by commas")
    @Parameter(name = "file_type", description = "Content type, e.g. application/pdf")
    @ListOf(FileView.class)
    public Object list() {
        return Envelopes.of(files.list(Callers.required(request).userId(), ListRequest.from(uri)), uri,
                FileView::from);
    }

    @GET
    @Path("{id}")
    @Operation(summary = "One of the caller's files: status, type, size and, once ready, metadata")
    public FileView get(@PathParam("id") @Parameter(description = "The file_id the upload answered") String id) {
        return FileView.from(files.find(Callers.required(request).userId(), PathIds.uuid(id, "File")));
    }

    @GET
    @Path("{id}/content")
    @Produces(MediaType.WILDCARD)
    @Operation(summary = "Download the file: its bytes as uploaded, with the recorded content type",
            description = "Always as an attachment (Content-Disposition with the sanitised name), with "
                    + "X-Content-Type-Options: nosniff and a sandboxing Content-Security-Policy, so an uploaded "
                    + "page or script is never run in the API's origin.")
    @APIResponse(responseCode = "200", description = "The file's bytes",
            content = @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM,
                    schema = @Schema(type = SchemaType.STRING, format = "binary")))
    public Response content(@PathParam("id") String id) {
        var download = files.content(Callers.required(request).userId(), PathIds.uuid(id, "File"));
        StreamingOutput body = out -> {
            try (InputStream in = download.object().content()) {
                in.transferTo(out);
            }
        };
        return Response.ok(body)
                .type(download.file().fileType())
                .header(HttpHeaders.CONTENT_LENGTH, download.object().size())
                .header("Content-Disposition", FileNames.attachment(download.file().filename()))
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "sandbox; default-src 'none'")
                .header(HttpHeaders.CACHE_CONTROL, "private, no-cache")
                .build();
    }

    @GET
    @Path("{id}/text")
    @Operation(summary = "The text extracted from a ready file")
    @APIResponse(responseCode = "200", description = "The text",
            content = @Content(schema = @Schema(implementation = FileTextView.class)))
    @APIResponse(responseCode = "409", description = "The file is not ready (still processing, or failed)")
    public FileTextView text(@PathParam("id") String id) {
        long userId = Callers.required(request).userId();
        UUID fileId = PathIds.uuid(id, "File");
        String text = files.text(userId, fileId);
        StoredFile file = files.find(userId, fileId);
        return new FileTextView(file.id().toString(), text, text.length(), file.textTruncated());
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a file, its text and its stored object")
    @APIResponse(responseCode = "204", description = "Deleted")
    public void delete(@PathParam("id") String id) {
        files.delete(Callers.required(request).userId(), PathIds.uuid(id, "File"));
    }
}
