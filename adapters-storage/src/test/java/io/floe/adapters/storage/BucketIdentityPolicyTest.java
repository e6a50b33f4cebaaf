package io.floe.adapters.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.StorageNetwork.Reach;
import io.floe.application.port.out.StorageUnavailableException;
import io.floe.application.port.out.inmemory.InMemoryDatabase;
import io.floe.application.port.out.inmemory.InMemoryOrgStore;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.application.security.BucketIdentityPolicy.Allowances;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.junit.jupiter.api.Test;

/**
 * Who may use which bucket identity and endpoint, with the server's real resolver deciding where
 * hosts lead: the operators' org may use the server's identity and name any public host; other
 * orgs only what the operator allows; nobody an internal address unless the operator allows it.
 */
class BucketIdentityPolicyTest {
  private static final String ROLE = "arn:aws:iam::123456789012:role/floe-tables";

  private final InMemoryOrgStore orgs = new InMemoryOrgStore(new InMemoryDatabase());
  private final Org operators = org("ops");
  private final Org tenant = org("tenant");
  private final InetStorageNetwork network = new InetStorageNetwork();

  @Test
  void theServersOwnIdentityIsTheOperatorsOrgsUnlessTheOperatorNamesAnOrgAndRole() {
    BucketConfig ambient = s3(tenant, Optional.empty(), BucketCredentials.ambient());
    BucketConfig ambientRole = s3(tenant, Optional.empty(),
        BucketCredentials.ambient().withRole(ROLE));

    assertThatCode(() -> policy(Allowances.none()).requireAllowed(
        s3(operators, Optional.empty(), BucketCredentials.ambient().withRole(ROLE))))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> policy(Allowances.none()).requireAllowed(ambient))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("--ambient-bucket-org");
    assertThatThrownBy(() -> policy(Allowances.none()).requireUsable(ambientRole))
        .isInstanceOf(ForbiddenException.class);

