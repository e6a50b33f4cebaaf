package io.floe.adapters.rest.web.view;

/** A snapshot of the table's history, from its summary. */
public record SnapshotRow(String id, String parent, String committed, String committedIso,
    String operation, String addedRows, String totalRows, String totalFiles, boolean current) {}
