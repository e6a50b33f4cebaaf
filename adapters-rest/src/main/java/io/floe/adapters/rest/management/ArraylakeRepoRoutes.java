package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.model.DeleteCommand;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.in.repo.DescribeRepoUseCase;
import io.floe.application.model.Invalid;
import io.floe.application.port.in.repo.OpenRepoUseCase;
import io.floe.application.port.in.repo.OpenRepoUseCase.RepoAccess;
import io.floe.application.model.Page;
import io.floe.application.model.PageRequest;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.in.repo.RepoLifecycleUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The repo routes the arraylake client calls besides Floe's own ({@link RepoRoutes}): its paged
 * listing, its {@code /repos/{org}/{repo}} reads, what it needs to open a repo's Icechunk
 * repository itself ({@code /open}, {@code /bucket-credentials}), and its modify and delete at
 * {@code /orgs/{org}/{repo}}. They are registered before Floe's, so that
 * {@code /orgs/{org}/repos/paginated} is this listing and not a repo named "paginated".
 */
public final class ArraylakeRepoRoutes implements Consumer<RoutesConfig> {
  /** A principal's address in Icechunk commit metadata; Floe keeps no e-mail addresses. */
  static final String AUTHOR_DOMAIN = "floe.internal";

  private final AuthenticateUseCase authentication;
  private final RepoDirectoryUseCase repos;
  private final RepoLifecycleUseCase lifecycle;
  private final OpenRepoUseCase opening;
  private final DescribeRepoUseCase descriptions;
  private final BucketManagementUseCase buckets;

  public ArraylakeRepoRoutes(AuthenticateUseCase authentication, RepoDirectoryUseCase repos,
      RepoLifecycleUseCase lifecycle, OpenRepoUseCase opening, DescribeRepoUseCase descriptions,
      BucketManagementUseCase buckets) {
    this.authentication = authentication;
    this.repos = repos;
    this.lifecycle = lifecycle;
    this.opening = opening;
    this.descriptions = descriptions;
    this.buckets = buckets;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get("/orgs/{org}/repos/paginated", handle(this::page));
    routes.get("/orgs/{org}/buckets/{bucket}/repos", handle(r -> {
      // A bucket the org does not have is a 404, not an empty listing.
      BucketConfig bucket = buckets.get(r.scope(), r.http().pathParam("bucket")).bucket();
      r.ok(repos.list(r.scope()).stream()
          .filter(repo -> repo.bucket().id().equals(bucket.id()))
          .map(repo -> RepoBodies.Repo.of(repo, r)).toList());
    }));
    routes.get("/repos/{org}/{repo}", handle(r ->
        r.ok(RepoBodies.Repo.of(repos.get(r.scope(), repo(r)), r))));
    routes.get("/repos/{org}/{repo}/open", handle(this::open));
    routes.get("/repos/{org}/{repo}/bucket-credentials", handle(r -> {
      RepoAccess access = readableByClient(r.scope(), repo(r));
      r.ok(credentials(access, r.caller().principal().name()).orElseThrow(() ->
          new UnsupportedOperationException(String.format("Bucket '%s' vends no credentials: "
              + "Floe has no role to assume for it", access.repo().bucketNickname()))));
    }));
    // The client's modify and delete name the repo right under the org. No other route of Floe
    // has this shape with these methods.
    routes.patch("/orgs/{org}/{repo}", handle(this::modify));
    routes.delete("/orgs/{org}/{repo}", handle(r -> {
      QueryParams params = new QueryParams(r.http());
      lifecycle.delete(r.scope(), repo(r),
          new DeleteCommand(params.flag("immediate"), params.flag("retain_data")));
      r.respond(204, null);
    }));
  }

