package io.floe.adapters.rest.iceberg;

import io.floe.application.port.in.storage.StorageAccessUseCase;
import io.floe.application.port.in.table.CommitTableUseCase;
import io.floe.application.port.in.table.CommitTransactionUseCase;
import io.floe.application.port.in.table.CreateTableUseCase;
import io.floe.application.port.in.table.DropTableUseCase;
import io.floe.application.port.in.table.ListTablesUseCase;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.port.in.table.PlanTableScanUseCase;
import io.floe.application.port.in.table.RegisterTableUseCase;
import io.floe.application.port.in.table.RenameTableUseCase;
import io.floe.application.port.in.table.ReportMetricsUseCase;
import java.util.Objects;

/** The use cases behind the Iceberg REST catalog's table routes. */
public record TableUseCases(ListTablesUseCase list, CreateTableUseCase create,
    LoadTableUseCase load, CommitTableUseCase commit, CommitTransactionUseCase commitTransaction,
    DropTableUseCase drop, RenameTableUseCase rename, RegisterTableUseCase register,
    ReportMetricsUseCase reportMetrics, StorageAccessUseCase storageAccess,
    PlanTableScanUseCase planning) {
  public TableUseCases {
    Objects.requireNonNull(list, "list");
    Objects.requireNonNull(create, "create");
    Objects.requireNonNull(load, "load");
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(commitTransaction, "commitTransaction");
    Objects.requireNonNull(drop, "drop");
    Objects.requireNonNull(rename, "rename");
    Objects.requireNonNull(register, "register");
    Objects.requireNonNull(reportMetrics, "reportMetrics");
    Objects.requireNonNull(storageAccess, "storageAccess");
    Objects.requireNonNull(planning, "planning");
  }
}
