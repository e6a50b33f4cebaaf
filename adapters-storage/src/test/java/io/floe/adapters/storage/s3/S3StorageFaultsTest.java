package io.floe.adapters.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.storage.StorageAdapters;
import io.floe.adapters.storage.servers.FaultProxy;
import io.floe.adapters.storage.servers.FaultProxy.Fault;
import io.floe.adapters.storage.servers.MotoServer;
import io.floe.adapters.storage.shared.StorageTimeouts;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.out.StorageRefusedException;
import io.floe.application.port.out.StorageUnavailableException;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A store that misbehaves the way stores do, through {@link FaultProxy} in front of moto:
 * what the server's storage calls make of it (busy: unavailable, worth retrying; a refusal of
 * the server's own configuration: not), how long they wait on a store that does not answer, and
 * that such a store holds no more than its bulkhead's calls while other buckets go on.
 */
class S3StorageFaultsTest {
  /** Generous: a loaded machine's scheduling on top of the clients' bound. */
  private static final Duration BOUND = StorageTimeouts.CALL.plusSeconds(5);
  private static final int CALLS_PER_BUCKET = 2;

  private static MotoServer store;
  private static FaultProxy proxy;
  private static StorageAdapters adapters;
  private static BucketConfig faulty;
  private static BucketConfig healthy;

  @BeforeAll
  static void start() throws Exception {
    store = new MotoServer();
    proxy = new FaultProxy(store.endpoint());
    adapters = new StorageAdapters(StorageAdapters.DEFAULT_CREDENTIAL_LIFETIME, CALLS_PER_BUCKET);
    faulty = config("faulty-lake", "faulty", proxy.endpoint());
    healthy = config("healthy-lake", "healthy", store.endpoint());
    try (S3Client client = S3Clients.s3(healthy)) {
      client.createBucket(b -> b.bucket("faulty"));
      client.createBucket(b -> b.bucket("healthy"));
    }
  }

  @AfterEach
  void heal() {
    proxy.fault(Fault.NONE);
  }

  @AfterAll
  static void stop() throws Exception {
    adapters.close();
    proxy.close();
    store.close();
  }

  @ParameterizedTest
  @EnumSource(value = Fault.class, names = {"SLOW_DOWN", "INTERNAL_ERROR"})
  void aBusyStoreIsUnavailableStorageNamingTheBucketNotItsHost(Fault fault) {
    proxy.fault(fault);
    MetadataFiles files = new MetadataFiles(adapters);

    assertThatThrownBy(() -> files.writeTable(faulty, metadata(faulty, "t1"), Optional.empty()))
        .isInstanceOf(StorageUnavailableException.class)
        .hasMessageContaining("'faulty-lake'")
        .hasMessageNotContaining("127.0.0.1");
    assertThatThrownBy(() -> adapters.open(faulty).get(new StoragePath("any/key")))
        .isInstanceOf(StorageUnavailableException.class)
        .hasMessageContaining("'faulty-lake'");
  }

  @Test
  void aStoreRefusingTheServersOwnConfigurationSaysRetryingWillNotHelp() {
    proxy.fault(Fault.ACCESS_DENIED);
    MetadataFiles files = new MetadataFiles(adapters);
    int before = proxy.faulted();

    assertThatThrownBy(() -> files.writeTable(faulty, metadata(faulty, "t1"), Optional.empty()))
        .isInstanceOf(StorageRefusedException.class)
        .hasMessageContaining("'faulty-lake'")
        .hasMessageContaining("answered 403")
        .hasMessageContaining("will not help");
    int refusals = proxy.faulted() - before;

    BucketConfig missing = config("missing-lake", "no-such-bucket", store.endpoint());
    assertThatThrownBy(() -> adapters.open(missing).put(new StoragePath("a/b"), new byte[1]))
        .isInstanceOf(StorageRefusedException.class)
        .hasMessageContaining("'missing-lake'")
        .hasMessageContaining("NoSuchBucket");
    assertThat(refusals).as("a refusal is not retried").isEqualTo(1);
  }

