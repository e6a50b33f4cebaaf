package io.floe.adapters.persistence.jooq;

import io.floe.domain.BucketCredentials;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jooq.JSONB;

/**
 * A bucket's credentials as the database keeps them: their JSON, sealed by the {@link SecretCipher}
 * for the bucket's row. Rows an older version wrote in plain text are read as they are until the
 * {@link BucketCredentialSealing} pass seals them.
 */
final class SealedCredentials {
  private final SecretCipher cipher;

  SealedCredentials(SecretCipher cipher) {
    this.cipher = cipher;
  }

  String seal(UUID bucketId, BucketCredentials credentials) {
    return cipher.seal(Json.of(toJson(credentials)).data(), boundTo(bucketId));
  }

  BucketCredentials open(UUID bucketId, String sealed, JSONB plainText) {
    JSONB json = sealed != null ? JSONB.valueOf(cipher.open(sealed, boundTo(bucketId))) : plainText;
    return fromJson(Json.stringMap(json));
  }

  /** The associated data a bucket's credentials are sealed with: they open in this row only. */
  static String boundTo(UUID bucketId) {
    return "bucket configuration " + bucketId;
  }

  private static Map<String, String> toJson(BucketCredentials credentials) {
    Map<String, String> json = new LinkedHashMap<>();
    json.put("kind", credentials.kind().name());
    credentials.accessKeyId().ifPresent(value -> json.put("access_key_id", value));
    credentials.secretAccessKey().ifPresent(value -> json.put("secret_access_key", value));
    credentials.roleArn().ifPresent(value -> json.put("role_arn", value));
    return json;
  }

  private static BucketCredentials fromJson(Map<String, String> json) {
    BucketCredentials.Kind kind = BucketCredentials.Kind.valueOf(
        json.getOrDefault("kind", BucketCredentials.Kind.NONE.name()));
    return new BucketCredentials(kind, Optional.ofNullable(json.get("access_key_id")),
        Optional.ofNullable(json.get("secret_access_key")),
        Optional.ofNullable(json.get("role_arn")));
  }
}
