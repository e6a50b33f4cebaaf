package io.floe.adapters.storage.gcs;

import com.google.api.gax.paging.Page;
import com.google.cloud.ReadChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.Storage.BlobTargetOption;
import io.floe.adapters.storage.shared.BucketPrefix;
import io.floe.adapters.storage.shared.StorageFailures;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.StorageException;
import io.floe.application.port.out.StoredObject;
import io.floe.domain.BucketConfig;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A bucket on Google Cloud Storage. Conditional writes are generation preconditions, which GCS
 * evaluates atomically: {@code ifGenerationMatch=0} to create, the generation read to replace.
 * An object's version is its generation.
 */
public final class GcsBucketStorage implements BucketStorage {
  static final int MAX_PAGE = 1000;
  private static final int PRECONDITION_FAILED = 412;
  private static final int NOT_FOUND = 404;
  private static final int RANGE_NOT_SATISFIABLE = 416;

  private final Storage storage;
  private final BucketConfig bucket;
  private final int pageSize;
  private final boolean batchDeletes;

  public GcsBucketStorage(Storage storage, BucketConfig bucket) {
    this(storage, bucket, MAX_PAGE, true);
  }

  /**
   * A smaller page size lets tests walk through many pages with few objects; without batch
   * deletes, objects are deleted one request each (for servers whose batch answers the client
   * cannot read).
   */
  GcsBucketStorage(Storage storage, BucketConfig bucket, int pageSize, boolean batchDeletes) {
    if (pageSize < 1 || pageSize > MAX_PAGE) {
      throw new IllegalArgumentException("page size must be 1.." + MAX_PAGE);
    }
    this.storage = storage;
    this.bucket = bucket;
    this.pageSize = pageSize;
    this.batchDeletes = batchDeletes;
  }

  @Override
  public Optional<StoredObject> get(StoragePath key) {
    return call("read", key, () -> {
      Blob blob = storage.get(blobId(key));
      if (blob == null) {
        return Optional.empty();
      }
      try {
        // Read the very generation whose metadata was fetched: the pair must match.
        byte[] data = storage.readAllBytes(blob.getBlobId(),
            Storage.BlobSourceOption.generationMatch(blob.getGeneration()));
        return Optional.of(new StoredObject(data, Long.toString(blob.getGeneration())));
      } catch (com.google.cloud.storage.StorageException e) {
        if (e.getCode() == NOT_FOUND || e.getCode() == PRECONDITION_FAILED) {
          return get(key); // replaced or deleted in between: read what is there now
        }
        throw e;
      }
    });
  }

