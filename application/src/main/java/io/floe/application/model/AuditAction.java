package io.floe.application.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The changes the audit log records. Each is recorded, and filtered, by its wire name: the kind of
 * thing changed, a dot, and what was done to it ({@code table.commit}, {@code grant.revoke}).
 */
public enum AuditAction {
  ORG_CREATE, ORG_SET_ICEBERG,
  BUCKET_CREATE, BUCKET_UPDATE, BUCKET_DELETE, BUCKET_SET_DEFAULT,
  NAMESPACE_CREATE, NAMESPACE_UPDATE, NAMESPACE_SET_PROPERTIES, NAMESPACE_DELETE, NAMESPACE_RESTORE,
  TABLE_CREATE, TABLE_REGISTER, TABLE_COMMIT, TABLE_RENAME, TABLE_DROP, TABLE_MAINTAIN,
  MAINTENANCE_POLICY_SET, MAINTENANCE_POLICY_DELETE,
  VIEW_CREATE, VIEW_REGISTER, VIEW_REPLACE, VIEW_RENAME, VIEW_DROP,
  REPO_CREATE, REPO_UPDATE, REPO_DELETE, REPO_RESTORE, REPO_GC,
  PRINCIPAL_CREATE, MEMBER_SET_ROLE, MEMBER_REMOVE, TEAM_ADD_MEMBER, TEAM_REMOVE_MEMBER,
  GRANT_CREATE, GRANT_REVOKE,
  TOKEN_ISSUE, TOKEN_REVOKE,
  SUBSCRIPTION_CREATE, SUBSCRIPTION_DELETE, SUBSCRIPTION_RESUME;

  private final String wireName = name().toLowerCase(Locale.ROOT).replaceFirst("_", ".");

  public String wireName() {
    return wireName;
  }

  public static Optional<AuditAction> fromWireName(String name) {
    return Arrays.stream(values()).filter(action -> action.wireName.equals(name)).findFirst();
  }
}
