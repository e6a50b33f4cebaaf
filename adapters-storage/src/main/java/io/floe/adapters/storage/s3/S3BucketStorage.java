package io.floe.adapters.storage.s3;

import io.floe.adapters.storage.shared.BucketPrefix;
import io.floe.adapters.storage.shared.StorageFailures;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.StorageException;
import io.floe.application.port.out.StoredObject;
import io.floe.domain.BucketConfig;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A bucket on S3 or an S3-compatible store. Conditional writes use the HTTP preconditions S3
 * evaluates atomically on the server: {@code If-None-Match: *} to create, {@code If-Match: <etag>}
 * to replace. An object's version is its ETag.
 */
public final class S3BucketStorage implements BucketStorage {
  /** The most keys S3 lists, or deletes, in one request. */
  static final int MAX_PAGE = 1000;

  private static final int PRECONDITION_FAILED = 412;
  private static final int NOT_FOUND = 404;
  private static final int RANGE_NOT_SATISFIABLE = 416;
  private static final int NOT_IMPLEMENTED = 501;
  /** S3 answers 409 while another conditional write to the same key is in flight. */
  private static final int CONDITIONAL_CONFLICT = 409;
  private static final int CONFLICT_RETRIES = 5;

  private final S3Client s3;
  private final BucketConfig bucket;
  private final int pageSize;
  private volatile boolean batchDeletes = true;

  public S3BucketStorage(S3Client s3, BucketConfig bucket) {
    this(s3, bucket, MAX_PAGE);
  }

  /** A smaller page size lets tests walk through many pages with few objects. */
  S3BucketStorage(S3Client s3, BucketConfig bucket, int pageSize) {
    if (pageSize < 1 || pageSize > MAX_PAGE) {
      throw new IllegalArgumentException("page size must be 1.." + MAX_PAGE);
    }
    this.s3 = s3;
    this.bucket = bucket;
    this.pageSize = pageSize;
  }