  @Override
  public Optional<byte[]> getRange(StoragePath key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("offset and length must not be negative");
    }
    if (length == 0) {
      return exists(key) ? Optional.of(new byte[0]) : Optional.empty();
    }
    return call("read", key, () -> {
      try (ReadChannel reader = storage.reader(blobId(key))) {
        reader.seek(offset);
        reader.limit(offset + length);
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining() && reader.read(buffer) >= 0) {
          // keep reading until the range is full or the object ends
        }
        return Optional.of(Arrays.copyOf(buffer.array(), buffer.position()));
      } catch (IOException e) {
        return handleReadFailure(e);
      } catch (com.google.cloud.storage.StorageException e) {
        return handleReadFailure(e);
      }
    });
  }

  private static Optional<byte[]> handleReadFailure(Exception failure) {
    com.google.cloud.storage.StorageException cause = storageCause(failure);
    if (cause != null && cause.getCode() == NOT_FOUND) {
      return Optional.empty();
    }
    if (cause != null && cause.getCode() == RANGE_NOT_SATISFIABLE) {
      return Optional.of(new byte[0]); // the object exists but ends before the offset
    }
    throw failure instanceof RuntimeException runtime ? runtime
        : new com.google.cloud.storage.StorageException((IOException) failure);
  }

  private static com.google.cloud.storage.StorageException storageCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof com.google.cloud.storage.StorageException storageException) {
        return storageException;
      }
    }
    return null;
  }

  @Override
  public void put(StoragePath key, byte[] data) {
    call("write", key, () -> storage.create(BlobInfo.newBuilder(blobId(key)).build(), data));
  }

  @Override
  public boolean putIfAbsent(StoragePath key, byte[] data) {
    return conditionalCreate(key, BlobInfo.newBuilder(blobId(key)).build(), data,
        BlobTargetOption.doesNotExist());
  }

  @Override
  public boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion) {
    long generation;
    try {
      generation = Long.parseLong(expectedVersion);
    } catch (NumberFormatException e) {
      return false; // not a version this store ever handed out
    }
    BlobId current = BlobId.of(bucket.bucket(), objectName(key), generation);
    return conditionalCreate(key, BlobInfo.newBuilder(current).build(), data,
        BlobTargetOption.generationMatch());
  }

  private boolean conditionalCreate(StoragePath key, BlobInfo info, byte[] data,
      BlobTargetOption precondition) {
    return call("write", key, () -> {
      try {
        storage.create(info, data, precondition);
        return true;
      } catch (com.google.cloud.storage.StorageException e) {
        if (e.getCode() == PRECONDITION_FAILED || e.getCode() == NOT_FOUND) {
          return false;
        }
        throw e;
      }
    });
  }

  @Override
  public boolean exists(StoragePath key) {
    return call("check", key, () -> storage.get(blobId(key)) != null);
  }

  @Override
  public List<StoragePath> list(StoragePath prefix, int limit) {
    List<StoragePath> keys = new ArrayList<>();
    for (Blob blob : listing(prefix).iterateAll()) {
      if (keys.size() == limit) {
        break;
      }
      toStoragePath(blob.getName()).ifPresent(keys::add);
    }
    return keys;
  }

  @Override
  public List<ListedObject> listObjects(StoragePath prefix, int limit) {
    List<ListedObject> out = new ArrayList<>();
    for (Blob blob : listing(prefix).iterateAll()) {
      if (out.size() == limit) {
        break;
      }
      toStoragePath(blob.getName()).ifPresent(key -> out.add(new ListedObject(key,
          blob.getSize() == null ? 0 : blob.getSize(), lastWritten(blob))));
    }
    return out;
  }

  /** A generation's creation is the last write of the object (objects are never modified). */
  private static Instant lastWritten(Blob blob) {
    if (blob.getUpdateTimeOffsetDateTime() != null) {
      return blob.getUpdateTimeOffsetDateTime().toInstant();
    }
    return blob.getCreateTimeOffsetDateTime() == null ? Instant.EPOCH
        : blob.getCreateTimeOffsetDateTime().toInstant();
  }

  /** Anything at all counts, including names no {@link StoragePath} can hold ({@code a/b/}). */
  @Override
  public boolean isEmptyUnder(StoragePath prefix) {
    return call("list", prefix, () -> !storage.list(bucket.bucket(),
        BlobListOption.prefix(listPrefix(prefix)), BlobListOption.pageSize(1))
        .getValues().iterator().hasNext());
  }

  @Override
  public void delete(StoragePath key) {
    call("delete", key, () -> storage.delete(blobId(key)));
  }

  @Override
  public long deleteUnder(StoragePath prefix) {
    if (prefix.isRoot()) {
      throw new IllegalArgumentException("refusing to delete a whole bucket");
    }
    long deleted = 0;
    Page<Blob> page = listing(prefix);
    while (page != null) {
      List<BlobId> ids = new ArrayList<>();
      page.getValues().forEach(blob -> ids.add(BlobId.of(bucket.bucket(), blob.getName())));
      if (!ids.isEmpty()) {
        deleted += deleteAll(prefix, ids);
      }
      page = page.hasNextPage() ? call("list", prefix, page::getNextPage) : null;
    }
    return deleted;
  }

  /** One batch request per page; an object already gone was deleted by someone else. */
  private long deleteAll(StoragePath prefix, List<BlobId> ids) {
    if (batchDeletes) {
      return call("delete", prefix, () -> storage.delete(ids)).stream()
          .filter(Boolean::booleanValue).count();
    }
    long deleted = 0;
    for (BlobId id : ids) {
      if (call("delete", prefix, () -> storage.delete(id))) {
        deleted++;
      }
    }
    return deleted;
  }

  @Override
  public String uri(StoragePath key) {
    return bucket.uriOf(key);
  }

  private Page<Blob> listing(StoragePath prefix) {
    return call("list", prefix, () -> storage.list(bucket.bucket(),
        BlobListOption.prefix(listPrefix(prefix)), BlobListOption.pageSize(pageSize)));
  }

  private BlobId blobId(StoragePath key) {
    return BlobId.of(bucket.bucket(), objectName(key));
  }

  /** Segment-wise: the prefix {@code a} must not match {@code ab/c}. */
  private String listPrefix(StoragePath prefix) {
    BucketPrefix.require(bucket, prefix);
    return prefix.isRoot() ? "" : prefix.value() + "/";
  }

  private String objectName(StoragePath key) {
    if (key.isRoot()) {
      throw new IllegalArgumentException("an object key must not be empty");
    }
    return BucketPrefix.require(bucket, key).value();
  }

  private static Optional<StoragePath> toStoragePath(String name) {
    try {
      return Optional.of(new StoragePath(name));
    } catch (DomainException e) {
      return Optional.empty();
    }
  }

  private <T> T call(String verb, StoragePath key, Supplier<T> action) {
    try {
      return action.get();
    } catch (com.google.cloud.BaseServiceException e) {
      throw StorageFailures.of(bucket, "could not " + verb + " '" + key + "'", e);
    }
  }
}
