package io.floe.bootstrap;

import io.floe.adapters.rest.iceberg.TableUseCases;
import io.floe.adapters.rest.iceberg.ViewUseCases;
import io.floe.adapters.rest.s3.LocalBucketEndpoint;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.iceberg.replay.ChangeReplay;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.security.IdentityCheckedStorage;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.application.service.catalog.CatalogEntries;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.CatalogObjectRenamer;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.service.storage.StorageAccessService;
import io.floe.application.service.storage.LocalBucketJobAccess;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.application.service.table.CommitTableService;
import io.floe.application.service.table.CommitTransactionService;
import io.floe.application.service.table.CreateTableService;
import io.floe.application.service.table.DropTableService;
import io.floe.application.service.table.ListTablesService;
import io.floe.application.service.table.LoadTableService;
import io.floe.application.service.table.RegisterTableService;
import io.floe.application.service.table.RepoTableCreation;
import io.floe.application.service.table.RenameTableService;
import io.floe.application.service.table.ReportMetricsService;
import io.floe.application.service.table.StagedTableCompletion;
import io.floe.application.service.table.TableChanges;
import io.floe.application.service.table.TableCommits;
import io.floe.application.service.view.CreateViewService;
import io.floe.application.service.view.DropViewService;
import io.floe.application.service.view.ListViewsService;
import io.floe.application.service.view.LoadViewService;
import io.floe.application.service.view.RegisterViewService;
import io.floe.application.service.view.RenameViewService;
import io.floe.application.service.view.ReplaceViewService;
import io.floe.application.service.table.planning.PlanTableScanService;
import io.floe.application.service.table.planning.ScanPlanningLimits;
import io.floe.application.service.table.planning.ScanPlanningModes;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The wiring of tables and views as engines see them: every use case of the Iceberg REST catalog
 * below the namespace, for plain namespaces and repo versions alike, the one committer that moves
 * their pointers wherever they live, and storage access.
 */
final class CatalogModule {
  final TableUseCases tables;
  final ViewUseCases views;
  final TableStorageAccess storageAccess;
  final TableChanges tableChanges;
  final MetadataFiles files;
  final TablePlacement placement;
  final CatalogLocator locator;
  // The threads scan plans read manifests on: their number caps the manifests read at once.
  final ExecutorService manifestReaders;

  CatalogModule(Adapters adapters, Clock clock, AccessPolicy policy, ChangePublisher publisher,
      PrefixClaimer claimer, RepoTablesModule repoTables, MetadataLimits limits,
      ScanPlanningSettings planning) {
    CatalogObjectStore objects = adapters.objects();
    IdentityCheckedStorage storage = adapters.storage();
    IdGenerator ids = adapters.ids();
    this.files = new MetadataFiles(storage, limits);
    this.placement = new TablePlacement(adapters.orgs(), claimer, ids, storage);
    this.locator = new CatalogLocator(adapters.orgs(), adapters.namespaces(), objects, policy,
        repoTables.namespaces);
    CatalogEntries entries = new CatalogEntries(objects, clock);
    CatalogCommitter committer = new CatalogCommitter(
        new PointerStores(adapters.pointers(), repoTables.branches), adapters.database(),
        publisher, clock, adapters.metrics());
    CatalogObjectRenamer renamer = new CatalogObjectRenamer(locator, objects, publisher, clock,
        policy);
    // A maintenance job outside the server reaches a local bucket's table through the S3
    // endpoint, with keys for the table's prefix only.
    this.storageAccess = new TableStorageAccess(storage, storage, policy,
        new LocalBucketJobAccess(adapters.localRepoCredentials(), LocalBucketEndpoint.BUCKET));
    this.tableChanges = new TableChanges(files, new ChangeReplay());
    TableCommits commits = new TableCommits(locator, policy, files, committer, publisher,
        tableChanges);
    RepoTableCreation inRepo = new RepoTableCreation(repoTables.namespaces, placement, files,
        committer, publisher, storageAccess);
    AtomicInteger readerThreads = new AtomicInteger();
    this.manifestReaders = Executors.newFixedThreadPool(planning.manifestsAtOnce(), task -> {
      Thread thread = new Thread(task, "floe-scan-planning-" + readerThreads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.tables = new TableUseCases(
        new ListTablesService(locator, policy, objects),
        new CreateTableService(locator, policy, placement, files, entries, publisher,
            storageAccess, ids, inRepo),
        new LoadTableService(locator, policy, files, storageAccess,
            new ScanPlanningModes(planning.mode())),
        new CommitTableService(commits, new StagedTableCompletion(locator, policy, placement,
            files, entries, publisher, ids, inRepo)),
        new CommitTransactionService(commits),
        new DropTableService(locator, policy, objects, publisher),
        new RenameTableService(locator, renamer),
        new RegisterTableService(locator, policy, files, entries, committer, publisher, ids),
        new ReportMetricsService(locator, policy),
        new StorageAccessService(locator, policy, storageAccess, storage),
        new PlanTableScanService(locator, policy, files, storageAccess, adapters.planTokens(),
            new ScanPlanningLimits(planning.tasksPerPage(), manifestReaders)));
    this.views = new ViewUseCases(
        new ListViewsService(locator, policy, objects),
        new CreateViewService(locator, policy, placement, files, entries, publisher, ids),
        new LoadViewService(locator, policy, files),
        new ReplaceViewService(locator, policy, files, committer, publisher),
        new DropViewService(locator, policy, objects, publisher),
        new RenameViewService(locator, renamer),
        new RegisterViewService(locator, policy, files, entries, publisher, ids));
  }
}
