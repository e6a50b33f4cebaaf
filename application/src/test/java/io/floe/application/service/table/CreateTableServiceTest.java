package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AccessDelegation;
import io.floe.application.model.AuditEntry;
import io.floe.application.port.in.table.CreateTableUseCase;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.RecordingStorageAccess;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.junit.jupiter.api.Test;

/**
 * Creating tables on the fakes: the server picks the location whatever the client asks, the
 * entry, the first metadata file and the audit entry come together, who may create and what a
 * caller who cannot see the namespace is told, names already taken by a table or a view, a staged
 * create that writes nothing, a table on a bucket of its own, storage access for the writer, and
 * a create replayed by its idempotency key.
 */
class CreateTableServiceTest {
  private final Testbed bed = new Testbed();
  private final RecordingStorageAccess access = new RecordingStorageAccess(bed.clock, true, false);
  private final CreateTableService create = new CreateTableService(bed.locator(), bed.policy(),
      bed.placement(), bed.files, bed.entries(), bed.publisher(),
      bed.storageAccess(access, access), bed.ids, new RepoTableCreation(bed.repoNamespaces(),
          bed.placement(), bed.files, bed.committer(), bed.publisher(), bed.storageAccess()));
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext writer = bed.member("writer", Role.MEMBER);
  private final OrgContext stranger = bed.member("stranger", Role.MEMBER);

  private static final org.apache.iceberg.catalog.Namespace SALES =
      org.apache.iceberg.catalog.Namespace.of("sales");

  CreateTableServiceTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
    bed.grant(writer.caller().principal().id(), sales, Optional.empty(), Action.WRITE);
  }

  private static CreateTableRequest.Builder named(String name) {
    return CreateTableRequest.builder().withName(name).withSchema(Testbed.SCHEMA);
  }

  private LoadTableResponse create(OrgContext context, CreateTableRequest request) {
    return create.createTable(context, SALES, request, Set.of());
  }

  private Optional<CatalogObject> entry(String name) {
    return bed.store.objects().find(bed.org.id(), sales.name(), new TableName(name));
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  @Test
  void aWriterCreatesTheTableUnderTheNamespacePrefixWithItsFirstMetadataFileAndAnAuditEntry() {
    LoadTableResponse created = create(writer, named("orders").build());

    String root = bed.bucket.uriOf(sales.prefix());
    assertThat(created.tableMetadata().location()).startsWith(root + "/orders-");
    assertThat(created.metadataLocation())
        .startsWith(created.tableMetadata().location() + "/metadata/00000-");
    assertThat(created.tableMetadata().schema().sameSchema(Testbed.SCHEMA)).isTrue();
    assertThat(bed.metadataIo.exists(created.metadataLocation())).isTrue();
    CatalogObject entry = entry("orders").orElseThrow();
    assertThat(entry.kind()).isEqualTo(CatalogObject.Kind.TABLE);
    assertThat(entry.metadataLocation()).isEqualTo(created.metadataLocation());
    assertThat(bed.bucket.uriOf(entry.location().path()))
        .isEqualTo(created.tableMetadata().location());
    assertThat(audit()).singleElement().satisfies(audited -> {
      assertThat(audited.action()).isEqualTo("table.create");
      assertThat(audited.principalName()).isEqualTo("writer");
      assertThat(audited.targetName()).isEqualTo("sales.orders");
      assertThat(audited.details()).containsEntry("namespace", "sales")
          .containsEntry("metadata_location", created.metadataLocation());
    });
  }

  @Test
  void aLocationTheClientAsksForIsIgnoredAndTwoTablesNeverShareADirectory() {
    LoadTableResponse first = create(bed.admin, named("orders")
        .withLocation("s3://data/elsewhere/orders").build());
    bed.store.objects().delete(entry("orders").orElseThrow().id());
    LoadTableResponse again = create(bed.admin, named("orders").build());

    assertThat(first.tableMetadata().location())
        .startsWith(bed.bucket.uriOf(sales.prefix()) + "/orders-")
        .isNotEqualTo(again.tableMetadata().location());
  }

  @Test
  void aPathPropertyOutsideTheTableIsRefusedBeforeAnythingIsWritten() {
    int written = bed.metadataIo.written().size();

    assertThatThrownBy(() -> create(bed.admin, named("orders")
        .setProperty(TableProperties.WRITE_DATA_LOCATION, "s3://data/somewhere-else").build()))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("write.data.path");
    assertThat(entry("orders")).isEmpty();
    assertThat(bed.metadataIo.written()).hasSize(written);
    assertThat(audit()).isEmpty();
  }

  @Test
  void aReaderMayNotCreateAndAStrangerIsToldTheNamespaceDoesNotExist() {
    int written = bed.metadataIo.written().size();

    assertThatThrownBy(() -> create(reader, named("orders").build()))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> create(stranger, named("orders").build()))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThatThrownBy(() -> create.createTable(bed.admin,
        org.apache.iceberg.catalog.Namespace.of("missing"), named("orders").build(), Set.of()))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(entry("orders")).isEmpty();
    assertThat(bed.metadataIo.written()).hasSize(written);
    assertThat(audit()).isEmpty();
  }

  @Test
  void aNameHeldByATableOrAViewIsAConflictNamingWhatHoldsIt() {
    CatalogObject orders = bed.table(sales, "orders");
    bed.view(sales, "daily");

    assertThatThrownBy(() -> create(bed.admin, named("orders").build()))
        .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("Table already exists");
    assertThatThrownBy(() -> create(bed.admin, named("daily").build()))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("View with same name already exists");
    assertThat(entry("orders").orElseThrow().metadataLocation())
        .isEqualTo(orders.metadataLocation());
    assertThat(audit()).isEmpty();
  }

  @Test
  void aStagedCreateHandsOutTheMetadataAndCreatesNothing() {
    int written = bed.metadataIo.written().size();

    LoadTableResponse staged = create(writer, named("orders").stageCreate().build());

    assertThat(staged.tableMetadata().location())
        .startsWith(bed.bucket.uriOf(sales.prefix()) + "/orders-");
    assertThat(staged.metadataLocation()).isNull();
    assertThat(entry("orders")).isEmpty();
    assertThat(bed.metadataIo.written()).hasSize(written);
    assertThat(audit()).isEmpty();
  }

  @Test
  void aTableOnABucketOfItsOwnGetsAClaimedPrefixThereAndTheAuditSaysWhichBucket() {
    BucketConfig archive = new BucketConfig(bed.ids.newId(), bed.org.id(),
        new CatalogName("archive"), StoragePlatform.S3, "archive", StoragePath.root(),
        Optional.empty(), Optional.empty(), false, BucketCredentials.ambient(), false);
    bed.store.orgs().insertBucket(archive);

    LoadTableResponse created = create(bed.admin, named("orders")
        .setProperty(CreateTableUseCase.BUCKET_PROPERTY, "archive").build());

    assertThat(created.tableMetadata().location()).startsWith("s3://archive/");
    CatalogObject entry = entry("orders").orElseThrow();
    assertThat(entry.hasStorageOverride()).isTrue();
    assertThat(entry.location().bucketId()).isEqualTo(archive.id());
    assertThat(bed.storage.open(archive).keys())
        .allMatch(key -> key.isWithin(entry.location().path())).isNotEmpty();
    assertThat(audit()).singleElement()
        .satisfies(audited -> assertThat(audited.details()).containsEntry("own_bucket", "archive"));
  }

  @Test
  void anUnknownBucketAndABucketWithAStagedCreateAreRefused() {
    assertThatThrownBy(() -> create(bed.admin, named("orders")
        .setProperty(CreateTableUseCase.BUCKET_PROPERTY, "nowhere").build()))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("nowhere");
    assertThatThrownBy(() -> create(bed.admin, named("orders").stageCreate()
        .setProperty(CreateTableUseCase.BUCKET_PROPERTY, "main").build()))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("staged");
    assertThat(entry("orders")).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void theWriterIsVendedReadWriteCredentialsForTheNewTableOnlyWhenItAsksForThem() {
    LoadTableResponse plain = create(writer, named("plain").build());
    LoadTableResponse vended = create.createTable(writer, SALES, named("orders").build(),
        Set.of(AccessDelegation.VENDED_CREDENTIALS));

    assertThat(plain.credentials()).isEmpty();
    assertThat(vended.credentials()).singleElement().satisfies(credential -> {
      assertThat(credential.prefix()).isEqualTo(vended.tableMetadata().location());
      assertThat(credential.config()).containsEntry(RecordingStorageAccess.ACCESS,
          Access.READ_WRITE.name());
    });
    assertThat(access.grants()).singleElement().satisfies(grant -> {
      assertThat(grant.access()).isEqualTo(Access.READ_WRITE);
      assertThat(grant.requester()).isEqualTo("writer");
      assertThat(grant.location()).isEqualTo(entry("orders").orElseThrow().location().path());
    });
  }

  @Test
  void theSameCreateSentAgainWithItsKeyIsReplayedAndTheKeyRefusesAnotherRequest() {
    OrgContext keyed = Testbed.withKey(writer, "create-1", "POST sales orders");
    LoadTableResponse first = create(keyed, named("orders").build());
    int written = bed.metadataIo.written().size();

    LoadTableResponse again = create(keyed, named("orders").build());

    assertThat(again.metadataLocation()).isEqualTo(first.metadataLocation());
    assertThat(bed.metadataIo.written()).hasSize(written);
    assertThat(audit()).hasSize(1);
    assertThatThrownBy(() -> create(Testbed.withKey(writer, "create-1", "POST sales items"),
        named("items").build())).isInstanceOf(UnprocessableEntityException.class);
    assertThat(entry("items")).isEmpty();
  }
}
