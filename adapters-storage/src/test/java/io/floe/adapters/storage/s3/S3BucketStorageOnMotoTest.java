package io.floe.adapters.storage.s3;

import io.floe.adapters.storage.servers.MotoServer;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.contract.BucketStorageContract;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.StoragePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The storage contract on moto, a second S3 implementation: it accepts batch deletes with the
 * SDK's checksums and answers If-Match on a missing key with 404, as S3 does.
 */
class S3BucketStorageOnMotoTest extends BucketStorageContract {
  private static MotoServer moto;
  private static S3Client client;
  private static BucketConfig bucket;

  @BeforeAll
  static void startServer() {
    moto = new MotoServer();
    bucket = S3ProxyServer.bucketConfig("contract", moto.endpoint(),
        BucketCredentials.staticKeys(MotoServer.ACCESS_KEY, MotoServer.SECRET_KEY));
    client = S3Clients.s3(bucket);
    client.createBucket(b -> b.bucket("contract"));
  }

  @AfterAll
  static void stopServer() {
    if (client != null) {
      client.close();
    }
    if (moto != null) {
      moto.close();
    }
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
   * moto reads the current object, then writes, with no lock between: measured, 100 rounds of
   * 16 racing creators each had one winner, but only the interpreter's scheduling made it so.
   */
  @Override
  protected boolean preconditionsAreAtomic() {
    return false;
  }
}
