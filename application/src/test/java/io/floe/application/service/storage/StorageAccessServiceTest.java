package io.floe.application.service.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.RecordingStorageAccess;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.requests.ImmutableRemoteSignRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;
import org.junit.jupiter.api.Test;

/**
 * Credentials and signatures for a table's files on the fakes: for callers who may read the
 * table, scoped to the table's directory, read-write only for those who may write to it; for
 * anyone else, and for a view, there is no such table and nothing is vended or signed.
 */
class StorageAccessServiceTest {
  private final Testbed bed = new Testbed();
  private final RecordingStorageAccess access = new RecordingStorageAccess(bed.clock, true, true);
  private final StorageAccessService service = new StorageAccessService(bed.locator(),
      bed.policy(), bed.storageAccess(access, access), access);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.table(sales, "orders");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext writer = bed.member("writer", Role.MEMBER);
  private final OrgContext stranger = bed.member("stranger", Role.MEMBER);
  private final TableIdentifier ordersId = TableIdentifier.of("sales", "orders");

  StorageAccessServiceTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
    bed.grant(writer.caller().principal().id(), sales, Optional.empty(), Action.WRITE);
  }

  private static RemoteSignRequest put(String uri) {
    return ImmutableRemoteSignRequest.builder().method("PUT").uri(URI.create(uri))
        .region("us-east-1").headers(Map.of("Host", List.of("data.s3.amazonaws.com")))
        .properties(Map.of()).provider("s3").build();
  }

  @Test
  void aReaderGetsReadOnlyAndAWriterReadWriteCredentialsForTheTablesDirectory() {
    LoadCredentialsResponse read = service.credentials(reader, ordersId);
    LoadCredentialsResponse written = service.credentials(writer, ordersId);

    assertThat(read.credentials()).singleElement().satisfies(credential -> {
      assertThat(credential.prefix()).isEqualTo(bed.bucket.uriOf(orders.location().path()));
      assertThat(credential.config()).containsEntry(RecordingStorageAccess.ACCESS,
          Access.READ_ONLY.name());
    });
    assertThat(written.credentials()).singleElement().satisfies(credential -> assertThat(
        credential.config()).containsEntry(RecordingStorageAccess.ACCESS,
        Access.READ_WRITE.name()));
    assertThat(access.grants()).extracting(RecordingStorageAccess.Grant::location)
        .containsOnly(orders.location().path());
  }

  @Test
  void requestsAreSignedForTheTablesDirectoryWithTheCallersAccess() {
    String uri = bed.bucket.uriOf(orders.location().path()) + "/data/file.parquet";

    RemoteSignResponse read = service.sign(reader, ordersId, put(uri));
    RemoteSignResponse written = service.sign(writer, ordersId, put(uri));

    assertThat(read.headers().get("Authorization")).containsExactly("signed READ_ONLY");
    assertThat(written.headers().get("Authorization")).containsExactly("signed READ_WRITE");
    assertThat(access.grants()).allSatisfy(grant -> {
      assertThat(grant.kind()).isEqualTo("sign");
      assertThat(grant.location()).isEqualTo(orders.location().path());
    });
  }

  @Test
  void aGrantOnAnotherTableOrNoneAtAllMeansThereIsNoSuchTableAndNothingIsGranted() {
    CatalogObject items = bed.table(sales, "items");
    OrgContext itemsReader = bed.member("items-reader", Role.MEMBER);
    bed.grant(itemsReader.caller().principal().id(), sales, Optional.of(items), Action.WRITE);
    bed.view(sales, "daily");
    String uri = bed.bucket.uriOf(orders.location().path()) + "/data/file.parquet";

    assertThatThrownBy(() -> service.credentials(stranger, ordersId))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> service.sign(stranger, ordersId, put(uri)))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> service.credentials(itemsReader, ordersId))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> service.credentials(bed.admin, TableIdentifier.of("sales", "daily")))
        .isInstanceOf(NoSuchTableException.class);
    assertThat(access.grants()).isEmpty();

    assertThat(service.credentials(itemsReader, TableIdentifier.of("sales", "items"))
        .credentials()).singleElement().satisfies(credential -> assertThat(credential.config())
        .containsEntry(RecordingStorageAccess.ACCESS, Access.READ_WRITE.name()));
  }

  /**
   * What is vended names the table's credentials route, so that an engine's FileIO renews it
   * there before it expires; each renewal asks the policy again, so once the caller's grant is
   * revoked the route refuses and nothing is vended, whatever the adapter still caches.
   */
  @Test
  void vendedCredentialsNameTheirRefreshRouteWhichRefusesACallerWhoseGrantIsRevoked() {
    String route = "v1/" + bed.org.name().value() + "/namespaces/sales/tables/orders/credentials";
    LoadCredentialsResponse first = service.credentials(reader, ordersId);
    assertThat(first.credentials()).singleElement().satisfies(credential -> assertThat(
        credential.config()).containsEntry(RecordingStorageAccess.REFRESH_ENDPOINT, route));
    var granted = bed.storageAccess(access, access).grant(reader, ordersId, bed.bucket,
        orders.location().path(), Access.READ_ONLY,
        java.util.Set.of(io.floe.application.model.AccessDelegation.VENDED_CREDENTIALS));
    assertThat(granted.config()).containsEntry(RecordingStorageAccess.REFRESH_ENDPOINT, route);
    assertThat(service.credentials(reader, ordersId).credentials()).hasSize(1);
    int vended = access.grants().size();

    bed.store.grants().list(bed.org.id(), Optional.empty(),
            Optional.of(reader.caller().principal().id()))
        .forEach(named -> bed.store.grants().delete(named.entry().id()));

    assertThatThrownBy(() -> service.credentials(reader, ordersId))
        .isInstanceOf(NoSuchTableException.class);
    assertThat(access.grants()).hasSize(vended);
  }

  @Test
  void aBucketThatVendsNothingAnswersAnEmptyList() {
    RecordingStorageAccess none = new RecordingStorageAccess(bed.clock, false, false);
    StorageAccessService local = new StorageAccessService(bed.locator(), bed.policy(),
        bed.storageAccess(none, none), none);

    assertThat(local.credentials(reader, ordersId).credentials()).isEmpty();
  }
}
