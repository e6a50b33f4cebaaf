package io.floe.adapters.storage.s3;

import io.floe.domain.BucketConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Iceberg's S3FileIO with the server's own access to a bucket: how metadata files are written,
 * and the S3FileIO properties engines need to reach the same bucket.
 */
public final class S3MetadataFileIo {
  private S3MetadataFileIo() {}

  /**
   * The FileIO gets a client of its own, built like the one {@link S3BucketStorage} uses, so
   * both agree on endpoint, addressing and checksums; closing the FileIO closes that client.
   */
  public static FileIO open(BucketConfig bucket) {
    S3Client client = S3Clients.s3(bucket);
    S3FileIO io = new S3FileIO(() -> client);
    Map<String, String> properties = connectionProperties(bucket);
    // S3FileIO retries a failed read on its own, by default 5 times with waits of 2 to 20 s,
    // around the client's calls, which retry already within S3Clients' bound: that is what
    // held requests for a minute when a store was down. The client's retries are enough.
    properties.put(S3FileIOProperties.S3_RETRY_NUM_RETRIES, "0");
    io.initialize(properties);
    return io;
  }

  /** Where the bucket is and how to address it, without any credential. */
  public static Map<String, String> connectionProperties(BucketConfig bucket) {
    Map<String, String> properties = new HashMap<>();
    properties.put(AwsClientProperties.CLIENT_REGION, S3Clients.region(bucket).id());
    properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, Boolean.toString(bucket.pathStyle()));
    bucket.endpoint().ifPresent(endpoint -> properties.put(S3FileIOProperties.ENDPOINT, endpoint));
    return properties;
  }
}
