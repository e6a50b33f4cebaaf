package io.floe.adapters.rest.management;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.model.CreateRepoCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.in.repo.BrowseRepoUseCase;
import io.floe.application.port.in.repo.CollectRepoGarbageUseCase;
import io.floe.application.port.in.repo.DescribeRepoUseCase;
import io.floe.application.port.in.repo.OpenRepoUseCase;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.in.repo.RepoLifecycleUseCase;
import io.floe.application.security.OrgContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The repo routes, Floe's and the arraylake client's, and the hosted-service routes Floe refuses:
 * deletes on a small recording fake, everything a route must refuse before its use case on
 * untouched ones.
 */
class RepoRoutesSliceTest {
  private static final Calls CALLS = new Calls();
  private static final List<String> DELETES = new ArrayList<>();
  private static RouteSlice slice;

  @BeforeAll
  static void start() {
    RepoLifecycleUseCase lifecycle = new RepoLifecycleUseCase() {
      private final RepoLifecycleUseCase untouched = CALLS.untouched(RepoLifecycleUseCase.class);

      @Override
      public RepoDetails create(OrgContext context, CreateRepoCommand command) {
        return untouched.create(context, command);
      }

      @Override
      public void delete(OrgContext context, String repo, DeleteCommand command) {
        CALLS.record("RepoLifecycle", "delete");
        if (!context.isAdmin()) {
          throw new ForbiddenException("Only an org admin may delete a repo");
        }
        if (repo.equals("missing")) {
          throw new NotFoundException("No such repo: %s", repo);
        }
        DELETES.add(repo + " " + command);
      }

      @Override
      public RepoDetails restore(OrgContext context, String repo) {
        return untouched.restore(context, repo);
      }
    };
    RepoDirectoryUseCase directory = CALLS.untouched(RepoDirectoryUseCase.class);
    BucketManagementUseCase buckets = CALLS.untouched(BucketManagementUseCase.class);
    slice = RouteSlice.with(CALLS)
        // In the server's order: the client's literal paths before Floe's {repo}.
        .routes(auth -> new ArraylakeRepoRoutes(auth, directory, lifecycle,
            CALLS.untouched(OpenRepoUseCase.class), CALLS.untouched(DescribeRepoUseCase.class),
            buckets))
        .routes(auth -> new RepoRoutes(auth, lifecycle, directory,
            CALLS.untouched(BrowseRepoUseCase.class), buckets,
            CALLS.untouched(CollectRepoGarbageUseCase.class))::register)
        .routes(auth -> new HostedServiceRoutes())
        .start();
  }

  @AfterAll
  static void stop() {
    slice.close();
  }

  @BeforeEach
  void forget() {
    CALLS.clear();
    DELETES.clear();
  }

  @Test
  void withoutAValidTokenEveryRouteIs401BeforeAnyUseCase() {
    List<Answer> answers = List.of(
        slice.post("/orgs/acme/repos", null, "{\"name\":\"r\"}"),
        slice.get("/orgs/acme/repos", "forged"),
        slice.get("/orgs/acme/repos/r", null),
        slice.delete("/orgs/acme/repos/r", null),
        slice.post("/orgs/acme/repos/r/restore", null, null),
        slice.post("/orgs/acme/repos/r/gc", null, "{}"),
        slice.get("/orgs/acme/repos/r/refs", null),
        slice.get("/orgs/acme/repos/r/log", null),
        slice.get("/orgs/acme/repos/r/nodes", "forged"),
        slice.get("/orgs/acme/repos/paginated", null),
        slice.get("/orgs/acme/buckets/main/repos", null),
        slice.get("/repos/acme/r", null),
        slice.get("/repos/acme/r/open", "forged"),
        slice.get("/repos/acme/r/bucket-credentials", null),
        slice.patch("/orgs/acme/r", null, "{\"description\":\"d\"}"),
        slice.delete("/orgs/acme/r", null));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void bothDeleteRoutesPassTheFlagsAndTheRefusals() {
    Answer floe = slice.delete("/orgs/acme/repos/cubes?retain_data=true", ADMIN);
    Answer client = slice.delete("/orgs/acme/grids?immediate=1", ADMIN);
    Answer member = slice.delete("/orgs/acme/repos/cubes", MEMBER);
    Answer missing = slice.delete("/orgs/acme/missing", ADMIN);

    assertThat(floe.status()).isEqualTo(204);
    assertThat(client.status()).isEqualTo(204);
    assertThat(DELETES).containsExactly("cubes " + new DeleteCommand(false, true),
        "grids " + new DeleteCommand(true, false));
    assertThat(member.status()).isEqualTo(403);
    assertThat(member.detail()).contains("admin");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.detail()).contains("missing");
  }

  @Test
  void malformedBodiesAndParametersAreRefusedBeforeTheUseCase() {
    List<Answer> answers = List.of(
        slice.post("/orgs/acme/repos", ADMIN, "{"),
        slice.post("/orgs/acme/repos", ADMIN, "{}"),
        slice.post("/orgs/acme/repos", ADMIN, "{\"name\":\"r\"} []"),
        slice.post("/orgs/acme/repos", ADMIN, "{\"name\":\"Not A Name\"}"),
        slice.post("/orgs/acme/repos/r/gc", ADMIN, "{\"older_than\":"),
        slice.get("/orgs/acme/repos/r/log?limit=many", MEMBER),
        slice.delete("/orgs/acme/repos/r?immediate=soon", ADMIN),
        slice.delete("/orgs/acme/r?retain_data=perhaps", ADMIN),
        slice.get("/orgs/acme/repos/paginated?page=one", MEMBER),
        slice.get("/orgs/acme/repos/paginated?filter_metadata=%7Bx", MEMBER),
        slice.patch("/orgs/acme/r", ADMIN, "{\"add_metadata\":{\"k\":\"v\"}}"),
        slice.patch("/orgs/acme/r", ADMIN, "not json"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer + " after " + CALLS.all()).isIn(400, 422);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate", "Authenticate.enterOrg");
    assertThat(DELETES).isEmpty();
  }

  @Test
  void optimizationConfigIsRefusedAsUnsupported() {
    Answer answer = slice.patch("/orgs/acme/r", ADMIN, "{\"optimization_config\":{}}");

    assertThat(answer.status()).isEqualTo(406);
    assertThat(answer.detail()).contains("optimization_config");
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void hostedServicesAre406WithWhatToUseInstead() {
    List<Answer> answers = List.of(
        slice.get("/compute", MEMBER),
        slice.post("/compute/jobs", MEMBER, "{}"),
        slice.post("/orgs/acme/repos/import", ADMIN, "{}"),
        slice.put("/orgs/acme/r/status", ADMIN, "{}"),
        slice.get("/orgs/acme/buckets/main/credentials", ADMIN),
        slice.get("/orgs/acme/permissions/check", MEMBER));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(406);
      assertThat(answer.detail()).startsWith("Floe ");
    }
    assertThat(answers.get(4).detail()).contains("get_repo");
    assertThat(CALLS.all()).isEmpty();
  }
}
