package io.floe.adapters.storage.gcs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.domain.StoragePath;

/**
 * The Credential Access Boundary that narrows a Google token to one table: objects whose name
 * starts with the table's prefix, and listings of prefixes beneath it. The token can never do
 * more than its source could, and the role named here caps it further.
 */
final class TableAccessBoundary {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String READ_ROLE = "inRole:roles/storage.objectViewer";
  static final String READ_WRITE_ROLE = "inRole:roles/storage.objectAdmin";

  private TableAccessBoundary() {}

  static String json(String bucket, StoragePath location, Access access) {
    if (location.isRoot()) {
      throw new IllegalArgumentException("refusing to scope a token to a whole bucket");
    }
    String prefix = location.value() + "/";
    ObjectNode boundary = JSON.createObjectNode();
    ObjectNode rule = boundary.putObject("accessBoundary").putArray("accessBoundaryRules")
        .addObject();
    rule.put("availableResource", "//storage.googleapis.com/projects/_/buckets/" + bucket);
    rule.putArray("availablePermissions")
        .add(access == Access.READ_WRITE ? READ_WRITE_ROLE : READ_ROLE);
    rule.putObject("availabilityCondition")
        .put("title", "one table")
        .put("expression", "resource.name.startsWith('projects/_/buckets/" + cel(bucket)
            + "/objects/" + cel(prefix) + "') || api.getAttribute("
            + "'storage.googleapis.com/objectListPrefix', '').startsWith('" + cel(prefix) + "')");
    return boundary.toString();
  }

  /** A value inside a single-quoted CEL string literal. */
  private static String cel(String value) {
    return value.replace("\\", "\\\\").replace("'", "\\'");
  }
}
