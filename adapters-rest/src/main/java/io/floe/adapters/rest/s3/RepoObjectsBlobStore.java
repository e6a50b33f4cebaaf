package io.floe.adapters.rest.s3;

import io.floe.application.model.PreconditionFailedException;
import io.floe.application.model.StoredObjectContent;
import io.floe.application.model.StoredObjectInfo;
import io.floe.application.model.StoredObjectListing;
import io.floe.application.model.WritePrecondition;
import io.floe.application.port.in.repo.RepoObjectsUseCase.RepoObjectSession;
import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.gaul.s3proxy.PutOptions2;
import org.jclouds.Context;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.KeyNotFoundException;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.BlobAccess;
import org.jclouds.blobstore.domain.BlobBuilder;
import org.jclouds.blobstore.domain.BlobMetadata;
import org.jclouds.blobstore.domain.ContainerAccess;
import org.jclouds.blobstore.domain.MultipartPart;
import org.jclouds.blobstore.domain.MultipartUpload;
import org.jclouds.blobstore.domain.MutableBlobMetadata;
import org.jclouds.blobstore.domain.PageSet;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.domain.StorageType;
import org.jclouds.blobstore.domain.internal.BlobBuilderImpl;
import org.jclouds.blobstore.domain.internal.BlobImpl;
import org.jclouds.blobstore.domain.internal.MutableBlobMetadataImpl;
import org.jclouds.blobstore.domain.internal.PageSetImpl;
import org.jclouds.blobstore.domain.internal.StorageMetadataImpl;
import org.jclouds.blobstore.options.CopyOptions;
import org.jclouds.blobstore.options.CreateContainerOptions;
import org.jclouds.blobstore.options.GetOptions;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.jclouds.blobstore.options.PutOptions;
import org.jclouds.domain.Location;
import org.jclouds.io.Payload;
import org.jclouds.io.Payloads;
import org.jclouds.providers.ProviderMetadata;

/**
 * One session's repo objects in the shape s3proxy's S3 handler drives: jclouds' blob store. The
 * endpoint has one bucket, {@value LocalBucketEndpoint#BUCKET}; every object operation goes to
 * the session, which confines it to the repo's prefix. What the endpoint does not offer (other
 * buckets, access control lists, multipart uploads) is refused as not implemented.
 */
final class RepoObjectsBlobStore implements BlobStore {
  private static final String CONTENT_TYPE = "application/octet-stream";
  /** The blob store's id as the handler reads it: none of the quirks it knows apply. */
  private static final String PROVIDER_ID = "floe-local";
  private static final BlobStoreContext CONTEXT = context();

  private final RepoObjectSession session;

  RepoObjectsBlobStore(RepoObjectSession session) {
    this.session = session;
  }

  @Override
  public BlobStoreContext getContext() {
    return CONTEXT;
  }

  @Override
  public BlobBuilder blobBuilder(String name) {
    return new BlobBuilderImpl().name(name);
  }

  @Override
  public boolean containerExists(String container) {
    return LocalBucketEndpoint.BUCKET.equals(container);
  }

  @Override
  public ContainerAccess getContainerAccess(String container) {
    requireBucket(container);
    return ContainerAccess.PRIVATE;
  }

  @Override
  public BlobAccess getBlobAccess(String container, String name) {
    requireBucket(container);
    return BlobAccess.PRIVATE;
  }

  @Override
  public PageSet<? extends StorageMetadata> list(String container, ListContainerOptions options) {
    requireBucket(container);
    int max = options.getMaxResults() == null ? 1000 : options.getMaxResults();
    StoredObjectListing listing = session.list(options.getPrefix(),
        Optional.ofNullable(options.getDelimiter()), Optional.ofNullable(options.getMarker()),
        max);
    List<StorageMetadata> entries = new ArrayList<>();
    for (StoredObjectInfo object : listing.objects()) {
      Date modified = Date.from(object.lastModified());
      entries.add(new StorageMetadataImpl(StorageType.BLOB, null, object.key().value(), null,
          null, quoted(object.etag()), modified, modified, Map.of(), object.size(), null));
    }
    for (String common : listing.commonPrefixes()) {
      entries.add(new StorageMetadataImpl(StorageType.RELATIVE_PATH, null, common, null, null,
          null, null, null, Map.of(), null, null));
    }
    return new PageSetImpl<>(entries, listing.continueAfter().orElse(null));
  }

  @Override
  public PageSet<? extends StorageMetadata> list(String container) {
    return list(container, new ListContainerOptions());
  }

  @Override
  public boolean blobExists(String container, String name) {
    requireBucket(container);
    return session.head(name).isPresent();
  }

  @Override
  public BlobMetadata blobMetadata(String container, String name) {
    requireBucket(container);
    return session.head(name).map(info -> metadata(info, info.size())).orElse(null);
  }

  @Override
  public Blob getBlob(String container, String name) {
    return getBlob(container, name, GetOptions.NONE);
  }

