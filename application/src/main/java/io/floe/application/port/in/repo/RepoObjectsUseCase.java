package io.floe.application.port.in.repo;

import io.floe.application.model.StoredObjectContent;
import io.floe.application.model.StoredObjectInfo;
import io.floe.application.model.StoredObjectListing;
import io.floe.application.model.WritePrecondition;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * The objects of repos on local buckets, as Floe's S3 endpoint serves them to clients (Python
 * icechunk, the arraylake client) that hold S3 credentials Floe vended for one repo's prefix.
 */
public interface RepoObjectsUseCase {

  /**
   * What the credentials with {@code accessKeyId} reach, if Floe issued them and they have not
   * expired; empty for any other key id.
   */
  Optional<RepoObjectSession> session(String accessKeyId);

  /**
   * The objects one set of credentials reaches: keys (relative to the bucket, as S3 names them)
   * beneath one repo's prefix and nothing else. A key outside it, or a write with read-only
   * credentials, is refused ({@link org.apache.iceberg.exceptions.ForbiddenException}); a key
   * that is no valid storage path is a bad request.
   */
  interface RepoObjectSession {

    /** The secret the session's requests are signed with. */
    String secretAccessKey();

    Optional<StoredObjectInfo> head(String key);

    /** {@code length} bytes from {@code offset} (negative: to the end). */
    Optional<StoredObjectContent> get(String key, long offset, long length);

    StoredObjectInfo put(String key, InputStream data, long length,
        WritePrecondition precondition);

    /**
     * One page of the keys that start with {@code prefix} (a string prefix, as in S3), after
     * {@code startAfter}; with a delimiter, the keys that hold it after the prefix are folded into
     * common prefixes.
     */
    StoredObjectListing list(String prefix, Optional<String> delimiter,
        Optional<String> startAfter, int maxKeys);

    /** Deletes the objects of {@code keys}, once every key has passed the session's rule. */
    void delete(List<String> keys);
  }
}
