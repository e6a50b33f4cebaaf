package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.GRANTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;
import static io.floe.adapters.persistence.jooq.schema.Tables.TEAM_MEMBERS;

import io.floe.application.model.ListingScope;
import io.floe.application.model.TableScope;
import io.floe.domain.Visibility;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The access policy's listing rules as SQL conditions, so that listings filter before they page:
 * a principal with few grants in a large org still gets full pages.
 */
final class AccessConditions {
  private AccessConditions() {}

  /** The namespaces row is one the scope lets the caller see. */
  static Condition namespaceInScope(ListingScope scope) {
    if (scope.everything()) {
      return DSL.noCondition();
    }
    Condition readableByAll = readableByAll(scope);
    return scope.grantee().map(grantee -> readableByAll.or(holdsGrantWithin(grantee)))
        .orElse(readableByAll);
  }

  /** The catalog_objects row is one the scope lets the caller see. */
  static Condition objectInScope(TableScope scope) {
    return scope.grantee().map(grantee -> CATALOG_OBJECTS.ID.in(
            DSL.select(GRANTS.TABLE_ID).from(GRANTS)
                .where(GRANTS.TABLE_ID.isNotNull(), heldBy(GRANTS.PRINCIPAL_ID, grantee))))
        .orElse(DSL.noCondition());
  }

  /**
   * The catalog_objects row, in the namespaces row it belongs to, is one the scope lets the
   * caller see: every object of a namespace it may read, else only the objects granted to it.
   */
  static Condition objectInNamespaceInScope(ListingScope scope) {
    if (scope.everything()) {
      return DSL.noCondition();
    }
    Condition namespaceReadable = readableByAll(scope).or(scope.grantee()
        .map(AccessConditions::holdsGrantOnNamespace).orElse(DSL.falseCondition()));
    return namespaceReadable.or(scope.grantee().map(grantee -> CATALOG_OBJECTS.ID.in(
            DSL.select(GRANTS.TABLE_ID).from(GRANTS)
                .where(GRANTS.TABLE_ID.isNotNull(), heldBy(GRANTS.PRINCIPAL_ID, grantee))))
        .orElse(DSL.falseCondition()));
  }

  /** The grant's principal is {@code principalId} or a team it is a member of. */
  static Condition heldBy(Field<UUID> grantPrincipal, UUID principalId) {
    return grantPrincipal.eq(principalId).or(grantPrincipal.in(
        DSL.select(TEAM_MEMBERS.TEAM_ID).from(TEAM_MEMBERS)
            .where(TEAM_MEMBERS.MEMBER_ID.eq(principalId))));
  }

  private static Condition readableByAll(ListingScope scope) {
    return scope.readableByAll().isEmpty() ? DSL.falseCondition()
        : NAMESPACES.VISIBILITY.in(scope.readableByAll().stream().map(Visibility::name).toList());
  }

  /** A grant on the namespace itself, which lets its holder read all of it. */
  private static Condition holdsGrantOnNamespace(UUID grantee) {
    return NAMESPACES.ID.in(DSL.select(GRANTS.NAMESPACE_ID).from(GRANTS)
        .where(GRANTS.TABLE_ID.isNull(), heldBy(GRANTS.PRINCIPAL_ID, grantee)));
  }

  /** A grant on the namespace itself, or on a table or view that is in it now. */
  private static Condition holdsGrantWithin(UUID grantee) {
    Condition onNamespace = holdsGrantOnNamespace(grantee);
    Condition onATableInIt = NAMESPACES.ID.in(DSL.select(CATALOG_OBJECTS.NAMESPACE_ID)
        .from(GRANTS).join(CATALOG_OBJECTS).on(CATALOG_OBJECTS.ID.eq(GRANTS.TABLE_ID))
        .where(heldBy(GRANTS.PRINCIPAL_ID, grantee)));
    return onNamespace.or(onATableInIt);
  }
}
