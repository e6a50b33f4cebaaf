package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.in.org.BucketManagementUseCase.BucketUpdate;
import io.floe.application.model.BucketSpec;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.Invalid;
import io.floe.application.model.VisibleBucket;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * An org's bucket configurations under {@code /orgs/{org}/buckets}; a bucket is addressed by its
 * nickname or its id. Responses never carry secrets, and only admins see a configuration: other
 * members get a bucket's id, nickname, platform and default flag. Bodies speak Floe's fields and the arraylake
 * client's ({@link ArraylakeBuckets}); where the two disagree (a platform's name, a local bucket's
 * name) the client's vocabulary is used when the request asks for it.
 */
public final class BucketRoutes implements Consumer<RoutesConfig> {
  private static final String BUCKETS = "/orgs/{org}/buckets";
  private static final String BUCKET = BUCKETS + "/{bucket}";

  /** A bucket configuration as the API shows it. */
  record BucketBody(UUID id, String nickname, String platform, String name, String prefix,
      String endpoint, String region, boolean pathStyle, AuthBody auth, boolean isDefault,
      Map<String, Object> extraConfig, Map<String, Object> authConfig) {}

  /** How the server authenticates to the bucket; the keys themselves are never shown. */
  record AuthBody(String method, String roleArn) {}

  /** A bucket as a member who is no admin sees it: what it is called and where it is. */
  record BucketSummaryBody(UUID id, String nickname, String platform, boolean isDefault) {}

  private final AuthenticateUseCase authentication;
  private final BucketManagementUseCase buckets;

  public BucketRoutes(AuthenticateUseCase authentication, BucketManagementUseCase buckets) {
    this.authentication = authentication;
    this.buckets = buckets;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get(BUCKETS, handle(r -> r.ok(buckets.list(r.scope()).stream()
        .map(bucket -> shown(bucket, r)).toList())));
    routes.post(BUCKETS, handle(r -> {
      JsonFields fields = new JsonFields(r.body(JsonNode.class));
      r.respond(201, body(buckets.create(r.scope(), spec(fields),
          fields.bool("is_default").orElse(false)), r));
    }));
    routes.get(BUCKET, handle(r -> r.ok(shown(buckets.get(r.scope(), bucket(r)), r))));
    routes.patch(BUCKET, handle(r -> {
      JsonFields fields = new JsonFields(r.body(JsonNode.class));
      if (fields.text("nickname").isPresent()) {
        refuseRename(fields, buckets.get(r.scope(), bucket(r)).bucket());
      }
      r.ok(body(buckets.update(r.scope(), bucket(r), update(fields)), r));
    }));
    routes.delete(BUCKET, handle(r -> {
      buckets.delete(r.scope(), bucket(r));
      r.respond(204, null);
    }));
    routes.post(BUCKET + "/default", handle(r -> r.ok(body(
        buckets.makeDefault(r.scope(), bucket(r)), r))));
  }

  /** A bucket configuration from a create body; also the default bucket of a new org. */
  static BucketSpec spec(JsonFields fields) {
    try {
      return new BucketSpec(
          CreateNamespaceCommand.name(fields.text("nickname").orElse(null), "nickname"),
          platform(fields.text("platform").orElseThrow(() ->
              Invalid.because("platform is required"))),
          fields.text("name").orElseThrow(() -> Invalid.because("name (the bucket) is required")),
          StoragePath.parse(fields.text("prefix").orElse("")),
          ArraylakeBuckets.endpoint(fields), ArraylakeBuckets.region(fields),
          ArraylakeBuckets.pathStyle(fields).orElse(false),
          fields.node("auth") != null ? credentials(fields.node("auth"))
              : ArraylakeBuckets.credentials(fields).orElse(BucketCredentials.none()));
    } catch (DomainException e) {
      throw Invalid.because(e.getMessage());
    }
  }