  @Test
  void aWriteWhoseAnswerIsLostFailsThoughItsFileMayHaveLanded() {
    proxy.fault(Fault.LOSE_ANSWER, requestLine -> requestLine.startsWith("PUT "));
    MetadataFiles files = new MetadataFiles(adapters);
    TableMetadata placed = files.placeTable(metadata(faulty, "lost"), Optional.empty());

    assertThatThrownBy(() -> files.writePlaced(faulty, placed))
        .isInstanceOf(StorageUnavailableException.class)
        .hasMessageContaining("'faulty-lake'");

    // The store did write it: what the write's caller must not do is point at it (the catalog
    // swaps its pointer only after a write that returned).
    proxy.fault(Fault.NONE);
    StoragePath key = faulty.pathOf(placed.metadataFileLocation()).orElseThrow();
    assertThat(adapters.open(faulty).exists(key)).isTrue();
  }

  @Test
  void aStoreThatDoesNotAnswerCostsACallNoMoreThanTheBound() {
    proxy.fault(Fault.HANG);
    MetadataFiles files = new MetadataFiles(adapters);

    long started = System.nanoTime();
    assertThatThrownBy(() -> files.writeTable(faulty, metadata(faulty, "t1"), Optional.empty()))
        .isInstanceOf(StorageUnavailableException.class)
        .hasMessageContaining("'faulty-lake'");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);

    started = System.nanoTime();
    assertThatThrownBy(() -> files.readTable(faulty, faulty.uriOf(new StoragePath(
        "org/ns/t/metadata/00001-" + UUID.randomUUID() + ".metadata.json"))))
        .isInstanceOf(StorageUnavailableException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
  }

  @Test
  void aStoreNobodyListensForIsUnavailable() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    BucketConfig gone = config("gone-lake", "faulty", "http://127.0.0.1:" + port);

    assertThatThrownBy(() -> adapters.open(gone).get(new StoragePath("a/b")))
        .isInstanceOf(StorageUnavailableException.class)
        .hasMessageContaining("'gone-lake'");
  }

  @Test
  void aHangingBucketHoldsNoMoreThanItsBulkheadAndOtherBucketsGoOn() throws Exception {
    adapters.open(healthy).put(new StoragePath("warm/up"), new byte[] {1});
    proxy.fault(Fault.HANG);
    ExecutorService callers = Executors.newFixedThreadPool(CALLS_PER_BUCKET);
    try {
      List<Future<?>> held = new ArrayList<>();
      for (int i = 0; i < CALLS_PER_BUCKET; i++) {
        held.add(callers.submit(() -> adapters.open(faulty).get(new StoragePath("held/key"))));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (proxy.hanging() < CALLS_PER_BUCKET && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      }
      assertThat(proxy.hanging()).isEqualTo(CALLS_PER_BUCKET);

      // One more for the hanging bucket is turned away after the bulkhead's short wait, never
      // reaching the store; its request's thread is free again.
      int reachedTheStore = proxy.faulted();
      assertThatThrownBy(() -> adapters.open(faulty).get(new StoragePath("one/more")))
          .isInstanceOf(StorageUnavailableException.class)
          .hasMessageContaining("'faulty-lake'")
          .hasMessageContaining(CALLS_PER_BUCKET + " calls in flight");
      assertThat(proxy.faulted()).isEqualTo(reachedTheStore);

      // The other bucket is served while the hanging one still holds its calls.
      adapters.open(healthy).put(new StoragePath("while/hanging"), new byte[] {7});
      assertThat(adapters.open(healthy).get(new StoragePath("while/hanging"))).isPresent();
      assertThat(held).noneMatch(Future::isDone);

      for (Future<?> call : held) {
        assertThatThrownBy(() -> call.get(BOUND.toSeconds(), TimeUnit.SECONDS))
            .hasCauseInstanceOf(StorageUnavailableException.class);
      }
    } finally {
      callers.shutdownNow();
    }
  }

  private static TableMetadata metadata(BucketConfig bucket, String table) {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    return TableMetadata.newTableMetadata(schema, PartitionSpec.unpartitioned(),
        SortOrder.unsorted(), bucket.uriOf(new StoragePath("org/ns/" + table)), Map.of());
  }

  private static BucketConfig config(String nickname, String bucket, String endpoint) {
    return new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName(nickname),
        StoragePlatform.S3_COMPATIBLE, bucket, StoragePath.root(), Optional.of(endpoint),
        Optional.of("us-east-1"), true, BucketCredentials.staticKeys(MotoServer.ACCESS_KEY,
            MotoServer.SECRET_KEY), false);
  }
}
