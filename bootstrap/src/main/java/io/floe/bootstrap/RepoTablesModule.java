package io.floe.bootstrap;

import io.floe.adapters.icechunk.BucketRepoTablePointers;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.JooqRepoStore;
import io.floe.adapters.persistence.jooq.PostgresRepoCommitLocks;
import io.floe.adapters.rest.iceberg.TableUseCases;
import io.floe.adapters.rest.iceberg.ViewUseCases;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.in.namespace.IcebergNamespacesUseCase;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.repo.tables.RepoAwareCommitTable;
import io.floe.application.service.repo.tables.RepoAwareCommitTransaction;
import io.floe.application.service.repo.tables.RepoAwareCreateTable;
import io.floe.application.service.repo.tables.RepoAwareDropTable;
import io.floe.application.service.repo.tables.RepoAwareListTables;
import io.floe.application.service.repo.tables.RepoAwareListViews;
import io.floe.application.service.repo.tables.RepoAwareLoadTable;
import io.floe.application.service.repo.tables.RepoAwareNamespaces;
import io.floe.application.service.repo.tables.RepoAwareRegisterTable;
import io.floe.application.service.repo.tables.RepoAwareRenameTable;
import io.floe.application.service.repo.tables.RepoAwareReportMetrics;
import io.floe.application.service.repo.tables.RepoAwareStorageAccess;
import io.floe.application.service.repo.tables.RepoNamespaces;
import io.floe.application.service.repo.tables.RepoRouting;
import io.floe.application.service.repo.tables.RepoTableCommits;
import io.floe.application.service.repo.tables.RepoTableCommitter;
import io.floe.application.service.repo.tables.RepoTableCreation;
import io.floe.application.service.repo.tables.RepoTableReads;

/**
 * The wiring of the tables repos declare, served beside plain tables: each Iceberg REST use case
 * is wrapped so that a namespace naming a repo version goes to its repo and every other one to
 * the plain use case, unchanged.
 */
final class RepoTablesModule {
  final IcebergNamespacesUseCase namespaces;
  final TableUseCases tables;
  final ViewUseCases views;

  RepoTablesModule(Database database, OrgStore orgs, BucketStorageProvider storage,
      IcechunkRepositories icechunk, AccessPolicy policy, MetadataFiles files,
      TablePlacement placement, ChangePublisher publisher, RequestSigner signer,
      IcebergNamespacesUseCase plainNamespaces, CatalogModule plain) {
    BucketRepoTablePointers pointers = new BucketRepoTablePointers(storage);
    RepoRouting routing = new RepoRouting(new RepoNamespaces(new JooqRepoStore(database), orgs,
        pointers, icechunk, policy));
    RepoTableCommitter committer = new RepoTableCommitter(pointers,
        new PostgresRepoCommitLocks(database), database, publisher);
    RepoTableReads reads = new RepoTableReads(files, plain.storageAccess);
    RepoTableCreation creation = new RepoTableCreation(pointers, placement, files, committer,
        publisher, plain.storageAccess);
    RepoTableCommits commits = new RepoTableCommits(pointers, files, plain.tableChanges,
        committer, publisher);
    TableUseCases t = plain.tables;
    this.namespaces = new RepoAwareNamespaces(plainNamespaces, routing);
    this.tables = new TableUseCases(
        new RepoAwareListTables(t.list(), routing, reads),
        new RepoAwareCreateTable(t.create(), routing, creation),
        new RepoAwareLoadTable(t.load(), routing, reads),
        new RepoAwareCommitTable(t.commit(), routing, commits, creation),
        new RepoAwareCommitTransaction(t.commitTransaction(), routing, commits),
        new RepoAwareDropTable(t.drop(), routing),
        new RepoAwareRenameTable(t.rename(), routing),
        new RepoAwareRegisterTable(t.register(), routing),
        new RepoAwareReportMetrics(t.reportMetrics(), routing),
        new RepoAwareStorageAccess(t.storageAccess(), routing, plain.storageAccess, signer));
    ViewUseCases v = plain.views;
    this.views = new ViewUseCases(new RepoAwareListViews(v.list(), routing), v.create(), v.load(),
        v.replace(), v.drop(), v.rename(), v.register());
  }
}
