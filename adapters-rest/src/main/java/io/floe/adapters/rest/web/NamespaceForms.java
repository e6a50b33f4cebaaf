package io.floe.adapters.rest.web;

import io.floe.application.model.DeleteCommand;
import io.floe.application.model.GrantCommand;
import io.floe.application.model.Invalid;
import io.floe.application.model.ModifyNamespaceCommand;
import io.floe.application.model.NamespaceDetails;
import io.floe.application.port.in.access.GrantsUseCase;
import io.floe.application.port.in.namespace.NamespaceManagementUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.MetadataValue;
import io.floe.domain.TableName;
import io.javalin.config.RoutesConfig;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The namespace page's forms: Settings → General, delete (after typing the name) and restore,
 * and grants. Each calls the use case the management API calls, which decides who may.
 */
final class NamespaceForms {
  private final WebHandlers handlers;
  private final NamespaceView view;
  private final NamespaceManagementUseCase namespaces;
  private final GrantsUseCase grants;
  private final Consumer<WebRequest> orgHome;

  /** {@code orgHome} shows a refused restore: deleted namespaces are listed there. */
  NamespaceForms(WebHandlers handlers, NamespaceView view, NamespaceManagementUseCase namespaces,
      GrantsUseCase grants, Consumer<WebRequest> orgHome) {
    this.handlers = handlers;
    this.view = view;
    this.namespaces = namespaces;
    this.grants = grants;
    this.orgHome = orgHome;
  }

  void register(RoutesConfig routes) {
    String path = NamespaceView.PATH;
    routes.get(path, handlers.page(view::show));
    routes.post(path + "/settings", handlers.form(this::saveSettings, view::show));
    routes.post(path + "/delete", handlers.form(this::delete, view::show));
    routes.post(path + "/restore", handlers.form(this::restore, orgHome));
    routes.post(path + "/grants", handlers.form(this::grant, view::show));
    routes.post(path + "/grants/{grant}/remove", handlers.form(this::revoke, view::show));
  }

  /** Description and metadata as typed: keys that are gone are removed, the rest set. */
  private void saveSettings(WebRequest r) {
    OrgContext context = r.scope();
    CatalogName name = NamespaceView.name(r);
    NamespaceDetails current = namespaces.get(context, name);
    Map<String, MetadataValue> wanted =
        MetadataText.parseLines(r.rawForm("metadata").orElse(""));
    Set<String> removed = new HashSet<>(current.namespace().metadata().keySet());
    removed.removeAll(wanted.keySet());
    namespaces.modify(context, name, new ModifyNamespaceCommand(
        Optional.of(r.form("description").orElse("")), Map.of(), wanted, removed,
        Optional.empty()));
    r.redirect(page(r) + "?tab=settings&done=saved");
  }

  /** Deleting asks for the name to be typed again: the confirmation a click alone is not. */
  private void delete(WebRequest r) {
    CatalogName name = NamespaceView.name(r);
    if (!r.form("confirm").filter(name.value()::equals).isPresent()) {
      throw Invalid.because("Type the namespace's name, " + name.value()
          + ", to confirm deleting it");
    }
    namespaces.delete(r.scope(), name, new DeleteCommand(r.form("immediate").isPresent(),
        r.form("retain_data").isPresent()));
    r.redirect(home(r) + "?ghosts=1&done=deleted");
  }

  private void restore(WebRequest r) {
    namespaces.restore(r.scope(), NamespaceView.name(r));
    r.redirect(page(r) + "?done=restored");
  }

  private void grant(WebRequest r) {
    UUID principal = uuid(r.form("principal").orElse(""), "principal");
    Optional<TableName> table = r.form("table").map(TableName::new);
    Action action = action(r.form("action").orElse(""));
    grants.grant(r.scope(), new GrantCommand(principal, NamespaceView.name(r), table, action));
    r.redirect(page(r) + "?tab=access&done=grant-added");
  }

  private void revoke(WebRequest r) {
    grants.revokeGrant(r.scope(), uuid(r.path("grant"), "grant"));
    r.redirect(page(r) + "?tab=access&done=grant-removed");
  }

  private static Action action(String raw) {
    try {
      return Action.valueOf(raw.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Invalid.because("choose read, write or manage");
    }
  }

  private static UUID uuid(String raw, String what) {
    try {
      return UUID.fromString(raw);
    } catch (IllegalArgumentException e) {
      throw Invalid.because("choose a " + what);
    }
  }

  private static String page(WebRequest r) {
    return WebPaths.namespace(r.org(), r.path("namespace"));
  }

  private static String home(WebRequest r) {
    return WebPaths.org(r.org());
  }
}