  @Override
  public Blob getBlob(String container, String name, GetOptions options) {
    requireBucket(container);
    if (options.getRanges().size() > 1) {
      throw new UnsupportedOperationException("one byte range at a time");
    }
    Optional<StoredObjectInfo> head = session.head(name);
    if (head.isEmpty()) {
      return null;
    }
    requireConditions(head.get(), options);
    long[] range = options.getRanges().isEmpty() ? new long[] {0, -1}
        : ByteRanges.resolve(options.getRanges().get(0), head.get().size());
    Optional<StoredObjectContent> content = session.get(name, range[0], range[1]);
    if (content.isEmpty()) {
      return null;
    }
    StoredObjectContent read = content.get();
    if (!read.info().etag().equals(head.get().etag())) {
      // Replaced between the check and the read: conditions hold for the old object only.
      read.close();
      requireConditions(read.info(), options);
    }
    BlobImpl blob = new BlobImpl(metadata(read.info(), read.length()));
    Payload payload = Payloads.newInputStreamPayload(read.stream());
    payload.getContentMetadata().setContentLength(read.length());
    payload.getContentMetadata().setContentType(CONTENT_TYPE);
    blob.setPayload(payload);
    blob.getMetadata().setContentMetadata(payload.getContentMetadata());
    if (!options.getRanges().isEmpty()) {
      long last = read.offset() + read.length() - 1;
      blob.getAllHeaders().put("Content-Range",
          "bytes " + read.offset() + "-" + last + "/" + read.info().size());
    }
    return blob;
  }

  @Override
  public String putBlob(String container, Blob blob) {
    return putBlob(container, blob, PutOptions.NONE);
  }

