package io.floe.application.port.in.maintenance;

import io.floe.application.model.MaintenanceJob;
import io.floe.application.security.OrgContext;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The maintenance scheduler's jobs of one table, newest first, with how each went: pending (and
 * when it is due, with the error of its last attempt when it failed), running (and on which
 * replica, until when), or ended. Needs read access to the table.
 */
public interface ListMaintenanceJobsUseCase {
  int MAX_LIMIT = 500;
  int DEFAULT_LIMIT = 50;

  List<MaintenanceJob> jobs(OrgContext context, TableIdentifier table, int limit);
}
