package io.floe.adapters.rest.web.view;

import java.util.List;

/** A namespace in the org home's listing. */
public record NamespaceRow(String name, String href, String description,
    List<MetadataEntry> metadata, long tableCount, String updated, String updatedIso,
    boolean deleted, boolean canRestore) {}
