package dev.atrium.platform.boundary;

import java.util.List;
import java.util.Map;

/** Spec 01's list response: {@code items}, {@code total}, {@code page}, {@code page_size}, with paging links. */
public record ListEnvelope<T>(List<T> items, long total, int page, int pageSize, Map<String, String> _links) {
}
