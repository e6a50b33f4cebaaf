package io.floe.application.service.lifecycle;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.PendingCreationStore;
import io.floe.application.port.out.PendingCreationStore.Pending;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Creates a prefix owner (a namespace or a repo) in three steps, so that a failure or a crash at
 * any point leaves either a whole owner or, once repaired, nothing: (1) one transaction reserves
 * the name, claims the prefix and journals the creation; (2) the marker is written, then whatever
 * the kind puts under its prefix first (a repo's Icechunk repository); (3) one transaction inserts
 * the owner's row and removes the journal row. A failure undoes steps 1 and 2 at once; a crash
 * leaves the journal row for {@link CreationRepair}.
 */
public final class PrefixOwnerCreation {
  /**
   * The owner to create: who it is, its name, the prefix the server chose for it, and whether the
   * server writes there (its marker, then the owner's first files) or leaves the prefix empty for
   * the owner's client to initialize (Icechunk creates a repository only in an empty prefix).
   */
  public record NewOwner(PrefixClaim.Owner owner, UUID orgId, CatalogName name,
      BucketConfig bucket, StoragePath prefix, Instant createdAt, boolean serverWrites) {
    public NewOwner {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(orgId, "orgId");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(bucket, "bucket");
      Objects.requireNonNull(prefix, "prefix");
      Objects.requireNonNull(createdAt, "createdAt");
    }

    String kind() {
      return owner.kind().name().toLowerCase(Locale.ROOT);
    }
  }

  private final OrgNames names;
  private final PrefixClaimer claimer;
  private final PendingCreationStore pending;
  private final CreationRepair repair;
  private final UnitOfWork unitOfWork;
  private final ChangePublisher publisher;
  private final LifecycleProbe probe;

  public PrefixOwnerCreation(OrgNames names, PrefixClaimer claimer, PendingCreationStore pending,
      CreationRepair repair, UnitOfWork unitOfWork, ChangePublisher publisher,
      LifecycleProbe probe) {
    this.names = names;
    this.claimer = claimer;
    this.pending = pending;
    this.repair = repair;
    this.unitOfWork = unitOfWork;
    this.publisher = publisher;
    this.probe = probe;
  }

  /**
   * Runs the three steps. {@code initialize} writes what the owner needs under its prefix beyond
   * the marker (unless the server leaves the prefix to the client); {@code insert} adds its row in the last transaction, together with {@code result}
   * recorded for a request sent with an idempotency key.
   */
  public void create(OrgContext context, NewOwner created, Runnable initialize, Runnable insert,
      Object result) {
    Pending journal = new Pending(created.owner().id(), created.orgId(), created.owner().kind(),
        created.name(), created.bucket().id(), created.prefix(), created.createdAt());
    unitOfWork.inTransaction(() -> {
      names.reserve(context, created.name(), created.owner());
      claimer.reserve(created.bucket(), new PrefixClaim(created.bucket().id(), created.prefix(),
          created.owner()));
      pending.record(journal);
    });
    probe.reached(created.kind() + "-create:claimed");
    try {
      if (created.serverWrites()) {
        claimer.writeMarker(created.bucket(), created.prefix(), marker(context, created));
        initialize.run();
        probe.reached(created.kind() + "-create:initialized");
      }
      publisher.publish(context, auditRecord(created), result, () -> {
        if (!pending.finish(created.owner().id())) {
          throw new CommitStateUnknownException(new IllegalStateException("the creation of "
              + created.kind() + " " + created.name() + " was undone by a repair pass"));
        }
        insert.run();
      });
    } catch (RuntimeException e) {
      repair.undoQuietly(journal, e);
      throw e;
    }
  }

  private static AuditedChange auditRecord(NewOwner created) {
    boolean repo = created.owner().kind() == PrefixClaim.OwnerKind.REPO;
    return AuditedChange.of(repo ? AuditAction.REPO_CREATE : AuditAction.NAMESPACE_CREATE,
            repo ? AuditTarget.Kind.REPO : AuditTarget.Kind.NAMESPACE, created.name())
        .with("bucket", created.bucket().nickname().value())
        .with("location", created.bucket().uriOf(created.prefix()));
  }

  private static String marker(OrgContext context, NewOwner created) {
    return "{\"kind\":\"" + created.kind() + "\",\"org\":\"" + context.org().name()
        + "\",\"id\":\"" + created.owner().id() + "\",\"created_at\":\"" + created.createdAt()
        + "\"}\n";
  }
}
