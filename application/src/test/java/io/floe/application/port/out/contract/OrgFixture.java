package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.GrantStore;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Grant;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Repo;
import io.floe.domain.Role;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.Visibility;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * An org of its own for one contract test, with a default bucket, and the rows tests build on,
 * added through the ports themselves. Tests share one database per backend, so nothing a test
 * asserts may depend on rows of another org. Names stay within lowercase letters, digits and '-'
 * wherever order matters, so that every collation sorts them alike.
 */
public final class OrgFixture {
  public final PersistencePorts ports;
  public final Org org;
  public final BucketConfig bucket;
  /** This test's present: a real instant (for columns the database stamps), in microseconds. */
  public final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

  OrgFixture(PersistencePorts ports) {
    this.ports = ports;
    this.org = newOrg();
    this.bucket = bucket("main", true);
  }

  /** Another org, for showing that something does not cross org lines. */
  public Org newOrg() {
    Org created = new Org(UUID.randomUUID(), new OrgName("org-" + UUID.randomUUID().toString()
        .substring(0, 8)), true);
    assertThat(ports.orgs().insertOrg(created)).isTrue();
    return created;
  }

  /** A bucket configuration of the org, inserted. */
  public BucketConfig bucket(String nickname, boolean isDefault) {
    BucketConfig config = bucketConfig(nickname, isDefault);
    ports.orgs().insertBucket(config);
    return config;
  }

  /** A bucket configuration of the org, not inserted. */
  public BucketConfig bucketConfig(String nickname, boolean isDefault) {
    return new BucketConfig(UUID.randomUUID(), org.id(), new CatalogName(nickname),
        StoragePlatform.S3_COMPATIBLE, "data", new StoragePath("warehouse"),
        Optional.of("http://127.0.0.1:9000"), Optional.of("us-east-1"), true,
        BucketCredentials.staticKeys("AK", "SK").withRole("arn:aws:iam::1:role/r"), isDefault);
  }

  public Namespace namespace(String name) {
    return namespace(name, Visibility.PRIVATE);
  }

  public Namespace namespace(String name, Visibility visibility) {
    Namespace namespace = new Namespace(UUID.randomUUID(), org.id(), new CatalogName(name),
        bucket.id(), new StoragePath("warehouse/" + UUID.randomUUID().toString().substring(0, 8)
            + "_" + name), Map.of(), Optional.empty(), Map.of(), visibility, now, now,
        Optional.empty());
    ports.namespaces().insert(namespace);
    return namespace;
  }

  public CatalogObject table(Namespace namespace, String name) {
    return object(namespace, name, CatalogObject.Kind.TABLE, "v0");
  }

  public CatalogObject view(Namespace namespace, String name) {
    return object(namespace, name, CatalogObject.Kind.VIEW, "v0");
  }

  /** A table or view at {@code <namespace prefix>/<name>}, inserted. */
  public CatalogObject object(Namespace namespace, String name, CatalogObject.Kind kind,
      String metadataLocation) {
    CatalogObject object = objectRow(namespace, name, kind, metadataLocation);
    assertThat(ports.objects().insert(object)).isTrue();
    return object;
  }

  /** A table or view at {@code <namespace prefix>/<name>}, not inserted. */
  public CatalogObject objectRow(Namespace namespace, String name, CatalogObject.Kind kind,
      String metadataLocation) {
    return new CatalogObject(UUID.randomUUID(), namespace.id(),
        new io.floe.domain.TableName(name), kind, metadataLocation,
        new StorageLocation(bucket.id(), namespace.prefix().resolve(name)), false, now, now);
  }

  /** A principal of the org (created in it), with a role. */
  public Principal member(String name, Principal.Kind kind, Role role) {
    Principal principal = new Principal(UUID.randomUUID(), kind, name);
    ports.identities().createMember(principal, org.id(), role, Optional.empty());
    return principal;
  }

  public Principal user(String name) {
    return member(name, Principal.Kind.USER, Role.MEMBER);
  }

  public Principal team(String name) {
    return member(name, Principal.Kind.TEAM, Role.MEMBER);
  }

  /** A grant made in the org at {@code createdAt}, on a namespace or one table of it. */
  public GrantStore.Named grant(Principal to, Namespace namespace, Optional<CatalogObject> table,
      Action action, Instant createdAt) {
    return ports.grants().save(new GrantStore.Entry(UUID.randomUUID(), org.id(),
        new Grant(to.id(), namespace.id(), table.map(CatalogObject::id), action), createdAt));
  }

  public GrantStore.Named grant(Principal to, Namespace namespace, Optional<CatalogObject> table,
      Action action) {
    return grant(to, namespace, table, action, now);
  }

  /** A live repo of the org. */
  public Repo repo(String name) {
    Repo repo = new Repo(UUID.randomUUID(), org.id(), new CatalogName(name),
        new StorageLocation(bucket.id(), new StoragePath("warehouse/"
            + UUID.randomUUID().toString().substring(0, 8) + "_" + name)),
        Optional.of("about " + name), now, Optional.empty());
    ports.repos().insert(repo);
    return repo;
  }
}
