package io.floe.application.service.repo.tables;

import io.floe.application.security.OrgContext;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;

/**
 * Chooses where a request about a namespace goes: to plain namespaces, whose pointers PostgreSQL
 * holds, or to a repo version, whose pointers its Icechunk history holds. A name with an '@' is
 * only ever a repo version. Any other name goes to plain namespaces first, exactly as it would
 * without repos, and reaches a repo only when plain namespaces do not know it: the plain path
 * costs nothing more, and a repo name can never be a namespace's (they share one set of names).
 */
public final class RepoRouting {
  private final RepoNamespaces namespaces;

  public RepoRouting(RepoNamespaces namespaces) {
    this.namespaces = namespaces;
  }

  public <T> T route(OrgContext context, Namespace namespace, Supplier<T> plain,
      Function<RepoNamespace, T> repo) {
    if (RepoNamespaces.isVersioned(namespace)) {
      return repo.apply(namespaces.require(context, namespace));
    }
    try {
      return plain.get();
    } catch (NoSuchNamespaceException | NoSuchTableException | NoSuchViewException missing) {
      Optional<RepoNamespace> found = namespaces.find(context, namespace);
      if (found.isEmpty()) {
        throw missing;
      }
      return repo.apply(found.get());
    }
  }

  /** {@link #route} for requests without a result. */
  public void run(OrgContext context, Namespace namespace, Runnable plain,
      java.util.function.Consumer<RepoNamespace> repo) {
    route(context, namespace, () -> {
      plain.run();
      return null;
    }, found -> {
      repo.accept(found);
      return null;
    });
  }

  public RepoNamespaces namespaces() {
    return namespaces;
  }
}
