package io.floe.application.service.repo.tables;

import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/**
 * How engines name a version of a repo as a namespace: {@code <repo>} is the head of its
 * {@code main} branch, {@code <repo>@<ref>} a branch, a tag or a snapshot id. Namespace names
 * cannot contain {@code @}, so such a name is never a plain namespace's.
 */
record RepoNamespaceName(CatalogName repo, String ref) {
  static final char SEPARATOR = '@';
  static final String DEFAULT_BRANCH = "main";

  /** The repo version a namespace names, or empty when it cannot name one. */
  static Optional<RepoNamespaceName> parse(Namespace namespace) {
    if (namespace.length() != 1) {
      return Optional.empty();
    }
    String level = namespace.level(0);
    int at = level.indexOf(SEPARATOR);
    String repo = at < 0 ? level : level.substring(0, at);
    String ref = at < 0 ? DEFAULT_BRANCH : level.substring(at + 1);
    if (ref.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new RepoNamespaceName(new CatalogName(repo), ref));
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }

  /** Whether the namespace can only be a repo version: plain namespaces never hold an '@'. */
  static boolean isVersioned(Namespace namespace) {
    return namespace.length() == 1 && namespace.level(0).indexOf(SEPARATOR) >= 0;
  }

  static String of(CatalogName repo, String ref) {
    return ref.equals(DEFAULT_BRANCH) ? repo.value() : repo.value() + SEPARATOR + ref;
  }
}
