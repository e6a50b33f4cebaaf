package io.floe.adapters.storage.s3;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.contract.BucketStorageContract;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.s3.S3Client;

/** The storage contract on an S3-compatible server, with pages small enough to need several. */
class S3BucketStorageOnS3ProxyTest extends BucketStorageContract {
  private static S3ProxyServer server;
  private static S3Client client;
  private static BucketConfig bucket;

  @BeforeAll
  static void startServer() throws Exception {
    server = new S3ProxyServer();
    bucket = server.newBucket("contract");
    client = S3Clients.s3(bucket);
  }

  @AfterAll
  static void stopServer() throws Exception {
    client.close();
    server.close();
  }

  @Override
  protected BucketStorage storage() {
    return new S3BucketStorage(client, bucket, 5);
  }

  @Override
  protected String expectedUri(StoragePath key) {
    return "s3://contract/" + key.value();
  }

  /**
   * s3proxy over a local blob store reads the object's ETag, then writes: measured, 8 racing
   * creators of one key all won.
   */
  @Override
  protected boolean preconditionsAreAtomic() {
    return false;
  }
}
