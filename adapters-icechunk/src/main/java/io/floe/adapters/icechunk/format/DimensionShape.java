package io.floe.adapters.icechunk.format;

/**
 * One dimension of an array as the snapshot records it: its length and how many chunks cover it.
 * Spec version 1 stored the chunk length instead; then {@code numChunks} is derived from it.
 */
public record DimensionShape(long arrayLength, long numChunks) {}
