package io.floe.application.service.maintenance;

import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.ManifestRewriting;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Rewrites the current snapshot's data manifests, when it has at least the threshold's number of
 * them, into as few as iceberg-core's target manifest size allows
 * ({@code commit.manifest.target-size-bytes}), with its own {@code RewriteManifests},
 * which re-applies itself on the new head when a writer commits meanwhile.
 */
final class ManifestRewrite {

  TableMaintenance.Manifests run(Table table, ManifestRewriting settings, boolean dryRun) {
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return new TableMaintenance.Manifests("nothing-to-do", 0, 0);
    }
    int before = current.allManifests(table.io()).size();
    long dataManifests = current.allManifests(table.io()).stream()
        .filter(manifest -> manifest.content() == ManifestContent.DATA).count();
    if (dataManifests < settings.minManifests()) {
      return new TableMaintenance.Manifests("nothing-to-do", before, before);
    }
    if (dryRun) {
      return new TableMaintenance.Manifests("dry-run", before, before);
    }
    // One cluster: every data file of a spec goes into the fewest manifests of the target size.
    table.rewriteManifests().clusterBy(file -> "all").commit();
    table.refresh();
    return new TableMaintenance.Manifests("done", before,
        table.currentSnapshot().allManifests(table.io()).size());
  }
}
