package io.floe.adapters.rest.management;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static io.floe.adapters.rest.slice.FakeAuthentication.OUTSIDER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.model.DeleteCommand;
import io.floe.application.port.in.lifecycle.RunCleanupUseCase;
import io.floe.application.port.in.namespace.NamespaceManagementUseCase;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.CatalogName;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The namespace management and bucket routes under {@code /orgs/{org}}: deletes and cleanup on
 * small recording fakes, everything a route must refuse before its use case on untouched ones.
 */
class NamespaceManagementRoutesSliceTest {
  private static final Calls CALLS = new Calls();
  private static final List<String> DELETES = new ArrayList<>();
  private static RouteSlice slice;

  @BeforeAll
  static void start() {
    NamespaceManagementUseCase namespaces = new DeletingNamespaces();
    RunCleanupUseCase cleanup = context -> {
      CALLS.record("RunCleanup", "runFor");
      if (!context.isAdmin()) {
        throw new ForbiddenException("Only an org admin may run the cleanup");
      }
      return new RunCleanupUseCase.CleanupReport(1, 2, 3, 4, 0, 5);
    };
    BucketManagementUseCase buckets = CALLS.untouched(BucketManagementUseCase.class);
    slice = RouteSlice.with(CALLS)
        .routes(auth -> new NamespaceManagementRoutes(auth, namespaces, cleanup)
            .andThen(new BucketRoutes(auth, buckets)))
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

  /** Deletes namespaces: {@code missing} does not exist, {@code busy} holds tables. */
  private static final class DeletingNamespaces implements NamespaceManagementUseCase {
    private final NamespaceManagementUseCase untouched =
        CALLS.untouched(NamespaceManagementUseCase.class);

    @Override
    public void delete(OrgContext context, CatalogName name, DeleteCommand command) {
      CALLS.record("NamespaceManagement", "delete");
      switch (name.value()) {
        case "missing" -> throw new NoSuchNamespaceException("Namespace does not exist: %s",
            name);
        case "busy" -> throw new NamespaceNotEmptyException("Namespace %s is not empty", name);
        default -> DELETES.add(name.value() + " " + command);
      }
    }

    @Override
    public io.floe.application.model.NamespaceDetails create(OrgContext context,
        io.floe.application.model.CreateNamespaceCommand command) {
      return untouched.create(context, command);
    }

    @Override
    public io.floe.application.model.NamespaceDetails get(OrgContext context, CatalogName name) {
      return untouched.get(context, name);
    }

    @Override
    public io.floe.application.model.NamespaceDetails modify(OrgContext context,
        CatalogName name, io.floe.application.model.ModifyNamespaceCommand command) {
      return untouched.modify(context, name, command);
    }

    @Override
    public io.floe.application.model.NamespaceDetails restore(OrgContext context,
        CatalogName name) {
      return untouched.restore(context, name);
    }

    @Override
    public List<io.floe.application.model.NamespaceDetails> list(OrgContext context,
        boolean includeGhosts) {
      return untouched.list(context, includeGhosts);
    }

    @Override
    public io.floe.application.model.Page<io.floe.application.model.NamespaceDetails> search(
        OrgContext context, io.floe.application.model.NamespaceQuery query) {
      return untouched.search(context, query);
    }

    @Override
    public io.floe.application.model.Page<io.floe.application.model.TableSummary> tables(
        OrgContext context, CatalogName namespace, io.floe.application.model.TableQuery query) {
      return untouched.tables(context, namespace, query);
    }
  }

  @Test
  void withoutAValidTokenEveryRouteIs401BeforeAnyUseCase() {
    List<Answer> answers = List.of(
        slice.get("/orgs/acme/iceberg/namespaces", null),
        slice.get("/orgs/acme/iceberg/namespaces/paginated", "forged"),
        slice.post("/orgs/acme/iceberg/namespaces", null, "{\"name\":\"n\"}"),
        slice.patch("/orgs/acme/iceberg/namespaces/sales", null, "{}"),
        slice.delete("/orgs/acme/iceberg/namespaces/sales?imsure=true", null),
        slice.post("/orgs/acme/iceberg/namespaces/sales/restore", null, null),
        slice.post("/orgs/acme/iceberg/cleanup", "forged", null),
        slice.get("/orgs/acme/buckets", null),
        slice.post("/orgs/acme/buckets", null, "{}"),
        slice.patch("/orgs/acme/buckets/main", null, "{}"),
        slice.delete("/orgs/acme/buckets/main", "forged"),
        slice.post("/orgs/acme/buckets/main/default", null, null));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void anOrgTheCallerIsNotInIs404() {
    Answer answer = slice.delete("/orgs/acme/iceberg/namespaces/sales?imsure=true", OUTSIDER);

    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.detail()).isNotBlank();
    assertThat(DELETES).isEmpty();
  }

  @Test
  void deletingNeedsImsureAndPassesTheFlags() {
    Answer unsure = slice.delete("/orgs/acme/iceberg/namespaces/sales", ADMIN);
    Answer notBoolean = slice.delete("/orgs/acme/iceberg/namespaces/sales?imsure=perhaps", ADMIN);
    Answer deleted = slice.delete(
        "/orgs/acme/iceberg/namespaces/sales?imsure=true&immediate=true", ADMIN);

    assertThat(unsure.status()).isEqualTo(422);
    assertThat(unsure.detail()).contains("imsure=true");
    assertThat(notBoolean.status()).isEqualTo(422);
    assertThat(notBoolean.detail()).contains("imsure");
    assertThat(deleted.status()).isEqualTo(204);
    assertThat(DELETES).containsExactly("sales " + new DeleteCommand(true, false));
  }

  @Test
  void theDeleteUseCasesRefusalsKeepTheirStatus() {
    Answer missing = slice.delete("/orgs/acme/iceberg/namespaces/missing?imsure=true", ADMIN);
    Answer busy = slice.delete("/orgs/acme/iceberg/namespaces/busy?imsure=true", ADMIN);

    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.detail()).contains("missing");
    assertThat(busy.status()).isEqualTo(409);
    assertThat(busy.detail()).contains("not empty");
  }

