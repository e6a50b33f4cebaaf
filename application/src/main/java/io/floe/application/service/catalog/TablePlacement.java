package io.floe.application.service.catalog;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.port.out.OrgStore;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.Namespace;
import io.floe.domain.PrefixClaim;
import io.floe.domain.PrefixGenerator;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Decides where a new table's files go. The server always chooses: a fresh directory under the
 * namespace's prefix, or, with the bucket property, a prefix of the table's own on another bucket.
 * A location a client asks for is ignored.
 */
public final class TablePlacement {
  /**
   * Where engines write a table's files unless its properties say otherwise: the defaults of
   * {@code write.data.path} and {@code write.metadata.path}.
   */
  private static final List<String> WRITER_DIRECTORIES = List.of("data", "metadata");
  /** The directory of a repo's prefix that holds the tables Floe creates in it. */
  public static final String REPO_TABLES = "tables";

  private final OrgStore orgs;
  private final PrefixClaimer claimer;
  private final IdGenerator ids;
  private final PrefixGenerator prefixes;
  private final BucketStorageProvider storage;

  public TablePlacement(OrgStore orgs, PrefixClaimer claimer, IdGenerator ids,
      BucketStorageProvider storage) {
    this.orgs = orgs;
    this.claimer = claimer;
    this.ids = ids;
    this.storage = storage;
    this.prefixes = new PrefixGenerator(ids::randomBelow);
  }

  /** Where a table goes, and what claiming that place takes (and how to undo it). */
  public record Placed(BucketConfig bucket, StorageLocation location, boolean ownBucket,
      Runnable claim, Consumer<RuntimeException> undo) {

    public static Placed existing(BucketConfig bucket, StorageLocation location) {
      return new Placed(bucket, location, false, () -> { }, e -> { });
    }

    public String rootUri() {
      return bucket.uriOf(location.path());
    }
  }

  public Placed inNamespace(Namespace namespace, TableName name) {
    BucketConfig bucket = bucketOf(namespace);
    String directory = name.pathSegment() + "-" + HexFormat.of().formatHex(ids.randomBytes(16));
    return Placed.existing(bucket, new StorageLocation(bucket.id(),
        namespace.prefix().resolve(directory)));
  }

  /**
   * A fresh directory for a table a repo declares: under the repo's {@value #REPO_TABLES}
   * directory, so that the repo's prefix holds the arrays and the tables describing them.
   */
  public Placed inRepo(BucketConfig bucket, StoragePath repoPrefix, TableName name) {
    String directory = name.pathSegment() + "-" + HexFormat.of().formatHex(ids.randomBytes(16));
    return Placed.existing(bucket, new StorageLocation(bucket.id(),
        repoPrefix.resolve(REPO_TABLES).resolve(directory)));
  }

  /**
   * Readies a location handed to an engine before any metadata exists there (a staged create):
   * the engine writes data files and manifests into it before the create commits, and some
   * (DuckDB) create no directories on a local bucket. Called once the request is authorized and
   * valid, so a refused request leaves nothing behind.
   */
  public void prepareForWriters(Placed placed) {
    BucketStorage files = storage.open(placed.bucket());
    StoragePath location = placed.location().path();
    WRITER_DIRECTORIES.forEach(writers -> files.prepareLocation(location.resolve(writers)));
  }

  public Placed onOwnBucket(OrgContext context, Namespace namespace, TableName name,
      String nickname, UUID tableId) {
    BucketConfig bucket;
    try {
      bucket = orgs.bucket(context.org().id(), new CatalogName(nickname))
          .orElseThrow(() -> new BadRequestException(
              "Bucket configuration '%s' does not exist in org '%s'", nickname,
              context.org().name()));
    } catch (InvalidNameException e) {
      throw new BadRequestException("Invalid bucket nickname: %s", e.getMessage());
    }
    bucket.requireIcebergSupport();
    StoragePath prefix = prefixes.tablePrefix(bucket, namespace.name(), name);
    PrefixClaim claim = new PrefixClaim(bucket.id(), prefix,
        new PrefixClaim.Owner(PrefixClaim.OwnerKind.TABLE, tableId));
    String marker = "{\"kind\":\"table\",\"namespace\":\"" + namespace.id() + "\",\"id\":\""
        + tableId + "\"}\n";
    BucketConfig target = bucket;
    return new Placed(bucket, new StorageLocation(bucket.id(), prefix), true,
        () -> claimer.claim(target, claim, marker),
        failure -> {
          try {
            claimer.discard(target, prefix);
          } catch (RuntimeException e) {
            failure.addSuppressed(e);
          }
        });
  }

  /**
   * The location a staged create chose: it must be a directory strictly inside the namespace's
   * prefix, since the client may already have written data files there.
   */
  public Placed stagedInNamespace(Namespace namespace, String location) {
    BucketConfig bucket = bucketOf(namespace);
    if (location == null) {
      throw new BadRequestException("A staged table needs the location it was staged with");
    }
    StoragePath path = TableLocations.pathIn(bucket, location);
    if (!path.isWithin(namespace.prefix()) || path.equals(namespace.prefix())) {
      throw new ForbiddenException("Location '%s' is not inside the prefix of namespace %s",
          location, namespace.name());
    }
    return Placed.existing(bucket, new StorageLocation(bucket.id(), path));
  }

  private BucketConfig bucketOf(Namespace namespace) {
    return orgs.bucket(namespace.bucketId()).orElseThrow(
        () -> new IllegalStateException("bucket of namespace vanished: " + namespace.name()));
  }
}
