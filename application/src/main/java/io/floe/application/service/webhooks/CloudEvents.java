package io.floe.application.service.webhooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.FeedToken;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A change event as a CloudEvents 1.0 event in structured mode (the whole event one JSON
 * document, {@code application/cloudevents+json}): {@code id} is the event's id, the same on
 * every delivery; {@code source} the org; {@code type} {@code io.floe.<action>}
 * ({@code io.floe.table.commit}); {@code subject} the changed object's name; {@code data} the
 * event as the management API's feed shows it.
 */
public final class CloudEvents {
  public static final String CONTENT_TYPE = "application/cloudevents+json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private CloudEvents() {}

  /**
   * The key a Kafka record of the event has: the changed object, so that every event of one
   * object lands in one partition, in order. A table or view is {@code <org>/<namespace>/<name>}
   * ({@code my-org/sales/orders}), a namespace {@code <org>/<namespace>}; anything else
   * {@code <org>/<kind>:<name>} ({@code my-org/principal:ada}). Namespace, table and view names
   * hold no {@code /} and no {@code :}, so no two objects share a key (a table's name alone,
   * {@code a.b.c}, would not say where its namespace ends). An event recorded before events
   * named their namespace keys its table as {@code <org>/table:<namespace>.<name>}.
   */
  public static String key(String orgName, ChangeEvent event) {
    AuditEntry entry = event.entry();
    String kind = entry.targetKind();
    String name = entry.targetName();
    if ((kind.equals("table") || kind.equals("view"))
        && entry.details().get("namespace") instanceof String namespace
        && name.startsWith(namespace + ".")) {
      return orgName + "/" + namespace + "/" + name.substring(namespace.length() + 1);
    }
    if (kind.equals("namespace")) {
      return orgName + "/" + name;
    }
    return orgName + "/" + kind + ":" + name;
  }

  private static String subject(AuditEntry entry) {
    return entry.targetKind() + "/" + entry.targetName();
  }

  public static byte[] structured(String orgName, ChangeEvent event) {
    AuditEntry entry = event.entry();
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("position", FeedToken.encode(event.position()));
    data.put("id", event.eventId().toString());
    data.put("recorded_at", entry.recordedAt().toString());
    data.put("principal_id", entry.principalId().toString());
    data.put("principal_name", entry.principalName());
    data.put("action", entry.action());
    data.put("target_kind", entry.targetKind());
    data.put("target_name", entry.targetName());
    data.put("details", entry.details());
    data.put("request_id", entry.requestId());
    data.put("request_event_count", event.requestEventCount());
    Map<String, Object> cloudEvent = new LinkedHashMap<>();
    cloudEvent.put("specversion", "1.0");
    cloudEvent.put("id", event.eventId().toString());
    cloudEvent.put("source", "/orgs/" + orgName);
    cloudEvent.put("type", "io.floe." + entry.action());
    cloudEvent.put("subject", subject(entry));
    cloudEvent.put("time", entry.recordedAt().toString());
    cloudEvent.put("datacontenttype", "application/json");
    cloudEvent.put("data", data);
    try {
      return JSON.writeValueAsBytes(cloudEvent);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an event's details are JSON already", e);
    }
  }
}