  @Test
  void cleanupAnswersItsReportOrTheRefusal() {
    Answer report = slice.post("/orgs/acme/iceberg/cleanup", ADMIN, null);
    Answer refused = slice.post("/orgs/acme/iceberg/cleanup", MEMBER, null);

    assertThat(report.status()).isEqualTo(200);
    assertThat(report.json().path("namespaces_purged").asInt()).isEqualTo(2);
    assertThat(report.json().path("repos_purged").asInt()).isEqualTo(5);
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.detail()).contains("admin");
  }

  @Test
  void malformedNamesParametersAndBodiesAreRefusedBeforeTheUseCase() {
    List<Answer> answers = List.of(
        slice.post("/orgs/acme/iceberg/namespaces", ADMIN, "{"),
        slice.post("/orgs/acme/iceberg/namespaces", ADMIN, "{\"name\":\"a\"} x"),
        slice.post("/orgs/acme/iceberg/namespaces", ADMIN, "{}"),
        slice.post("/orgs/acme/iceberg/namespaces", ADMIN, "{\"name\":\"Bad Name!\"}"),
        slice.post("/orgs/acme/iceberg/namespaces", ADMIN, "{\"name\":\"ok\","
            + "\"visibility\":\"everyone\"}"),
        slice.post("/orgs/acme/iceberg/namespaces", ADMIN, "{\"name\":\"ok\","
            + "\"metadata\":[1,2]}"),
        slice.patch("/orgs/acme/iceberg/namespaces/Bad%20Name", ADMIN, "{}"),
        slice.get("/orgs/acme/iceberg/namespaces/paginated?page=first", MEMBER),
        slice.get("/orgs/acme/iceberg/namespaces/paginated?size=-", MEMBER),
        slice.get("/orgs/acme/iceberg/namespaces/paginated?sort=sideways", MEMBER),
        slice.get("/orgs/acme/iceberg/namespaces/paginated?direction=up", MEMBER),
        slice.get("/orgs/acme/iceberg/namespaces/paginated?filter_metadata=%7B", MEMBER),
        slice.get("/orgs/acme/iceberg/namespaces?include_ghosts=maybe", MEMBER),
        slice.get("/orgs/acme/iceberg/namespaces/sales/tables/paginated?page=x", MEMBER),
        slice.post("/orgs/acme/buckets", ADMIN, "{\"nickname\":\"b\"}"),
        slice.post("/orgs/acme/buckets", ADMIN, "{\"nickname\":\"b\",\"platform\":\"floppy\","
            + "\"name\":\"x\"}"),
        slice.post("/orgs/acme/buckets", ADMIN, "[]"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isIn(400, 422);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate", "Authenticate.enterOrg");
  }

  @Test
  void garbageInThePathIs400BeforeAuthentication() {
    Answer nul = slice.raw("DELETE", "/orgs/acme/iceberg/namespaces/a%00?imsure=true", ADMIN);
    Answer escape = slice.raw("GET", "/orgs/acme/buckets/%C0%AF", ADMIN);

    assertThat(nul.status()).isEqualTo(400);
    assertThat(escape.status()).isEqualTo(400);
    assertThat(CALLS.all()).isEmpty();
  }
}