  /** The client's paged listing: by name, soft-deleted ones too with include_ghosts=true. */
  private void page(ManagementRequest r) {
    QueryParams params = new QueryParams(r.http());
    PageRequest request = new PageRequest(params.integer("page", 1),
        params.integer("size", PageRequest.DEFAULT_SIZE));
    JsonNode filter = params.json("filter_metadata").orElse(null);
    List<RepoDetails> all = new ArrayList<>(repos.list(r.scope()));
    if (params.flag("include_ghosts")) {
      all.addAll(repos.listDeleted(r.scope()));
    }
    all.sort(Comparator.comparing((RepoDetails repo) -> repo.repo().name().key())
        .thenComparing(repo -> repo.repo().deletedAt().orElse(Instant.MAX)));
    if (filter != null && !filter.isEmpty()) {
      // Floe repos have no metadata, so no repo matches a filter on it.
      all.clear();
    }
    List<RepoBodies.Repo> items = all.stream().skip(request.offset()).limit(request.size())
        .map(repo -> RepoBodies.Repo.of(repo, r)).toList();
    r.ok(NamespaceJson.page(new Page<>(items, all.size(), request.page(), request.size()),
        item -> item));
  }

  /** Everything the client needs to open the repository: the client's OpenRepoResponse. */
  private void open(ManagementRequest r) {
    RepoAccess access = readableByClient(r.scope(), repo(r));
    var principal = r.caller().principal();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("repo_bucket", BucketRoutes.body(access.repo().bucket(), Vocabulary.ARRAYLAKE,
        r.serverUrl()));
    body.put("repo_prefix", access.repo().repo().location().path().value());
    body.put("repo_credentials", credentials(access, principal.name()).orElse(null));
    body.put("virtual_chunk_credentials", Map.of());
    body.put("author", Map.of("name", principal.name(),
        "email", principal.id() + "@" + AUTHOR_DOMAIN));
    body.put("principal_id", principal.id().toString());
    body.put("status", RepoBodies.Status.ONLINE);
    r.ok(body);
  }

  private void modify(ManagementRequest r) {
    JsonFields body = new JsonFields(r.body(JsonNode.class));
    for (String field : List.of("add_metadata", "update_metadata", "remove_metadata")) {
      JsonNode node = body.node(field);
      if (node != null && !node.isNull() && !node.isEmpty()) {
        throw Invalid.because("Floe repos have no metadata yet; only the description can change");
      }
    }
    JsonNode optimization = body.node("optimization_config");
    if (optimization != null && !optimization.isNull()) {
      throw new UnsupportedOperationException("Floe does not run Arraylake's optimization jobs "
          + "(garbage collection, expiration): optimization_config cannot be set");
    }
    RepoDetails repo = body.node("description") == null ? repos.get(r.scope(), repo(r))
        : descriptions.describe(r.scope(), repo(r),
            body.text("description").filter(text -> !text.isEmpty()));
    r.ok(RepoBodies.Repo.of(repo, r));
  }

  /**
   * The repo with credentials for its prefix: the cloud's, or on a local bucket Floe's own, for
   * its S3 endpoint.
   */
  private RepoAccess readableByClient(OrgContext context, String repo) {
    return opening.open(context, repo);
  }

  /** Vended credentials in the client's shape for the bucket's platform. */
  private static Optional<Map<String, Object>> credentials(RepoAccess access, String principal) {
    Map<String, String> vended = access.credentials();
    String expiration = access.expiresAt().map(Instant::toString).orElse(null);
    Map<String, Object> body = new LinkedHashMap<>();
    if (vended.containsKey("s3.access-key-id")) {
      body.put("aws_access_key_id", vended.get("s3.access-key-id"));
      body.put("aws_secret_access_key", vended.get("s3.secret-access-key"));
      body.put("aws_session_token", vended.get("s3.session-token"));
      body.put("expiration", expiration);
      return Optional.of(body);
    }
    if (vended.containsKey("gcs.oauth2.token")) {
      body.put("access_token", vended.get("gcs.oauth2.token"));
      body.put("principal", principal);
      body.put("expiration", expiration);
      return Optional.of(body);
    }
    return Optional.empty();
  }

  private static String repo(ManagementRequest r) {
    return r.http().pathParam("repo");
  }

  private Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
