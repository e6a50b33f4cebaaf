package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.CreateRepoCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.model.VisibleBucket;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.in.repo.BrowseRepoUseCase;
import io.floe.application.port.in.repo.CollectRepoGarbageUseCase;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.in.repo.RepoLifecycleUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The management API of an org's Icechunk repos: create, read, list, soft delete and restore, and
 * browsing a repository's branches, tags, history and node attributes at any ref, and collecting
 * its garbage. Handlers only translate between HTTP and the use cases.
 */
public final class RepoRoutes {
  private static final String REPOS = "/orgs/{org}/repos";
  private static final String REPO = REPOS + "/{repo}";
  private static final int DEFAULT_LOG_LIMIT = 100;

  private final AuthenticateUseCase authentication;
  private final RepoLifecycleUseCase lifecycle;
  private final RepoDirectoryUseCase directory;
  private final BrowseRepoUseCase browse;
  private final BucketManagementUseCase buckets;
  private final CollectRepoGarbageUseCase garbage;

  public RepoRoutes(AuthenticateUseCase authentication, RepoLifecycleUseCase lifecycle,
      RepoDirectoryUseCase directory, BrowseRepoUseCase browse,
      BucketManagementUseCase buckets, CollectRepoGarbageUseCase garbage) {
    this.authentication = authentication;
    this.garbage = garbage;
    this.lifecycle = lifecycle;
    this.directory = directory;
    this.browse = browse;
    this.buckets = buckets;
  }

  public void register(RoutesConfig routes) {
    routes.post(REPOS, handle(r -> {
      CreateRepoCommand command = RepoBodies.createCommand(r.body(JsonNode.class));
      if (command.initializer() == CreateRepoCommand.Initializer.CLIENT) {
        ArraylakeBuckets.requireClientCanWrite(bucketFor(r.scope(), command));
      }
      r.respond(201, RepoBodies.Repo.of(lifecycle.create(r.scope(), command), r));
    }));
    // ?deleted=true lists the soft-deleted repos that can still be restored instead.
    routes.get(REPOS, handle(r -> r.ok(RepoBodies.RepoList.of(
        Boolean.parseBoolean(r.http().queryParam("deleted"))
            ? directory.listDeleted(r.scope()) : directory.list(r.scope()), r))));
    routes.get(REPO, handle(r -> r.ok(RepoBodies.Repo.of(directory.get(r.scope(), repo(r)), r))));
    // ?immediate=true frees the name now, ?retain_data=true keeps the files: as for namespaces.
    routes.delete(REPO, handle(r -> {
      QueryParams params = new QueryParams(r.http());
      lifecycle.delete(r.scope(), repo(r),
          new DeleteCommand(params.flag("immediate"), params.flag("retain_data")));
      r.respond(204, null);
    }));
    routes.post(REPO + "/restore", handle(r ->
        r.ok(RepoBodies.Repo.of(lifecycle.restore(r.scope(), repo(r)), r))));
    routes.post(REPO + "/gc", handle(r -> r.ok(RepoBodies.Garbage.of(garbage.collect(r.scope(),
        repo(r), RepoBodies.collection(r.text()))))));
    routes.get(REPO + "/refs", handle(r ->
        r.ok(RepoBodies.Refs.of(browse.refs(r.scope(), repo(r))))));
    routes.get(REPO + "/log", handle(r -> {
      String ref = ref(r);
      r.ok(RepoBodies.Log.of(ref, browse.log(r.scope(), repo(r), ref, limit(r))));
    }));
    routes.get(REPO + "/nodes", handle(r -> {
      String ref = ref(r);
      r.ok(RepoBodies.Node.of(ref, browse.node(r.scope(), repo(r), ref,
          r.http().queryParam("path"))));
    }));
  }

  /** The bucket a new repo goes to: the one named, else the org's default. */
  private BucketConfig bucketFor(OrgContext context, CreateRepoCommand command) {
    return command.bucketNickname()
        .map(nickname -> buckets.get(context, nickname.value()).bucket())
        .orElseGet(() -> buckets.list(context).stream().map(VisibleBucket::bucket)
            .filter(BucketConfig::isDefault)
            .findFirst().orElseThrow(() -> new BadRequestException(
                "Org '%s' has no default bucket configuration; name one with bucket_nickname",
                context.org().name())));
  }

  private static String repo(ManagementRequest request) {
    return request.http().pathParam("repo");
  }

  private static String ref(ManagementRequest request) {
    String ref = request.http().queryParam("ref");
    return ref == null || ref.isBlank() ? BrowseRepoUseCase.DEFAULT_REF : ref;
  }

  private static int limit(ManagementRequest request) {
    String raw = request.http().queryParam("limit");
    if (raw == null || raw.isBlank()) {
      return DEFAULT_LOG_LIMIT;
    }
    try {
      return Integer.parseInt(raw.strip());
    } catch (NumberFormatException e) {
      throw new BadRequestException("limit must be a number, got '%s'", raw);
    }
  }

  private io.javalin.http.Handler handle(Consumer<ManagementRequest> handler) {
    return (Context ctx) -> handler.accept(new ManagementRequest(ctx, authentication));
  }
}
