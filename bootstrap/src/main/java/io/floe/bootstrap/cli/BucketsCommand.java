package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code floe buckets ...}: the org's bucket configurations. Secrets go to the server and are
 * never shown back; the secret key is read from an environment variable rather than a flag, so
 * that it stays out of shell histories and process lists.
 */
@Command(name = "buckets", mixinStandardHelpOptions = true,
    description = "Manage the org's bucket configurations.",
    subcommands = {BucketsCommand.ListBuckets.class, BucketsCommand.GetBucket.class,
        BucketsCommand.CreateBucket.class, BucketsCommand.UpdateBucket.class,
        BucketsCommand.DeleteBucket.class, BucketsCommand.SetDefault.class})
public final class BucketsCommand implements Runnable {
  static final String SECRET_VARIABLE = "FLOE_BUCKET_SECRET_ACCESS_KEY";

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static void show(PrintWriter out, JsonNode bucket) {
    String prefix = bucket.path("prefix").asText();
    out.printf("%-20s %-14s %s%s%s  auth: %s%n", bucket.path("nickname").asText(),
        bucket.path("platform").asText(), bucket.path("name").asText(),
        prefix.isEmpty() ? "" : "/" + prefix,
        bucket.path("is_default").asBoolean() ? "  (default)" : "",
        bucket.path("auth").path("method").asText());
  }

  abstract static class BucketSubcommand extends OrgSubcommand {
    String buckets() {
      return orgPath() + "/buckets";
    }
  }

  /** Where the bucket is and how the server signs in to it; only what was given is sent. */
  static final class Location {
    @Option(names = "--platform", paramLabel = "PLATFORM",
        description = "s3, s3-compatible, gcs, local or azure")
    String platform;
    @Option(names = "--bucket", paramLabel = "NAME",
        description = "The bucket's name (a directory for local)")
    String bucket;
    @Option(names = "--prefix", paramLabel = "PREFIX", description = "Prefix inside the bucket")
    String prefix;
    @Option(names = "--endpoint", paramLabel = "URL", description = "Endpoint (s3-compatible)")
    String endpoint;
    @Option(names = "--region", paramLabel = "REGION") String region;
    @Option(names = "--path-style", negatable = true, description = "Path-style addressing")
    Boolean pathStyle;
    @Option(names = "--auth", paramLabel = "METHOD",
        description = "none, ambient or static (static reads the secret key from "
            + SECRET_VARIABLE + ")")
    String auth;
    @Option(names = "--access-key-id", paramLabel = "ID") String accessKeyId;
    @Option(names = "--role-arn", paramLabel = "ARN", description = "Role to assume") String roleArn;

    Map<String, Object> body() {
      Map<String, Object> body = new LinkedHashMap<>();
      putIfGiven(body, "platform", platform);
      putIfGiven(body, "name", bucket);
      putIfGiven(body, "prefix", prefix);
      putIfGiven(body, "endpoint", endpoint);
      putIfGiven(body, "region", region);
      putIfGiven(body, "path_style", pathStyle);
      if (auth != null) {
        Map<String, Object> credentials = new LinkedHashMap<>();
        credentials.put("method", auth);
        putIfGiven(credentials, "access_key_id", accessKeyId);
        putIfGiven(credentials, "secret_access_key", System.getenv(SECRET_VARIABLE));
        putIfGiven(credentials, "role_arn", roleArn);
        body.put("auth", credentials);
      }
      return body;
    }

    private static void putIfGiven(Map<String, Object> body, String field, Object value) {
      if (value != null) {
        body.put(field, value);
      }
    }
  }

  @Command(name = "list", description = "List the org's bucket configurations.")
  static final class ListBuckets extends BucketSubcommand {
    @Override
    public Integer call() {
      JsonNode all = api.client().get(buckets());
      return print(all, out -> all.forEach(bucket -> show(out, bucket)));
    }
  }

  @Command(name = "get", description = "Show one bucket configuration (nickname or id).")
  static final class GetBucket extends BucketSubcommand {
    @Parameters(index = "0", paramLabel = "BUCKET") String bucket;

    @Override
    public Integer call() {
      JsonNode found = api.client().get(buckets() + "/" + segment(bucket));
      return print(found, out -> show(out, found));
    }
  }

  @Command(name = "create", description = "Add a bucket configuration.")
  static final class CreateBucket extends BucketSubcommand {
    @Parameters(index = "0", paramLabel = "NICKNAME") String nickname;
    @Mixin Location location;
    @Option(names = "--default", description = "Make it the org's default bucket")
    boolean makeDefault;

    @Override
    public Integer call() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("nickname", nickname);
      body.putAll(location.body());
      body.put("is_default", makeDefault);
      JsonNode created = api.client().post(buckets(), body);
      return print(created, out -> show(out, created));
    }
  }

  @Command(name = "update", description = "Change a bucket configuration; only the options "
      + "given change. A bucket holding any prefix cannot be moved.")
  static final class UpdateBucket extends BucketSubcommand {
    @Parameters(index = "0", paramLabel = "BUCKET") String bucket;
    @Mixin Location location;

    @Override
    public Integer call() {
      JsonNode updated = api.client().patch(buckets() + "/" + segment(bucket), location.body());
      return print(updated, out -> show(out, updated));
    }
  }

  @Command(name = "delete", description = "Remove a bucket configuration that holds no prefix.")
  static final class DeleteBucket extends BucketSubcommand {
    @Parameters(index = "0", paramLabel = "BUCKET") String bucket;
    @Option(names = "--confirm", description = "Do not ask for confirmation") boolean confirm;

    @Override
    public Integer call() {
      if (!confirm && !confirmed("Remove bucket configuration '" + bucket + "'?")) {
        out().println("not removed");
        return 1;
      }
      JsonNode none = api.client().delete(buckets() + "/" + segment(bucket));
      return print(none, out -> out.println("removed bucket configuration " + bucket));
    }
  }

  @Command(name = "set-default", description = "Make a bucket the org's default.")
  static final class SetDefault extends BucketSubcommand {
    @Parameters(index = "0", paramLabel = "BUCKET") String bucket;

    @Override
    public Integer call() {
      JsonNode made = api.client().post(buckets() + "/" + segment(bucket) + "/default",
          Map.of());
      return print(made, out -> show(out, made));
    }
  }
}
