package io.floe.adapters.icechunk.icechest;

import java.util.Optional;

/**
 * A table a snapshot declares: its name, the group declaring it, the root of its files, and the
 * {@code metadata.json} the snapshot's commit metadata points at (empty when the store is
 * malformed and the pointer is missing).
 */
public record DeclaredTable(String name, String group, String location,
    Optional<String> metadataLocation) {}
