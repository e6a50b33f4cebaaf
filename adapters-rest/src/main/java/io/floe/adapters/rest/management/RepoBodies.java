package io.floe.adapters.rest.management;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.CreateRepoCommand;
import io.floe.application.model.Invalid;
import io.floe.application.model.RepoDetails;
import io.floe.application.model.RepoGarbage;
import io.floe.application.port.in.repo.CollectRepoGarbageUseCase;
import io.floe.domain.DurationBounds;
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

  /**
   * {@code POST /orgs/{org}/repos}: Floe's fields ({@code name}, {@code bucket_nickname},
   * {@code description}), or the arraylake client's, whose {@code create_mode=register} says the
   * client creates the Icechunk repository itself. A requested {@code prefix} is ignored: Floe
   * chooses every prefix, as it chooses table locations.
   */
  static CreateRepoCommand createCommand(JsonNode json) {
    JsonFields body = new JsonFields(json);
    body.text("kind").filter(kind -> !kind.equals("icechunk")).ifPresent(kind -> {
      throw Invalid.because("Floe repos are Icechunk repositories; kind '" + kind
          + "' is not supported");
    });
    JsonNode metadata = body.node("metadata");
    if (metadata != null && !metadata.isNull() && !metadata.isEmpty()) {
      throw Invalid.because("Floe repos have no metadata yet: create the repo without it");
    }
    CreateRepoCommand.Initializer initializer = switch (body.text("create_mode")
        .orElse("create")) {
      case "create" -> CreateRepoCommand.Initializer.SERVER;
      case "register" -> CreateRepoCommand.Initializer.CLIENT;
      default -> throw Invalid.because("create_mode must be create or register: Floe does not "
          + "import existing repositories, it creates each one in an empty prefix it claims");
    };
    return CreateRepoCommand.of(body.text("name").orElse(null),
        body.text("bucket_nickname").orElse(null),
        body.text("description").filter(text -> !text.isEmpty()).orElse(null), initializer);
  }

  /**
   * A repo: Floe's fields, and those the arraylake client's {@code Repo} model requires
   * ({@code _id} as hex digits, {@code org}, {@code created}, {@code updated}, {@code status},
   * {@code kind} and the whole {@code bucket}). Floe repos are always online and have no metadata.
   */
  record Repo(String id, @JsonProperty("_id") String arraylakeId, String org, String name,
      String description, Map<String, Object> metadata, String kind, String visibility,
      String bucketNickname, BucketRoutes.BucketBody bucket, String prefix, String location,
      Status status, Instant created, Instant updated, Instant createdAt, Instant deletedAt,
      Instant restorableUntil) {
    static Repo of(RepoDetails details, ManagementRequest request) {
      io.floe.domain.Repo repo = details.repo();
      return new Repo(repo.id().toString(), repo.id().toString().replace("-", ""),
          request.scope().org().name().value(), repo.name().value(),
          repo.description().orElse(null), null, "icechunk", "PRIVATE",
          details.bucketNickname(), BucketRoutes.body(details.bucket(), request),
          repo.location().path().value(), details.locationUri(), Status.ONLINE,
          repo.createdAt(), repo.createdAt(), repo.createdAt(), repo.deletedAt().orElse(null),
          details.restorableUntil().orElse(null));
    }
  }

  /** A repo's operation mode in the client's terms; Floe has only "online". */
  record Status(String mode, String message, Map<String, Object> initiatedBy) {
    static final Status ONLINE = new Status("online", null, Map.of());
  }

  record RepoList(List<Repo> repos) {
    static RepoList of(List<RepoDetails> details, ManagementRequest request) {
      return new RepoList(details.stream().map(repo -> Repo.of(repo, request)).toList());
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

  /**
   * {@code POST /orgs/{org}/repos/{repo}/gc}: {@code dry_run} (default true: only report) and
   * {@code grace_seconds} (default: the use case's grace period); an empty body is all defaults.
   */
  static CollectRepoGarbageUseCase.Collection collection(String raw) {
    if (raw == null || raw.isBlank()) {
      return new CollectRepoGarbageUseCase.Collection(true, CollectRepoGarbageUseCase.DEFAULT_GRACE);
    }
    JsonFields body = new JsonFields(ManagementJson.read(raw, JsonNode.class));
    return new CollectRepoGarbageUseCase.Collection(body.bool("dry_run").orElse(true),
        body.nonNegativeLong("grace_seconds")
            .map(seconds -> DurationBounds.ofSeconds(seconds, "grace_seconds"))
            .orElse(CollectRepoGarbageUseCase.DEFAULT_GRACE));
  }

  /** A garbage collection's report; keys are relative to the repo's prefix. */
  record Garbage(String repo, boolean dryRun, long graceSeconds, Instant olderThan,
      List<RepoGarbage.Item> objects, long totalBytes, long sparedYoung,
      long sparedYoungBytes) {
    static Garbage of(RepoGarbage garbage) {
      return new Garbage(garbage.repo(), garbage.dryRun(), garbage.graceSeconds(),
          garbage.olderThan(), garbage.objects(), garbage.totalBytes(), garbage.sparedYoung(),
          garbage.sparedYoungBytes());
    }
  }
}