  @Override
  public Optional<StoredObject> get(StoragePath key) {
    return call("read", key, () -> {
      try {
        ResponseBytes<GetObjectResponse> object = s3.getObjectAsBytes(b -> b
            .bucket(bucket.bucket()).key(objectKey(key)));
        return Optional.of(new StoredObject(object.asByteArray(), object.response().eTag()));
      } catch (NoSuchKeyException e) {
        return Optional.empty();
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
      try {
        return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket.bucket())
            .key(objectKey(key))
            .range("bytes=" + offset + "-" + (offset + length - 1))).asByteArray());
      } catch (NoSuchKeyException e) {
        return Optional.empty();
      } catch (S3Exception e) {
        if (e.statusCode() == RANGE_NOT_SATISFIABLE) {
          return Optional.of(new byte[0]); // the object exists but ends before offset
        }
        throw e;
      }
    });
  }

  @Override
  public void put(StoragePath key, byte[] data) {
    call("write", key, () -> s3.putObject(request(key).build(), RequestBody.fromBytes(data)));
  }

  @Override
  public boolean putIfAbsent(StoragePath key, byte[] data) {
    return conditionalPut(key, data, request -> request.ifNoneMatch("*"));
  }

  @Override
  public boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion) {
    return conditionalPut(key, data, request -> request.ifMatch(expectedVersion));
  }

  private boolean conditionalPut(StoragePath key, byte[] data,
      Function<PutObjectRequest.Builder, PutObjectRequest.Builder> precondition) {
    PutObjectRequest request = precondition.apply(request(key)).build();
    return call("write", key, () -> {
      for (int attempt = 1; ; attempt++) {
        try {
          s3.putObject(request, RequestBody.fromBytes(data));
          return true;
        } catch (S3Exception e) {
          // 412: the precondition failed; 404: If-Match on an object that is gone.
          if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == NOT_FOUND) {
            return false;
          }
          if (e.statusCode() != CONDITIONAL_CONFLICT || attempt == CONFLICT_RETRIES) {
            throw e;
          }
          pause(attempt);
        }
      }
    });
  }

  @Override
  public boolean exists(StoragePath key) {
    return call("check", key, () -> {
      try {
        s3.headObject(b -> b.bucket(bucket.bucket()).key(objectKey(key)));
        return true;
      } catch (NoSuchKeyException e) {
        return false;
      } catch (S3Exception e) {
        if (e.statusCode() == NOT_FOUND) {
          return false;
        }
        throw e;
      }
    });
  }

  @Override
  public List<StoragePath> list(StoragePath prefix, int limit) {
    List<StoragePath> keys = new ArrayList<>();
    forEachPage(prefix, page -> {
      for (S3Object object : page.contents()) {
        if (keys.size() == limit) {
          return false;
        }
        toStoragePath(object.key()).ifPresent(keys::add);
      }
      return keys.size() < limit;
    });
    return keys;
  }

  @Override
  public List<ListedObject> listObjects(StoragePath prefix, int limit) {
    List<ListedObject> out = new ArrayList<>();
    forEachPage(prefix, page -> {
      for (S3Object object : page.contents()) {
        if (out.size() == limit) {
          return false;
        }
        toStoragePath(object.key()).ifPresent(key ->
            out.add(new ListedObject(key, object.size(), object.lastModified())));
      }
      return out.size() < limit;
    });
    return out;
  }

  /**
   * Anything at all counts, including keys no {@link StoragePath} can name (folder markers such
   * as {@code a/b/}, which consoles create): a prefix holding them is not free to claim.
   */
  @Override
  public boolean isEmptyUnder(StoragePath prefix) {
    return call("list", prefix, () -> s3.listObjectsV2(b -> b.bucket(bucket.bucket())
        .prefix(listPrefix(prefix)).maxKeys(1)).contents().isEmpty());
  }

  @Override
  public void delete(StoragePath key) {
    call("delete", key, () -> s3.deleteObject(b -> b.bucket(bucket.bucket()).key(objectKey(key))));
  }

  @Override
  public long deleteUnder(StoragePath prefix) {
    if (prefix.isRoot()) {
      throw new IllegalArgumentException("refusing to delete a whole bucket");
    }
    long[] deleted = {0};
    forEachPage(prefix, page -> {
      if (!page.contents().isEmpty()) {
        deleted[0] += deleteBatch(prefix, page.contents());
      }
      return true;
    });
    return deleted[0];
  }

  private int deleteBatch(StoragePath prefix, List<S3Object> objects) {
    if (!batchDeletes) {
      return deleteOneByOne(prefix, objects);
    }
    List<ObjectIdentifier> ids = objects.stream()
        .map(object -> ObjectIdentifier.builder().key(object.key()).build())
        .toList();
    DeleteObjectsResponse response;
    try {
      response = s3.deleteObjects(b -> b
          .bucket(bucket.bucket())
          .delete(Delete.builder().objects(ids).quiet(true).build()));
    } catch (S3Exception e) {
      if (e.statusCode() != NOT_IMPLEMENTED) {
        throw failure("delete", prefix, e);
      }
      // Some S3-compatible stores lack batch deletes, or refuse the checksum header the SDK
      // sends with them (s3proxy does): fall back to one request per object from now on.
      batchDeletes = false;
      return deleteOneByOne(prefix, objects);
    } catch (SdkException e) {
      throw failure("delete", prefix, e);
    }
    if (response.hasErrors() && !response.errors().isEmpty()) {
      var first = response.errors().get(0);
      throw new StorageException("could not delete " + response.errors().size() + " objects under '"
          + prefix + "' in " + bucket.uriOf(StoragePath.root()) + ", first '" + first.key() + "': "
          + first.code() + " " + first.message());
    }
    return ids.size();
  }

  private int deleteOneByOne(StoragePath prefix, List<S3Object> objects) {
    for (S3Object object : objects) {
      call("delete", prefix, () -> s3.deleteObject(b -> b.bucket(bucket.bucket())
          .key(object.key())));
    }
    return objects.size();
  }

  @Override
  public String uri(StoragePath key) {
    return bucket.uriOf(key);
  }

  /** Walks the listing under {@code prefix} page by page while {@code visitor} says go on. */
  private void forEachPage(StoragePath prefix, Function<ListObjectsV2Response, Boolean> visitor) {
    String token = null;
    do {
      String continuation = token;
      ListObjectsV2Response page = call("list", prefix, () -> s3.listObjectsV2(b -> b
          .bucket(bucket.bucket())
          .prefix(listPrefix(prefix))
          .maxKeys(pageSize)
          .continuationToken(continuation)));
      if (!visitor.apply(page)) {
        return;
      }
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
  }

  private PutObjectRequest.Builder request(StoragePath key) {
    return PutObjectRequest.builder().bucket(bucket.bucket()).key(objectKey(key));
  }

  /** Segment-wise: the prefix {@code a} must not match {@code ab/c}. */
  private String listPrefix(StoragePath prefix) {
    BucketPrefix.require(bucket, prefix);
    return prefix.isRoot() ? null : prefix.value() + "/";
  }

  private String objectKey(StoragePath key) {
    if (key.isRoot()) {
      throw new IllegalArgumentException("an object key must not be empty");
    }
    return BucketPrefix.require(bucket, key).value();
  }

  private static Optional<StoragePath> toStoragePath(String key) {
    try {
      return Optional.of(new StoragePath(key));
    } catch (DomainException e) {
      return Optional.empty();
    }
  }

  private static void pause(int attempt) {
    try {
      Thread.sleep(20L << attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while retrying a conditional write", e);
    }
  }

  private <T> T call(String verb, StoragePath key, Supplier<T> action) {
    try {
      return action.get();
    } catch (SdkException e) {
      throw failure(verb, key, e);
    }
  }

  private StorageException failure(String verb, StoragePath key, SdkException cause) {
    return StorageFailures.of(bucket, "could not " + verb + " '" + key + "'", cause);
  }
}
