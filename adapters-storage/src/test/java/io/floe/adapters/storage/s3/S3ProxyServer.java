package io.floe.adapters.storage.s3;

import io.floe.application.testbed.Poll;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * An S3-compatible server in this JVM (s3proxy over an in-memory blob store) on a free loopback
 * port, checking AWS signatures with one fixed key pair.
 */
final class S3ProxyServer implements AutoCloseable {
  static final String ACCESS_KEY = "floe-test-access";
  static final String SECRET_KEY = "floe-test-secret";

  private final BlobStoreContext blobs;
  private final S3Proxy proxy;

  S3ProxyServer() throws Exception {
    blobs = ContextBuilder.newBuilder("transient")
        .credentials("identity", "credential")
        .build(BlobStoreContext.class);
    proxy = S3Proxy.builder()
        .blobStore(blobs.getBlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .build();
    proxy.start();
    if (!Poll.until(() -> "STARTED".equals(proxy.getState()), Duration.ofSeconds(30))) {
      throw new IllegalStateException("s3proxy did not start: " + proxy.getState());
    }
  }

  String endpoint() {
    return "http://127.0.0.1:" + proxy.getPort();
  }

  /** Creates a bucket and returns an s3-compatible bucket configuration with static keys. */
  BucketConfig newBucket(String name) {
    blobs.getBlobStore().createContainerInLocation(null, name);
    return bucketConfig(name, endpoint(), BucketCredentials.staticKeys(ACCESS_KEY, SECRET_KEY));
  }

  static BucketConfig bucketConfig(String name, String endpoint, BucketCredentials credentials) {
    return new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName("test-bucket"),
        StoragePlatform.S3_COMPATIBLE, name, StoragePath.root(), Optional.of(endpoint),
        Optional.of("us-east-1"), true, credentials, false);
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
    blobs.close();
  }
}
