package io.floe.adapters.icechunk.format;

/** Where a chunk's bytes are: in the manifest, in a chunk object of the repo, or elsewhere. */
public sealed interface ChunkPayload {

  /** Bytes stored in the manifest itself (Icechunk does this for chunks under 512 bytes). */
  record Inline(byte[] data) implements ChunkPayload {}

  /** A byte range of {@code chunks/<id>} in the repository. */
  record Native(ObjectId12 chunkId, long offset, long length) implements ChunkPayload {}

  /**
   * A byte range of an object outside the repository. {@code etag} or {@code lastModified}
   * (seconds, 0 when absent) let a reader check that the target did not change.
   */
  record Virtual(String location, long offset, long length, String etag, long lastModified)
      implements ChunkPayload {}
}