  @Override
  public String putBlob(String container, Blob blob, PutOptions options) {
    requireBucket(container);
    WritePrecondition precondition = options instanceof PutOptions2 conditional
        ? new WritePrecondition(Optional.ofNullable(conditional.getIfMatch()),
            Optional.ofNullable(conditional.getIfNoneMatch()))
        : WritePrecondition.none();
    Long length = blob.getMetadata().getContentMetadata().getContentLength();
    if (length == null) {
      throw new IllegalArgumentException("a PUT needs a Content-Length");
    }
    try (InputStream data = blob.getPayload().openStream()) {
      return quoted(session.put(blob.getMetadata().getName(), data, length, precondition).etag());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Copies within the session's prefix (Icechunk backs up its repo file this way), under the
   * source conditions of the request: read whole from the source, written as a new object.
   */
  @Override
  public String copyBlob(String fromContainer, String fromName, String toContainer,
      String toName, CopyOptions options) {
    requireBucket(fromContainer);
    requireBucket(toContainer);
    StoredObjectInfo source = session.head(fromName).orElseThrow(() ->
        new KeyNotFoundException(fromContainer, fromName, "no such object to copy"));
    WritePrecondition condition = new WritePrecondition(Optional.ofNullable(options.ifMatch()),
        Optional.ofNullable(options.ifNoneMatch()));
    if (!condition.holdsFor(Optional.of(source.etag()))) {
      throw new PreconditionFailedException("the copy source does not match its conditions");
    }
    try (StoredObjectContent content = session.get(fromName, 0, -1).orElseThrow(() ->
        new KeyNotFoundException(fromContainer, fromName, "no such object to copy"))) {
      if (!content.info().etag().equals(source.etag()) && !condition.isNone()) {
        throw new PreconditionFailedException("the copy source changed while it was read");
      }
      return quoted(session.put(toName, content.stream(), content.length(),
          WritePrecondition.none()).etag());
    }
  }

  @Override
  public void removeBlob(String container, String name) {
    requireBucket(container);
    session.delete(List.of(name));
  }

  @Override
  public void removeBlobs(String container, Iterable<String> names) {
    requireBucket(container);
    List<String> keys = new ArrayList<>();
    names.forEach(keys::add);
    session.delete(keys);
  }

  @Override
  public long getMinimumMultipartPartSize() {
    return 5L * 1024 * 1024;
  }

  @Override
  public long getMaximumMultipartPartSize() {
    return 5L * 1024 * 1024 * 1024;
  }

  @Override
  public int getMaximumNumberOfParts() {
    return 10_000;
  }

  // What the endpoint does not offer.

  @Override
  public Set<? extends Location> listAssignableLocations() {
    throw notOffered("locations");
  }

  @Override
  public PageSet<? extends StorageMetadata> list() {
    throw notOffered("listing buckets");
  }

  @Override
  public boolean createContainerInLocation(Location location, String container) {
    throw notOffered("creating buckets");
  }

  @Override
  public boolean createContainerInLocation(Location location, String container,
      CreateContainerOptions options) {
    throw notOffered("creating buckets");
  }

  @Override
  public void setContainerAccess(String container, ContainerAccess access) {
    throw notOffered("bucket access control lists");
  }

  @Override
  public void clearContainer(String container) {
    throw notOffered("clearing buckets");
  }

  @Override
  public void clearContainer(String container, ListContainerOptions options) {
    throw notOffered("clearing buckets");
  }

  @Override
  public void deleteContainer(String container) {
    throw notOffered("deleting buckets");
  }

  @Override
  public boolean deleteContainerIfEmpty(String container) {
    throw notOffered("deleting buckets");
  }

  @Override
  public boolean directoryExists(String container, String directory) {
    throw notOffered("directories");
  }

  @Override
  public void createDirectory(String container, String directory) {
    throw notOffered("directories");
  }

  @Override
  public void deleteDirectory(String container, String directory) {
    throw notOffered("directories");
  }


  @Override
  public void setBlobAccess(String container, String name, BlobAccess access) {
    throw notOffered("object access control lists");
  }

  @Override
  public long countBlobs(String container) {
    throw notOffered("counting objects");
  }

  @Override
  public long countBlobs(String container, ListContainerOptions options) {
    throw notOffered("counting objects");
  }

  @Override
  public MultipartUpload initiateMultipartUpload(String container, BlobMetadata metadata,
      PutOptions options) {
    throw notOffered("multipart uploads");
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) {
    throw notOffered("multipart uploads");
  }

  @Override
  public String completeMultipartUpload(MultipartUpload upload, List<MultipartPart> parts) {
    throw notOffered("multipart uploads");
  }

  @Override
  public MultipartPart uploadMultipartPart(MultipartUpload upload, int part, Payload payload) {
    throw notOffered("multipart uploads");
  }

  @Override
  public List<MultipartPart> listMultipartUpload(MultipartUpload upload) {
    throw notOffered("multipart uploads");
  }

  @Override
  public List<MultipartUpload> listMultipartUploads(String container) {
    throw notOffered("multipart uploads");
  }

  @Override
  public void downloadBlob(String container, String name, File destination) {
    throw notOffered("downloads to files");
  }

  @Override
  public void downloadBlob(String container, String name, File destination,
      ExecutorService executor) {
    throw notOffered("downloads to files");
  }

  @Override
  public InputStream streamBlob(String container, String name) {
    throw notOffered("parallel streams");
  }

  @Override
  public InputStream streamBlob(String container, String name, ExecutorService executor) {
    throw notOffered("parallel streams");
  }

  private static MutableBlobMetadata metadata(StoredObjectInfo info, long length) {
    MutableBlobMetadata metadata = new MutableBlobMetadataImpl();
    metadata.setName(info.key().value());
    metadata.setContainer(LocalBucketEndpoint.BUCKET);
    metadata.setETag(quoted(info.etag()));
    metadata.setLastModified(Date.from(info.lastModified()));
    metadata.setSize(info.size());
    metadata.setType(StorageType.BLOB);
    metadata.setUserMetadata(Map.of());
    metadata.getContentMetadata().setContentLength(length);
    metadata.getContentMetadata().setContentType(CONTENT_TYPE);
    return metadata;
  }

  /** A GET's If-Match and If-None-Match, against the object about to be read. */
  private static void requireConditions(StoredObjectInfo info, GetOptions options) {
    WritePrecondition match = new WritePrecondition(Optional.ofNullable(options.getIfMatch()),
        Optional.empty());
    if (!match.holdsFor(Optional.of(info.etag()))) {
      throw new PreconditionFailedException("the object's entity tag does not match");
    }
    WritePrecondition noneMatch = new WritePrecondition(Optional.empty(),
        Optional.ofNullable(options.getIfNoneMatch()));
    if (!noneMatch.holdsFor(Optional.of(info.etag()))) {
      throw new NotModifiedException();
    }
  }

  private static String quoted(String etag) {
    return "\"" + etag + "\"";
  }

  private static void requireBucket(String container) {
    if (!LocalBucketEndpoint.BUCKET.equals(container)) {
      throw new NoSuchBucketException(container);
    }
  }

  private static UnsupportedOperationException notOffered(String what) {
    return new UnsupportedOperationException("Floe's S3 endpoint for local buckets does not "
        + "offer " + what);
  }

  /**
   * The context the handler asks for the blob store's provider id, and nothing else: a proxy
   * answers that one question and refuses every other.
   */
  private static BlobStoreContext context() {
    ProviderMetadata provider = proxy(ProviderMetadata.class, "getId", PROVIDER_ID);
    Context context = proxy(Context.class, "getProviderMetadata", provider);
    return proxy(BlobStoreContext.class, "unwrap", context);
  }

  private static <T> T proxy(Class<T> type, String method, Object answer) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (self, called, args) -> {
          if (called.getName().equals(method) && (args == null || args.length == 0)) {
            return answer;
          }
          if (called.getName().equals("toString") && args == null) {
            return PROVIDER_ID;
          }
          throw notOffered("the blob store context's " + called.getName());
        }));
  }

  /** A GET's If-None-Match matched: the client has this version already. */
  static final class NotModifiedException extends RuntimeException {
    NotModifiedException() {
      super("not modified");
    }
  }

  /** A request for another bucket than the endpoint's one. */
  static final class NoSuchBucketException extends RuntimeException {
    NoSuchBucketException(String bucket) {
      super("The endpoint serves only the bucket " + LocalBucketEndpoint.BUCKET);
    }
  }
}
