package io.floe.adapters.rest.iceberg;

import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeEventPage;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedToken;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.events.ReadChangeEventsUseCase;
import io.javalin.config.RoutesConfig;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code POST /iceberg/v1/{prefix}/events}: the org's change feed as the Iceberg REST events
 * proposal (apache/iceberg PR 12584) shapes it. The body filters by operation type, object type
 * and names ({@code [ns]} for a namespace and what is in it, {@code [ns, name]} for one table or
 * view), and continues from a {@code continuation-token}; the answer is always a token to
 * continue from, the newest event time looked at, and the events the caller may read. A token
 * older than the feed's retention is a 410.
 */
public final class EventRoutes implements Consumer<RoutesConfig> {
  private final AuthenticateUseCase authentication;
  private final ReadChangeEventsUseCase events;
  private final MetadataLimits limits;

  public EventRoutes(AuthenticateUseCase authentication, ReadChangeEventsUseCase events,
      MetadataLimits limits) {
    this.authentication = authentication;
    this.events = events;
    this.limits = limits;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.post(IcebergPaths.V1 + "/events", IcebergPaths.handle(authentication, limits, r -> {
      QueryEventsRequest query = r.read(QueryEventsRequest.class);
      int limit = query.pageSize() == null ? ReadChangeEventsUseCase.DEFAULT_LIMIT
          : Math.min(query.pageSize(), ReadChangeEventsUseCase.MAX_LIMIT);
      ChangeEventPage page = events.read(r.scope(), FeedToken.decode(query.continuationToken()),
          filter(query), limit);
      r.ok(response(page));
    }));
  }

  private static ChangeFilter filter(QueryEventsRequest query) {
    Set<String> actions = new HashSet<>();
    if (query.operationTypes().isEmpty()) {
      actions.addAll(IcebergEventOperations.allActions());
    }
    query.operationTypes().forEach(type -> actions.addAll(IcebergEventOperations.actions(type)));
    Set<String> kinds = query.objectTypes().isEmpty() ? Set.of("namespace", "table", "view")
        : Set.copyOf(query.objectTypes());
    Set<String> namespaces = new HashSet<>();
    Set<String> objects = new HashSet<>();
    for (List<String> name : query.catalogObjectsByName()) {
      if (name.size() == 1) {
        namespaces.add(name.get(0));
      } else {
        objects.add(name.get(0) + "." + name.get(1));
      }
    }
    return new ChangeFilter(actions, kinds, namespaces, objects,
        Optional.ofNullable(query.afterTimestampMs()).map(Instant::ofEpochMilli));
  }

  private static Map<String, Object> response(ChangeEventPage page) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("continuation-token", FeedToken.encode(page.next()));
    body.put("highest-processed-timestamp-ms", page.next().recordedAt().toEpochMilli());
    body.put("events", page.events().stream().map(EventRoutes::event).toList());
    return body;
  }

  private static Map<String, Object> event(ChangeEvent event) {
    AuditEntry entry = event.entry();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("event-id", event.eventId().toString());
    body.put("request-id", entry.requestId());
    body.put("request-event-count", event.requestEventCount());
    body.put("timestamp-ms", entry.recordedAt().toEpochMilli());
    body.put("actor", Map.of("principal-id", entry.principalId().toString(),
        "principal-name", entry.principalName()));
    body.put("operation-type", IcebergEventOperations.operationType(entry.action())
        .orElse("x-floe-" + entry.action()));
    String namespace = event.namespace().orElse(entry.targetName());
    if (entry.targetKind().equals("namespace")) {
      body.put("namespace", List.of(namespace));
    } else {
      String name = entry.targetName().startsWith(namespace + ".")
          ? entry.targetName().substring(namespace.length() + 1) : entry.targetName();
      body.put("identifier", Map.of("namespace", List.of(namespace), "name", name));
    }
    body.put("x-floe-details", entry.details());
    return body;
  }
}
