package io.floe.application.service.namespace;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.model.ModifyNamespaceCommand;
import io.floe.application.model.NamespaceDetails;
import io.floe.application.model.NamespaceQuery;
import io.floe.application.model.Page;
import io.floe.application.model.TableQuery;
import io.floe.application.model.TableSummary;
import io.floe.application.port.in.namespace.NamespaceManagementUseCase;
import io.floe.application.port.out.NamespaceDirectory;
import io.floe.application.port.out.NamespaceDirectory.Listed;
import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;

/** The management API's namespaces: one model with the Iceberg REST namespaces, other fields. */
public final class NamespaceManagementService implements NamespaceManagementUseCase {
  private final NamespaceCreation creation;
  private final NamespaceDeletion deletion;
  private final NamespaceDirectory directory;
  private final NamespaceLifecycleStore lifecycle;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;

  public NamespaceManagementService(NamespaceCreation creation, NamespaceDeletion deletion,
      NamespaceDirectory directory, NamespaceLifecycleStore lifecycle, UnitOfWork unitOfWork,
      Clock clock, AccessPolicy policy, ChangePublisher publisher) {
    this.creation = creation;
    this.deletion = deletion;
    this.directory = directory;
    this.lifecycle = lifecycle;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.policy = policy;
    this.publisher = publisher;
  }

  @Override
  public NamespaceDetails create(OrgContext context, CreateNamespaceCommand command) {
    creation.create(context, new NamespaceCreation.Request(command.name(),
        command.bucketNickname(), command.properties(), command.description(), command.metadata(),
        command.visibility()), (namespace, bucket) -> null);
    return get(context, command.name());
  }

  @Override
  public NamespaceDetails get(OrgContext context, CatalogName name) {
    return details(context, visible(context, name));
  }

  @Override
  public NamespaceDetails modify(OrgContext context, CatalogName name,
      ModifyNamespaceCommand command) {
    return unitOfWork.inTransaction(() -> {
      // Locked, so that two concurrent edits of the metadata cannot lose one another's keys.
      Namespace current = lifecycle.lockLive(context.org().id(), name)
          .filter(namespace -> policy.canSee(context, namespace))
          .orElseThrow(() -> notFound(name));
      policy.require(context, Action.MANAGE, current);
      Map<String, MetadataValue> metadata = command.applyTo(current.metadata());
      Optional<String> description = command.description()
          .map(text -> text.isEmpty() ? Optional.<String>empty() : Optional.of(text))
          .orElse(current.description());
      publisher.publish(context, describe(current, command), () -> lifecycle.saveDescription(
          current.id(), description, metadata, command.visibility().orElse(current.visibility()),
          clock.instant()));
      return details(context, visible(context, name));
    });
  }

  @Override
  public void delete(OrgContext context, CatalogName name, DeleteCommand command) {
    deletion.delete(context, name, command);
  }

  @Override
  public NamespaceDetails restore(OrgContext context, CatalogName name) {
    deletion.restore(context, name);
    return get(context, name);
  }

  @Override
  public List<NamespaceDetails> list(OrgContext context, boolean includeGhosts) {
    return directory.list(context.org().id(), policy.listingScope(context),
            includeGhosts ? Optional.of(clock.instant()) : Optional.empty())
        .stream().map(listed -> details(context, listed)).toList();
  }

  @Override
  public Page<NamespaceDetails> search(OrgContext context, NamespaceQuery query) {
    return directory.search(context.org().id(), policy.listingScope(context), query,
        clock.instant()).map(listed -> details(context, listed));
  }

  @Override
  public Page<TableSummary> tables(OrgContext context, CatalogName name, TableQuery query) {
    Namespace namespace = visible(context, name).namespace();
    // A caller who sees the namespace only through table grants sees only those tables.
    return directory.tables(namespace.id(), policy.tableScope(context, namespace), query)
        .map(table -> new TableSummary(namespace.name().value(), table,
            policy.effectiveActions(context, namespace, table)));
  }

  /** The audit record of a change to the descriptive fields: which, never the texts. */
  private static AuditedChange describe(Namespace namespace, ModifyNamespaceCommand command) {
    Set<String> metadataKeys = new TreeSet<>(command.addMetadata().keySet());
    metadataKeys.addAll(command.updateMetadata().keySet());
    metadataKeys.addAll(command.removeMetadata());
    return AuditedChange.of(AuditAction.NAMESPACE_UPDATE, AuditTarget.Kind.NAMESPACE,
            namespace.name())
        .with("description", command.description().map(text -> text.isEmpty() ? "cleared"
            : "changed"))
        .with("metadata_keys", metadataKeys.isEmpty() ? null : metadataKeys)
        .with("visibility", command.visibility());
  }

  private Listed visible(OrgContext context, CatalogName name) {
    return directory.findLive(context.org().id(), name, policy.listingScope(context))
        .filter(listed -> policy.canSee(context, listed.namespace()))
        .orElseThrow(() -> notFound(name));
  }

  private NamespaceDetails details(OrgContext context, Listed listed) {
    return new NamespaceDetails(context.org().name().value(), listed.namespace(),
        listed.bucketNickname(), listed.tableCount(),
        policy.effectiveActions(context, listed.namespace()));
  }

  private static NoSuchNamespaceException notFound(CatalogName name) {
    return new NoSuchNamespaceException("Namespace does not exist: %s", name);
  }
}