    Allowances tenantAmbient = Allowances.none().withAmbientOrgs(Set.of(tenant.name()));
    assertThatCode(() -> policy(tenantAmbient).requireAllowed(ambient))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> policy(tenantAmbient).requireAllowed(ambientRole))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("--bucket-role");
    assertThatCode(() -> policy(tenantAmbient.withRoles(List.of("arn:aws:iam::123456789012:role/floe-*")))
        .requireAllowed(ambientRole)).doesNotThrowAnyException();
    assertThatThrownBy(() -> policy(tenantAmbient.withRoles(List.of(ROLE + "-other")))
        .requireAllowed(ambientRole)).isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aLocalBucketGetsNoIdentityEither() {
    BucketConfig local = new BucketConfig(UUID.randomUUID(), tenant.id(), new CatalogName("disk"),
        StoragePlatform.LOCAL, "/srv/floe/buckets/tenant", StoragePath.root(), Optional.empty(),
        Optional.empty(), false, BucketCredentials.ambient(), false);
    assertThatThrownBy(() -> policy(Allowances.none()).requireAllowed(local))
        .isInstanceOf(ForbiddenException.class);
    assertThatCode(() -> policy(Allowances.none()).requireUsable(new BucketConfig(local.id(),
        tenant.id(), local.nickname(), StoragePlatform.LOCAL, local.bucket(), StoragePath.root(),
        Optional.empty(), Optional.empty(), false, BucketCredentials.none(), false)))
        .doesNotThrowAnyException();
  }

  @Test
  void aRoleAssumedWithTheOrgsOwnKeysIsTheOrgsBusiness() {
    assertThatCode(() -> policy(Allowances.none()).requireAllowed(s3(tenant, Optional.empty(),
        BucketCredentials.staticKeys("AKID", "SECRET").withRole(ROLE))))
        .doesNotThrowAnyException();
  }

  @Test
  void anotherOrgNamesOnlyHostsTheOperatorLists() {
    BucketConfig minio = s3(tenant, Optional.of("https://minio.example.com:9000"),
        BucketCredentials.none());
    assertThatThrownBy(() -> policy(Allowances.none()).requireAllowed(minio))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("--bucket-endpoint-host");
    for (String allowed : List.of("minio.example.com", "MINIO.example.com:9000",
        "*.example.com")) {
      Allowances hosts = Allowances.none().withEndpointHosts(Set.of(allowed));
      assertThat(refusal(hosts, minio)).as(allowed).isNotInstanceOf(ForbiddenException.class);
    }
    for (String other : List.of("minio.example.com:9001", "example.com", "*.minio.example.com",
        "other.example.com")) {
      Allowances hosts = Allowances.none().withEndpointHosts(Set.of(other));
      assertThat(refusal(hosts, minio)).as(other).isInstanceOf(ForbiddenException.class);
    }
  }

  @Test
  void internalAddressesAreRefusedForEveryOrgUnlessTheOperatorAllowsThem() {
    for (String endpoint : List.of("http://127.0.0.1:5432", "http://localhost:9000",
        "http://169.254.169.254", "http://10.1.2.3:9000", "http://192.168.0.10",
        "http://[::1]:9000", "http://[::ffff:127.0.0.1]", "http://0.0.0.0:9000",
        "http://[fd00::1]", "http://100.64.0.1", "http://[64:ff9b::a9fe:a9fe]",
        "http://2130706433")) {
      BucketConfig own = s3(operators, Optional.of(endpoint), BucketCredentials.none());
      assertThatThrownBy(() -> policy(Allowances.none()).requireAllowed(own))
          .as(endpoint).isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("--allow-private-bucket-endpoints");
      String host = java.net.URI.create(endpoint).getHost();
      Allowances allowed = Allowances.none().withPrivateEndpoints(true)
          .withEndpointHosts(Set.of(host));
      BucketConfig theirs = s3(tenant, Optional.of(endpoint), BucketCredentials.none());
      assertThat(refusal(allowed, theirs)).as(endpoint).isNull();
    }
  }

  @Test
  void anEndpointIsHttpHostAndPortNothingMore() {
    for (String endpoint : List.of("ftp://127.0.0.1", "127.0.0.1:9000", "http://", "http:///x",
        "http://user:pw@127.0.0.1", "http://127.0.0.1/path", "http://127.0.0.1/?x=1",
        "http://127.0.0.1#f", "file:///etc/passwd", "http://under_score:9000", "not a url",
        "http://0x7f.0.0.1")) {
      BucketConfig bucket = s3(operators, Optional.of(endpoint), BucketCredentials.none());
      assertThatThrownBy(() -> policy(Allowances.none().withPrivateEndpoints(true))
          .requireAllowed(bucket)).as(endpoint)
          .isInstanceOf(UnprocessableEntityException.class);
    }
  }

  @Test
  void aHostWithoutAddressIsAMistakeWhenNamedAndUnavailableStorageWhenUsed() {
    BucketConfig gone = s3(operators, Optional.of("https://nothing-here.invalid"),
        BucketCredentials.none());
    assertThatThrownBy(() -> policy(Allowances.none()).requireAllowed(gone))
        .isInstanceOf(UnprocessableEntityException.class).hasMessageContaining("no address");
    assertThatThrownBy(() -> policy(Allowances.none()).requireUsable(gone))
        .isInstanceOf(StorageUnavailableException.class);
  }

  @Test
  void aServiceAccountKeysTokenServerIsADestinationLikeAnEndpoint() {
    String key = "{\"type\":\"service_account\",\"token_uri\":\"http://127.0.0.1:5432/token\"}";
    BucketConfig gcs = new BucketConfig(UUID.randomUUID(), tenant.id(), new CatalogName("gcs"),
        StoragePlatform.GCS, "lake", StoragePath.root(), Optional.empty(), Optional.empty(),
        false, BucketCredentials.staticKeys("", key), false);
    assertThatThrownBy(() -> policy(Allowances.none()).requireAllowed(gcs))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("token server");
    assertThat(network.credentialServers(gcs)).extracting(Object::toString)
        .containsExactly("http://127.0.0.1:5432/token");
    BucketConfig google = new BucketConfig(UUID.randomUUID(), tenant.id(),
        new CatalogName("gcs"), StoragePlatform.GCS, "lake", StoragePath.root(),
        Optional.empty(), Optional.empty(), false, BucketCredentials.staticKeys("",
            "{\"type\":\"service_account\",\"token_uri\":\"https://oauth2.googleapis.com/token\"}"),
        false);
    assertThat(network.credentialServers(google)).isEmpty();
  }

  @Test
  void addressesAreClassifiedByWhereTheyLead() throws Exception {
    for (String internal : List.of("127.0.0.2", "10.0.0.1", "172.31.255.255", "192.168.1.1",
        "169.254.169.254", "100.127.0.1", "0.1.2.3", "224.0.0.1", "255.255.255.255",
        "198.18.0.1", "::1", "::", "fe80::1", "fc00::1", "fdff::1", "::ffff:10.0.0.1",
        "2002:7f00:1::", "64:ff9b::7f00:1", "ff02::1", "::a9fe:a9fe",
        "2001:0:4136:e378:8000:63bf:80ff:fffe")) {
      assertThat(InetStorageNetwork.isInternal(InetAddress.getByName(internal)))
          .as(internal).isTrue();
    }
    for (String external : List.of("8.8.8.8", "100.128.0.1", "172.32.0.1", "2001:4860::8888",
        "2002:0808:0808::", "64:ff9b::808:808", "2001:0:4136:e378:8000:63bf:f7f7:f7f7")) {
      assertThat(InetStorageNetwork.isInternal(InetAddress.getByName(external)))
          .as(external).isFalse();
    }
    assertThat(network.reach("127.0.0.1")).isEqualTo(Reach.PRIVATE);
    assertThat(network.reach("nothing-here.invalid")).isEqualTo(Reach.UNRESOLVED);
  }

  private RuntimeException refusal(Allowances allowances, BucketConfig bucket) {
    try {
      policy(allowances).requireAllowed(bucket);
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  private BucketIdentityPolicy policy(Allowances allowances) {
    return new BucketIdentityPolicy(allowances, operators.name(), orgs, network);
  }

  private Org org(String name) {
    Org org = new Org(UUID.randomUUID(), new OrgName(name), true);
    orgs.insertOrg(org);
    return org;
  }

  private static BucketConfig s3(Org org, Optional<String> endpoint,
      BucketCredentials credentials) {
    return new BucketConfig(UUID.randomUUID(), org.id(), new CatalogName("lake"),
        endpoint.isPresent() ? StoragePlatform.S3_COMPATIBLE : StoragePlatform.S3, "lake",
        StoragePath.root(), endpoint, Optional.of("us-east-1"), true, credentials, false);
  }
}
