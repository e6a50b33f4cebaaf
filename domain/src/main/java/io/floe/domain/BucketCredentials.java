package io.floe.domain;

import java.util.Optional;

/**
 * How the server authenticates to a bucket. {@code AMBIENT} uses the environment of the server
 * (instance role, workload identity, default credential chain); {@code STATIC} carries keys; a
 * role to assume for vending table-scoped credentials may accompany either.
 */
public record BucketCredentials(
    Kind kind,
    Optional<String> accessKeyId,
    Optional<String> secretAccessKey,
    Optional<String> roleArn) {

  public enum Kind { AMBIENT, STATIC, NONE }

  public static BucketCredentials none() {
    return new BucketCredentials(Kind.NONE, Optional.empty(), Optional.empty(), Optional.empty());
  }

  public static BucketCredentials ambient() {
    return new BucketCredentials(Kind.AMBIENT, Optional.empty(), Optional.empty(), Optional.empty());
  }

  public static BucketCredentials staticKeys(String accessKeyId, String secretAccessKey) {
    return new BucketCredentials(Kind.STATIC, Optional.of(accessKeyId), Optional.of(secretAccessKey),
        Optional.empty());
  }

  public BucketCredentials withRole(String roleArn) {
    return new BucketCredentials(kind, accessKeyId, secretAccessKey, Optional.ofNullable(roleArn));
  }

  @Override
  public String toString() {
    // Never print secrets, not even by accident in a log line.
    return "BucketCredentials[" + kind + roleArn.map(r -> ", role=" + r).orElse("") + "]";
  }
}
