package io.floe.application.port.out;

import io.floe.application.model.StoredObjectContent;
import io.floe.application.model.StoredObjectInfo;
import io.floe.application.model.WritePrecondition;
import io.floe.domain.StoragePath;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * One bucket's objects as streams, each with an entity tag a client can hold and compare: what an
 * S3 endpoint serving the bucket needs. Objects are never held in memory whole. A write is atomic
 * (a reader sees the old object or the new one) and durable once it returns; a conditional write
 * compares and replaces under the same lock as {@link BucketStorage#putIfVersion}.
 */
public interface StreamingBucketStorage {

  Optional<StoredObjectInfo> stat(StoragePath key);

  /**
   * {@code length} bytes of the object from {@code offset} (fewer at its end; a negative length
   * reads to the end); empty when there is no such object.
   */
  Optional<StoredObjectContent> read(StoragePath key, long offset, long length);

  /**
   * Stores exactly {@code length} bytes of {@code data} at {@code key} if {@code precondition}
   * holds for what is there, else throws
   * {@link io.floe.application.model.PreconditionFailedException} and stores nothing. A stream
   * that ends early stores nothing either.
   */
  StoredObjectInfo write(StoragePath key, InputStream data, long length,
      WritePrecondition precondition);

  /**
   * The objects under {@code prefix} (segment-wise) whose keys sort after {@code startAfter}, in
   * key order, at most {@code limit}.
   */
  List<StoredObjectInfo> list(StoragePath prefix, Optional<String> startAfter, int limit);

  void delete(StoragePath key);
}
