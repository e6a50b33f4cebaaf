package io.floe.adapters.rest.management;

import io.floe.application.model.NamespaceDetails;
import io.floe.application.model.Page;
import io.floe.application.model.TableSummary;
import io.floe.domain.Action;
import io.floe.domain.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Response bodies of the namespace management API, field for field as the arraylake client's
 * models read them (snake_case by {@link ManagementJson}).
 */
final class NamespaceJson {
  private NamespaceJson() {}

  record NamespaceBody(UUID id, String org, String name, UUID bucketId, String bucketNickname,
      String prefix, String visibility, List<String> effectiveActions,
      Map<String, String> properties, String description, Map<String, Object> metadata,
      long tableCount, Instant created, Instant updated, Instant deletedAt) {}

  record TableBody(String name, String namespace, UUID tableUuid, List<String> effectiveActions,
      boolean hasStorageOverride, Instant created, Instant updated) {}

  record PageBody<T>(List<T> items, long total, int page, int size, int pages) {}

  static NamespaceBody of(NamespaceDetails details) {
    Namespace namespace = details.namespace();
    return new NamespaceBody(namespace.id(), details.org(), namespace.name().value(),
        namespace.bucketId(), details.bucketNickname(), namespace.prefix().value(),
        namespace.visibility().name(), actions(details.effectiveActions()),
        namespace.properties(), namespace.effectiveDescription().orElse(null),
        MetadataValues.toJson(namespace.metadata()), details.tableCount(), namespace.createdAt(),
        namespace.updatedAt(), namespace.deletedAt().orElse(null));
  }

  static TableBody of(TableSummary summary) {
    return new TableBody(summary.table().name().value(), summary.namespace(),
        summary.table().id(), actions(summary.effectiveActions()),
        summary.table().hasStorageOverride(), summary.table().createdAt(),
        summary.table().updatedAt());
  }

  static <T, R> PageBody<R> page(Page<T> page, java.util.function.Function<T, R> body) {
    return new PageBody<>(page.items().stream().map(body).toList(), page.total(), page.page(),
        page.size(), page.pages());
  }

  /**
   * Floe's actions under the names the client knows (an unknown name breaks its parsing): each
   * level as the arraylake grant that allows the same.
   */
  static List<String> actions(java.util.Set<Action> actions) {
    return actions.stream().sorted().map(action -> switch (action) {
      case READ -> "CAN_READ";
      case WRITE -> "CAN_WRITE";
      case MANAGE -> "CAN_MANAGE_USERS";
    }).toList();
  }
}
