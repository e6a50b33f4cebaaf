package io.floe.adapters.icechunk.format;

/** A snapshot's summary of one manifest file it points to. */
public record ManifestFileInfo(ObjectId12 id, long sizeBytes, long numChunkRefs) {}