  private static BucketUpdate update(JsonFields fields) {
    // The client's extra_config replaces endpoint, region and addressing as a whole.
    boolean extra = ArraylakeBuckets.hasExtraConfig(fields);
    return new BucketUpdate(fields.text("name"), fields.text("prefix"),
        fields.text("platform").map(raw -> platform(raw).wireName()),
        fields.node("endpoint") == null && extra
            ? Optional.of(ArraylakeBuckets.endpoint(fields)) : optionalText(fields, "endpoint"),
        fields.node("region") == null && extra
            ? Optional.of(ArraylakeBuckets.region(fields)) : optionalText(fields, "region"),
        extra ? Optional.of(ArraylakeBuckets.pathStyle(fields).orElse(false))
            : fields.bool("path_style"),
        fields.node("auth") != null ? Optional.of(credentials(fields.node("auth")))
            : ArraylakeBuckets.credentials(fields));
  }

  /** A bucket keeps its nickname: namespaces and repos show it. */
  private static void refuseRename(JsonFields fields, BucketConfig current) {
    fields.text("nickname").filter(nickname -> !nickname.equals(current.nickname().value()))
        .ifPresent(nickname -> {
          throw Invalid.because("a bucket configuration cannot be renamed (from '"
              + current.nickname() + "' to '" + nickname + "')");
        });
  }

  /** Absent: unchanged; null: cleared; a string: set. */
  private static Optional<Optional<String>> optionalText(JsonFields fields, String field) {
    JsonNode node = fields.node(field);
    return node == null ? Optional.empty() : Optional.of(fields.text(field));
  }

  private static StoragePlatform platform(String raw) {
    try {
      return ArraylakeBuckets.platformOf(raw);
    } catch (DomainException e) {
      throw Invalid.because(e.getMessage());
    }
  }

  private static BucketCredentials credentials(JsonNode auth) {
    if (auth == null || auth.isNull()) {
      return BucketCredentials.none();
    }
    JsonFields fields = new JsonFields(auth);
    String method = fields.text("method").orElse("none").toLowerCase(Locale.ROOT);
    BucketCredentials credentials = switch (method) {
      case "none", "anonymous" -> BucketCredentials.none();
      case "ambient" -> BucketCredentials.ambient();
      case "static", "hmac" -> BucketCredentials.staticKeys(
          fields.text("access_key_id").orElseThrow(() ->
              Invalid.because("auth.access_key_id is required for static keys")),
          fields.text("secret_access_key").orElseThrow(() ->
              Invalid.because("auth.secret_access_key is required for static keys")));
      default -> throw Invalid.because("auth.method must be none, ambient or static, got '"
          + method + "'");
    };
    return fields.text("role_arn").map(credentials::withRole).orElse(credentials);
  }

  /** The whole configuration for those who may see it; nickname and platform for the rest. */
  private static Object shown(VisibleBucket visible, ManagementRequest request) {
    if (visible.configurationShown()) {
      return body(visible.bucket(), request);
    }
    BucketConfig bucket = visible.bucket();
    return new BucketSummaryBody(bucket.id(), bucket.nickname().value(),
        request.vocabulary() == Vocabulary.ARRAYLAKE ? ArraylakeBuckets.platform(bucket)
            : bucket.platform().wireName(), bucket.isDefault());
  }

  /** The body in the vocabulary the request asks for, with its server URL. */
  static BucketBody body(BucketConfig bucket, ManagementRequest request) {
    return body(bucket, request.vocabulary(), request.serverUrl());
  }

  static BucketBody body(BucketConfig bucket, Vocabulary vocabulary, String serverUrl) {
    boolean arraylake = vocabulary == Vocabulary.ARRAYLAKE;
    return new BucketBody(bucket.id(), bucket.nickname().value(),
        arraylake ? ArraylakeBuckets.platform(bucket) : bucket.platform().wireName(),
        arraylake ? ArraylakeBuckets.name(bucket) : bucket.bucket(), bucket.prefix().value(),
        bucket.endpoint().orElse(null), bucket.region().orElse(null), bucket.pathStyle(),
        new AuthBody(bucket.credentials().kind().name().toLowerCase(Locale.ROOT),
            bucket.credentials().roleArn().orElse(null)),
        bucket.isDefault(), ArraylakeBuckets.extraConfig(bucket, serverUrl),
        ArraylakeBuckets.authConfig(bucket));
  }

  private static String bucket(ManagementRequest r) {
    return r.http().pathParam("bucket");
  }

  private Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
