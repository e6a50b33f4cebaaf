package io.floe.adapters.rest.management;

import io.floe.application.model.RepoDetails;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON bodies of the repo routes. They are their own records, not the domain's, so that the
 * wire format changes only on purpose; {@link ManagementJson} writes their fields in snake_case.
 */
final class RepoBodies {
  private RepoBodies() {}

  /** {@code POST /orgs/{org}/repos}. */
  record CreateRepo(String name, String bucketNickname, String description) {}

  record Repo(String id, String name, String description, String bucketNickname, String prefix,
      String location, Instant createdAt, Instant deletedAt, Instant restorableUntil) {
    static Repo of(RepoDetails details) {
      io.floe.domain.Repo repo = details.repo();
      return new Repo(repo.id().toString(), repo.name().value(), repo.description().orElse(null),
          details.bucketNickname(), repo.location().path().value(), details.locationUri(),
          repo.createdAt(), repo.deletedAt().orElse(null),
          details.restorableUntil().orElse(null));
    }
  }

  record RepoList(List<Repo> repos) {
    static RepoList of(List<RepoDetails> details) {
      return new RepoList(details.stream().map(Repo::of).toList());
    }
  }

  record Ref(String name, String snapshotId) {}

  record Refs(List<Ref> branches, List<Ref> tags) {
    static Refs of(RepoRefs refs) {
      return new Refs(refs(refs.branches()), refs(refs.tags()));
    }

    private static List<Ref> refs(List<RepoRefs.Pointer> pointers) {
      return pointers.stream().map(p -> new Ref(p.name(), p.snapshotId())).toList();
    }
  }

  record Commit(String id, String parentId, String message, Instant writtenAt,
      Map<String, Object> metadata) {
    static Commit of(RepoCommit commit) {
      return new Commit(commit.snapshotId(), commit.parentId().orElse(null), commit.message(),
          commit.writtenAt(), commit.metadata());
    }
  }

  record Log(String ref, List<Commit> commits) {
    static Log of(String ref, List<RepoCommit> commits) {
      return new Log(ref, commits.stream().map(Commit::of).toList());
    }
  }

  record Node(String ref, String path, String nodeType, Map<String, Object> attributes,
      Map<String, Object> zarrMetadata, List<String> children) {
    static Node of(String ref, RepoNode node) {
      return new Node(ref, node.path(), node.kind().name().toLowerCase(Locale.ROOT),
          node.attributes(), node.zarrMetadata(), node.children());
    }
  }
}
