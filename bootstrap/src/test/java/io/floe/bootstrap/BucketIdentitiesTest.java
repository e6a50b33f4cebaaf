package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.security.BucketIdentityPolicy.Allowances;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's identity and network are the operator's, whenever a bucket configuration was
 * stored: an org's admin cannot have the server use its own cloud identity or reach an address
 * the operator did not allow, a configuration stored under laxer settings is refused when used
 * under stricter ones without the server connecting anywhere, and a store that does not answer
 * is a 503 naming the bucket, not a 500.
 */
class BucketIdentitiesTest {
  private static final String ROLE = "arn:aws:iam::123456789012:role/server-role";

  @TempDir Path directory;

  @Test
  void anOrgAdminCannotBorrowTheServersIdentityOrNetwork() throws Exception {
    try (TestFloe floe = TestFloe.start(directory,
        settings -> settings.bucketIdentities(Allowances.none()));
        NotAStore trap = new NotAStore()) {
      TestFloe.Org tenant = floe.newOrg();
      ManagementApi admin = new ManagementApi(floe.server().port(), tenant.token());
      String buckets = "/orgs/" + tenant.warehouse() + "/buckets";
      int databasePort = floe.database().dsl()
          .fetchOne("select inet_server_port()").get(0, Integer.class);

      for (Map<String, Object> auth : java.util.List.of(Map.<String, Object>of("method", "ambient"),
          Map.<String, Object>of("method", "ambient", "role_arn", ROLE))) {
        ManagementApi.Reply refused = admin.post(buckets, Map.of("nickname", "borrowed",
            "platform", "s3", "name", "their-bucket", "region", "us-east-1", "auth", auth));
        assertThat(refused.status()).as("%s", refused.body()).isEqualTo(403);
        assertThat(refused.body().toString()).contains("ambient");
      }
      for (String endpoint : java.util.List.of("http://127.0.0.1:" + databasePort,
          trap.endpoint(), "http://169.254.169.254", "http://[::1]:" + databasePort)) {
        ManagementApi.Reply refused = admin.post(buckets, s3Compatible("probe", endpoint));
        assertThat(refused.status()).as("%s %s", endpoint, refused.body()).isEqualTo(403);
      }
      for (String endpoint : java.util.List.of("ftp://127.0.0.1", "http://u:p@127.0.0.1",
          "http://127.0.0.1/x?y", "127.0.0.1:5432")) {
        ManagementApi.Reply malformed = admin.post(buckets, s3Compatible("probe", endpoint));
        assertThat(malformed.status()).as("%s %s", endpoint, malformed.body()).isEqualTo(422);
      }
      assertThat(admin.post(buckets, s3Compatible("lake", "https://s3.example")).status())
          .isEqualTo(403);
      // A bucket on AWS with the org's own keys is the org's; changing it is checked again.
      assertThat(admin.post(buckets, Map.of("nickname", "aws", "platform", "s3", "name", "theirs",
          "region", "us-east-1", "auth", Map.of("method", "static", "access_key_id", "AKID",
              "secret_access_key", "SECRET", "role_arn", ROLE))).status()).isEqualTo(201);
      assertThat(admin.patch(buckets + "/aws", Map.of("endpoint", trap.endpoint())).status())
          .isEqualTo(403);
      assertThat(admin.patch(buckets + "/aws", Map.of("auth", Map.of("method", "ambient")))
          .status()).isEqualTo(403);

      // An operator creating another org gives it nothing of the server's either.
      ManagementApi operator = new ManagementApi(floe.server().port(), floe.operators().token());
      ManagementApi.Reply org = operator.post("/orgs", Map.of("name", "borrowing-org",
          "default_bucket", Map.of("platform", "s3", "name", "x", "auth",
              Map.of("method", "ambient"))));
      assertThat(org.status()).as("%s", org.body()).isEqualTo(403);
      assertThat(operator.get("/orgs/borrowing-org/buckets").status()).isEqualTo(404);

      // The operators' own buckets may use the server's identity, but not an internal address
      // this operator did not allow.
      String own = "/orgs/" + floe.operators().warehouse() + "/buckets";
      assertThat(operator.post(own, Map.of("nickname", "server-identity", "platform", "s3",
          "name", "ops-bucket", "region", "us-east-1", "auth",
          Map.of("method", "ambient", "role_arn", ROLE))).status()).isEqualTo(201);
      assertThat(operator.post(own, s3Compatible("database", "http://127.0.0.1:" + databasePort))
          .status()).isEqualTo(403);

      assertThat(admin.get(buckets).body()).hasSize(2);
      assertThat(admin.get(buckets + "/aws").body().path("endpoint").isNull()).isTrue();
      assertThat(trap.connections()).isZero();
    }
  }

  @Test
  void aConfigurationStoredBeforeIsRefusedWhenUsedAndAStoreThatDoesNotAnswerIs503()
      throws Exception {
    Allowances lax = Allowances.none().withPrivateEndpoints(true)
        .withEndpointHosts(Set.of("127.0.0.1"));
    try (NotAStore trap = new NotAStore()) {
      TestFloe.Org tenant;
      try (TestFloe floe = TestFloe.start(directory,
          settings -> settings.bucketIdentities(lax))) {
        tenant = floe.newOrg();
        ManagementApi admin = new ManagementApi(floe.server().port(), tenant.token());
        assertThat(admin.post("/orgs/" + tenant.warehouse() + "/buckets",
            s3Compatible("trap", trap.endpoint())).status()).isEqualTo(201);

        IcebergHttp.Reply unanswered = new IcebergHttp(floe, tenant).post("/namespaces",
            "{\"namespace\":[\"probe\"],\"properties\":{\"floe.bucket\":\"trap\"}}");
        assertThat(unanswered.status()).as("%s", unanswered.body()).isEqualTo(503);
        assertThat(unanswered.message()).contains("bucket configuration 'trap'")
            .doesNotContain("127.0.0.1");
        assertThat(trap.connections()).isPositive();
        assertThat(new IcebergHttp(floe, tenant).get("/namespaces/probe").status())
            .isEqualTo(404);
      }

      int before = trap.connections();
      try (TestFloe floe = TestFloe.start(directory,
          settings -> settings.bucketIdentities(Allowances.none()))) {
        IcebergHttp.Reply refused = new IcebergHttp(floe, tenant).post("/namespaces",
            "{\"namespace\":[\"probe\"],\"properties\":{\"floe.bucket\":\"trap\"}}");
        assertThat(refused.status()).as("%s", refused.body()).isEqualTo(403);
        assertThat(refused.message()).contains("--bucket-endpoint-host");
      }
      assertThat(trap.connections()).isEqualTo(before);
    }
  }

  private static Map<String, Object> s3Compatible(String nickname, String endpoint) {
    return Map.of("nickname", nickname, "platform", "s3-compatible", "name", "lake",
        "endpoint", endpoint, "region", "us-east-1", "path_style", true,
        "auth", Map.of("method", "static", "access_key_id", "AKID",
            "secret_access_key", "SECRET"));
  }
}
